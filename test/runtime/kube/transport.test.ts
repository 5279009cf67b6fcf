import * as http from 'http';
import { AddressInfo } from 'net';
import { KubeConnection } from '../../../lib/runtime/kube/connection';
import { ClusterUnreachableError } from '../../../lib/runtime/cluster-unreachable-error';
import { KubeApiError } from '../../../lib/runtime/kube/errors';
import { KubeTransport } from '../../../lib/runtime/kube/transport';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A local HTTP server answering with `handlers` in turn (the last one repeats). */
async function server(
  ...handlers: Handler[]
): Promise<{ url: string; requests: http.IncomingMessage[]; close: () => Promise<void> }> {
  const requests: http.IncomingMessage[] = [];
  const srv = http.createServer((req, res) => {
    requests.push(req);
    const handler = handlers[Math.min(requests.length - 1, handlers.length - 1)];
    handler(req, res);
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        srv.closeAllConnections();
        srv.close(() => resolve());
      }),
  };
}

/** A connection whose credentials change every time they are resolved (t0, t1, …), like an exec plugin's tokens. */
function connection(url: string): KubeConnection {
  let resolved = 0;
  return {
    server: url,
    context: 'test',
    tls: {},
    authHeaders: async () => ({ Authorization: `Bearer t${resolved++}` }),
  };
}

const json =
  (status: number, body: unknown): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };

const FAST = { attempts: 3, baseMs: 1, maxMs: 1, random: () => 0 };

describe('KubeTransport', () => {
  test('retries a 503 and counts every attempt', async () => {
    // GIVEN a server that is unavailable once
    const s = await server(
      json(503, { kind: 'Status', code: 503, reason: 'ServiceUnavailable', message: 'etcd leader changed' }),
      json(200, { ok: true }),
    );
    const transport = new KubeTransport(connection(s.url), FAST);
    try {
      // WHEN
      const response = await transport.request({ method: 'GET', path: '/api', verb: 'get' });

      // THEN
      expect(response.body).toEqual({ ok: true });
      expect(transport.counter.snapshot().byVerb.get).toBe(2);
      expect(s.requests[0].headers['user-agent']).toBe('stackwright');
      expect(s.requests[0].headers.authorization).toBe('Bearer t0');
    } finally {
      transport.close();
      await s.close();
    }
  });

  test('does not retry a 404 and reports the server reason', async () => {
    const s = await server(
      json(404, { kind: 'Status', code: 404, reason: 'NotFound', message: 'configmaps "x" not found' }),
    );
    const transport = new KubeTransport(connection(s.url), FAST);
    try {
      const error = await transport
        .request({ method: 'GET', path: '/api/v1/namespaces/n/configmaps/x', verb: 'get' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KubeApiError);
      expect(error).toMatchObject({ status: 404, reason: 'NotFound', message: 'configmaps "x" not found' });
      expect(s.requests).toHaveLength(1);
    } finally {
      transport.close();
      await s.close();
    }
  });

  test('gives up after the last attempt with the last error', async () => {
    const s = await server(
      json(429, { kind: 'Status', code: 429, reason: 'TooManyRequests', message: 'slow down' }),
    );
    const transport = new KubeTransport(connection(s.url), FAST);
    try {
      await expect(transport.request({ method: 'GET', path: '/api', verb: 'get' })).rejects.toMatchObject({
        status: 429,
      });
      expect(s.requests).toHaveLength(3);
    } finally {
      transport.close();
      await s.close();
    }
  });

  test('resolves the credentials again after a 401 (expired token)', async () => {
    // GIVEN a server that rejects the first token
    const s = await server(json(401, { kind: 'Status', code: 401, reason: 'Unauthorized' }), json(200, {}));
    const transport = new KubeTransport(connection(s.url), FAST);
    try {
      // WHEN
      await transport.request({ method: 'GET', path: '/api', verb: 'get' });

      // THEN the credentials were resolved again, and the retry carried the new token
      expect(s.requests.map((r) => r.headers.authorization)).toEqual(['Bearer t0', 'Bearer t1']);
    } finally {
      transport.close();
      await s.close();
    }
  });

  test('reports an unreachable server as ClusterUnreachableError naming it', async () => {
    // GIVEN a port nothing listens on
    const s = await server(json(200, {}));
    const url = s.url;
    await s.close();
    const transport = new KubeTransport(connection(url), FAST);

    // WHEN / THEN
    await expect(transport.request({ method: 'GET', path: '/version', verb: 'get' })).rejects.toThrow(
      ClusterUnreachableError,
    );
    await expect(transport.request({ method: 'GET', path: '/version', verb: 'get' })).rejects.toThrow(url);
    transport.close();
  });

  test('streams a watch line by line, however the server splits it', async () => {
    // GIVEN a watch response whose JSON lines arrive in odd chunks
    const s = await server((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n{"type":"MOD');
      setTimeout(() => {
        res.write('IFIED","object":{"metadata":{"name":"a"}}}\n');
        res.end('{"type":"DELETED","object":{"metadata":{"name":"a"}}}\n');
      }, 10);
    });
    const transport = new KubeTransport(connection(s.url), FAST);
    const lines: unknown[] = [];
    try {
      // WHEN
      await transport.stream(
        '/api/v1/configmaps',
        { watch: 'true', resourceVersion: '5' },
        (line) => lines.push(line),
        new AbortController().signal,
      );

      // THEN
      expect(lines.map((l) => (l as { type: string }).type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
      expect(s.requests[0].url).toBe('/api/v1/configmaps?watch=true&resourceVersion=5');
      expect(transport.counter.snapshot().byVerb.watch).toBe(1);
    } finally {
      transport.close();
      await s.close();
    }
  });
});
