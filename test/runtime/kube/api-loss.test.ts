import * as http from 'http';
import * as net from 'net';
import { AddressInfo } from 'net';
import { KubeConnection } from '../../../lib/runtime/kube/connection';
import { ClusterUnreachableError } from '../../../lib/runtime/cluster-unreachable-error';
import { KubeCluster } from '../../../lib/runtime/kube/kube-cluster';
import { KubeTransport } from '../../../lib/runtime/kube/transport';
import { ApiState } from '../../../lib/runtime/ports';

// The Kubernetes port against API servers that are not there in various ways: one that accepts
// connections and never answers, one that goes silent mid-run and comes back, one that stays
// away, and a web server that is not Kubernetes. Real sockets, short timeouts.

function connection(url: string): KubeConnection {
  return { server: url, context: 'test', tls: {}, authHeaders: async () => ({}) };
}

const FAST_RETRY = { attempts: 3, baseMs: 1, maxMs: 1, random: () => 0 };
const FAST_LIVENESS = { intervalMs: 100, timeoutMs: 150, confirmAfterMs: 50 };

async function listen(server: net.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: net.Server & { closeAllConnections?: () => void }): Promise<void> {
  server.closeAllConnections?.();
  await new Promise((resolve) => server.close(resolve));
}

/** An API server that answers `{}` unless `silent`: then it accepts and never answers. */
async function apiServer() {
  const state = { silent: false, answered: [] as string[] };
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    if (state.silent) {
      held.push(res);
      return;
    }
    state.answered.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(req.url === '/version' ? { gitVersion: 'v1.36.3' } : { kind: 'APIResourceList' }));
  });
  const url = await listen(server);
  return { state, url, close: () => close(server) };
}

describe('a lost API server', () => {
  test('one that accepts TCP but never answers is reported unreachable within the first-contact timeout', async () => {
    // GIVEN a socket that takes connections and says nothing
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    const url = await listen(silent);
    const cluster = new KubeCluster(new KubeTransport(connection(url), FAST_RETRY));
    const started = Date.now();

    // WHEN
    const error = await cluster.serverVersion().catch((e: unknown) => e);

    // THEN within seconds (5 s first-contact timeout), not minutes
    expect(error).toBeInstanceOf(ClusterUnreachableError);
    expect((error as Error).message).toBe(
      `cannot reach the API server at ${url} (context test): ETIMEDOUT no answer within 5000 ms`,
    );
    expect(Date.now() - started).toBeLessThan(7_000);
    cluster.close();
    for (const s of sockets) s.destroy();
    await close(silent);
  }, 15_000);

  test('one that goes silent mid-run is detected, the request waits, and it goes on when the server answers again', async () => {
    // GIVEN a port that talked to the server once
    const api = await apiServer();
    const transport = new KubeTransport(connection(api.url), FAST_RETRY, 'test', {
      apiLossTimeoutMs: 10_000,
      liveness: FAST_LIVENESS,
    });
    const states: { state: ApiState['state']; at: number }[] = [];
    transport.availability.subscribe((s) => states.push({ state: s.state, at: Date.now() }));
    await transport.request({ method: 'GET', path: '/api', verb: 'get' });

    // WHEN the server goes silent while a request is under way, and answers again after a second
    api.state.silent = true;
    const wentSilentAt = Date.now();
    const request = transport.request({ method: 'GET', path: '/api/v1', verb: 'get' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    api.state.silent = false;
    const response = await request;

    // THEN the loss was seen within the liveness budget, and the request was answered after all
    expect(response.status).toBe(200);
    expect(states.map((s) => s.state)).toEqual(['lost', 'available']);
    expect(states[0].at - wentSilentAt).toBeLessThan(1_000);
    expect(api.state.answered).toContain('/api/v1');
    transport.close();
    await api.close();
  }, 15_000);

  test('one that stays away past the API-loss timeout fails the waiting request, naming the timeout', async () => {
    // GIVEN
    const api = await apiServer();
    const transport = new KubeTransport(connection(api.url), FAST_RETRY, 'test', {
      apiLossTimeoutMs: 500,
      liveness: FAST_LIVENESS,
    });
    await transport.request({ method: 'GET', path: '/api', verb: 'get' });
    api.state.silent = true;

    // WHEN
    const error = await transport
      .request({ method: 'GET', path: '/api/v1', verb: 'get' })
      .catch((e: unknown) => e);

    // THEN
    expect(error).toBeInstanceOf(ClusterUnreachableError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^the API server at ${api.url} stopped answering \\(no answer to GET /readyz within 150 ms\\) and did not come back within 500ms \\(--api-loss-timeout\\)$`,
      ),
    );
    expect(transport.availability.current.state).toBe('gone');
    transport.close();
    await api.close();
  }, 15_000);
});

describe('a URL that is not Kubernetes', () => {
  test.each([
    ['answers 404', 404, 'text/html', '<html>not found</html>', 'answered HTTP 404'],
    [
      'answers a web page',
      200,
      'text/html',
      '<html>welcome</html>',
      'answered HTTP 200 without version information',
    ],
  ])('is named as such when it %s', async (_name, status, type, body, said) => {
    // GIVEN
    const web = http.createServer((_req, res) => {
      res.writeHead(status, { 'Content-Type': type });
      res.end(body);
    });
    const url = await listen(web);
    const cluster = new KubeCluster(new KubeTransport(connection(url), FAST_RETRY));

    // WHEN
    const error = await cluster.serverVersion().catch((e: unknown) => e);

    // THEN
    expect(error).toBeInstanceOf(ClusterUnreachableError);
    expect((error as Error).message).toBe(
      `${url} is not a Kubernetes API server: GET /version ${said}; check the server of context test in the kubeconfig`,
    );
    cluster.close();
    await close(web);
  });
});
