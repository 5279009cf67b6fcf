/**
 * A cluster that is gone, against a real control plane and real sockets: the kube-apiserver killed
 * and started again mid-rollout (same certificates), frozen mid-rollout (accepts TCP, answers
 * nothing), a TCP server that never answers, and a URL that is not Kubernetes. Each is said within
 * seconds; a lost API server is waited for with component timers paused, and the rollout resumes
 * when it is back. The time from loss to the first message is printed for docs/runtime.md.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { AddressInfo } from 'node:net';
import { stringify } from 'yaml';
import { ComponentGraph, graphFromManifests } from '../../lib/graph';
import { runCli } from '../../lib/cli';
import { processIo } from '../../lib/cli/io';
import { ExitCode } from '../../lib/cli/exit-codes';
import { RunEvent } from '../../lib/runtime/events';
import { deploy } from '../../lib/runtime/operations/deploy';
import { destroy } from '../../lib/runtime/operations/destroy';
import { KubeCluster } from '../../lib/runtime/kube/kube-cluster';
import { ApiServerProcess } from './support/api-server-process';
import { kubeconfigFromEnv } from './support/cluster';
import { uniqueSuffix, waitFor } from './support/kube';
import { fixtureCloud } from './runtime/fixtures';

jest.setTimeout(300_000);

// After the API server returns, the controller manager's informers take up to ~30 s to reconnect
// (client-go back-off): the component timeout leaves room for that, and the loss outlasts it.
const COMPONENT_TIMEOUT_MS = 45_000;
const LOSS_MS = COMPONENT_TIMEOUT_MS + 5_000;
const namespaces: string[] = [];

afterAll(async () => {
  const cluster = await KubeCluster.connect({ kubeconfig: kubeconfigFromEnv() });
  for (const name of namespaces)
    await cluster.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  cluster.close();
});

/**
 * A chain a <- b <- c: `a` a Deployment whose pods take 2 s; `b` and `c` Deployments too, or, with
 * `after: 'config'`, ConfigMaps — Current as soon as they exist, so their fate after a restart
 * depends on the engine alone and not on how soon the controller manager's informers reconnect
 * (client-go backs them off up to a minute after the API server was gone).
 */
function chain(prefix: string, after: 'deployment' | 'config'): ComponentGraph {
  const namespace = `sw-lost-${prefix}-${uniqueSuffix()}`;
  namespaces.push(namespace);
  const kind = after === 'config' ? ('config' as const) : undefined;
  return graphFromManifests(
    fixtureCloud(prefix, namespace, [
      { name: 'a', readyDelay: '2s' },
      { name: 'b', readyDelay: '3s', needs: { a: 'ready' }, kind },
      { name: 'c', readyDelay: '2s', needs: { b: 'ready' }, kind },
    ]),
  );
}

async function apiAnswers(): Promise<boolean> {
  const probe = await KubeCluster.connect({ kubeconfig: kubeconfigFromEnv() });
  try {
    await probe.serverVersion();
    return true;
  } catch {
    return false;
  } finally {
    probe.close();
  }
}

/**
 * Deploys `graph`, and once component `a` is verified runs `disturb` (which takes the API server
 * away and brings it back); returns the result, the events and when the API server went away.
 */
async function deployDisturbed(graph: ComponentGraph, disturb: (wentAway: () => void) => Promise<void>) {
  const cluster = await KubeCluster.connect({ kubeconfig: kubeconfigFromEnv(), apiLossTimeoutMs: 180_000 });
  const events: RunEvent[] = [];
  let disturbed: Promise<void> | undefined;
  let awayAt = 0;
  try {
    const result = await deploy(graph, {
      cluster,
      componentTimeoutMs: COMPONENT_TIMEOUT_MS,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'unit-done' && e.unit === 'a') disturbed ??= disturb(() => (awayAt = Date.now()));
      },
    });
    await disturbed;
    return { result, events, awayAt };
  } finally {
    cluster.close();
  }
}

async function destroyWithFreshPort(graph: ComponentGraph): Promise<void> {
  const cluster = await KubeCluster.connect({ kubeconfig: kubeconfigFromEnv() });
  try {
    await destroy(graph, { cluster, propagationPolicy: 'Background' });
  } finally {
    cluster.close();
  }
}

function report(what: string, ms: number): void {
  process.stderr.write(`[e2e] ${what}: ${(ms / 1000).toFixed(1)} s\n`);
}

describe('an API server lost mid-rollout', () => {
  afterAll(async () => {
    // Leave an answering API server to the suites that run next.
    await waitFor('the API server to answer again', async () => ((await apiAnswers()) ? true : undefined), {
      timeoutMs: 120_000,
      intervalMs: 1_000,
    });
  });

  test('frozen (it accepts connections and answers nothing): said within seconds by the liveness probe, resumed when it thaws', async () => {
    // GIVEN
    const apiServer = ApiServerProcess.of(kubeconfigFromEnv());
    const graph = chain('frozen', 'deployment');

    // WHEN it is frozen for longer than a component timeout
    const { result, events, awayAt } = await deployDisturbed(graph, async (wentAway) => {
      apiServer.freeze();
      wentAway();
      await new Promise((resolve) => setTimeout(resolve, LOSS_MS));
      apiServer.resume();
    });

    // THEN
    const lost = events.find((e) => e.type === 'api-lost');
    expect(lost).toBeDefined();
    const toFirstMessage = Date.parse(lost?.at ?? '') - awayAt;
    report('kube-apiserver frozen -> api-lost', toFirstMessage);
    expect(toFirstMessage).toBeLessThan(15_000);
    const restored = events.find((e) => e.type === 'api-restored');
    expect(restored?.type === 'api-restored' && restored.lostForMs).toBeGreaterThan(
      COMPONENT_TIMEOUT_MS - 15_000,
    );
    expect(result.rollout.components.map((c) => `${c.name}: ${c.state} ${c.reason ?? ''}`.trim())).toEqual([
      'a: verified',
      'b: verified',
      'c: verified',
    ]);

    await destroyWithFreshPort(graph);
  });

  test('killed and started again with the same certificates: said within seconds, waited for with timers paused, resumed', async () => {
    // GIVEN a chain deploying, and the kube-apiserver killed once `a` is verified, for longer
    // than a component timeout, then started again
    const apiServer = ApiServerProcess.of(kubeconfigFromEnv());
    const graph = chain('killed', 'config');

    // WHEN
    const { result, events, awayAt } = await deployDisturbed(graph, async (wentAway) => {
      apiServer.kill();
      wentAway();
      await new Promise((resolve) => setTimeout(resolve, LOSS_MS));
      apiServer.start();
    });

    // THEN the loss was said within seconds, the rollout waited, and every component verified
    const lost = events.find((e) => e.type === 'api-lost');
    const restored = events.find((e) => e.type === 'api-restored');
    expect(lost).toBeDefined();
    expect(restored).toBeDefined();
    const toFirstMessage = Date.parse(lost?.at ?? '') - awayAt;
    report('kube-apiserver killed -> api-lost', toFirstMessage);
    expect(toFirstMessage).toBeLessThan(10_000);
    expect(restored?.type === 'api-restored' && restored.lostForMs).toBeGreaterThan(COMPONENT_TIMEOUT_MS);
    expect(result.rollout.components.map((c) => `${c.name}: ${c.state} ${c.reason ?? ''}`.trim())).toEqual([
      'a: verified',
      'b: verified',
      'c: verified',
    ]);
    expect(result.ok).toBe(true);

    await destroyWithFreshPort(graph);
  });
});

describe('an API server that is not there', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-lost-'));
    fs.writeFileSync(
      path.join(dir, 'cloud.yaml'),
      fixtureCloud('lost', 'sw-lost-none', [{ name: 'a' }])
        .map((o) => stringify(o))
        .join('---\n'),
    );
  });

  /** Runs `stackwright deploy` as a user would, against a kubeconfig whose server is `server`. */
  async function deployAgainst(server: string) {
    const kubeconfig = path.join(dir, `kubeconfig-${uniqueSuffix()}`);
    fs.writeFileSync(
      kubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server, 'insecure-skip-tls-verify': true } }],
        users: [{ name: 'u', user: { token: 'x' } }],
        contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'ctx',
      }),
    );
    let stderr = '';
    const io = {
      ...processIo(),
      stdout: { write: () => undefined },
      stderr: { write: (s: string) => void (stderr += s) },
    };
    const started = Date.now();
    const code = await runCli(['--kubeconfig', kubeconfig, 'deploy', dir], io);
    return { code, stderr, ms: Date.now() - started };
  }

  test('a TCP server that never answers is reported unreachable (exit 3) within seconds', async () => {
    // GIVEN
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;

    // WHEN
    const { code, stderr, ms } = await deployAgainst(`https://127.0.0.1:${port}`);

    // THEN
    report('TCP server that never answers -> exit 3', ms);
    expect(code).toBe(ExitCode.UNREACHABLE);
    expect(stderr).toContain(`cannot reach the API server at https://127.0.0.1:${port} (context ctx)`);
    expect(ms).toBeLessThan(7_000);
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  test('a URL that is not Kubernetes is named as such (exit 3)', async () => {
    // GIVEN a web server that answers 404 to everything
    const web = http.createServer((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<html>404 Not Found</html>');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;

    // WHEN
    const { code, stderr } = await deployAgainst(url);

    // THEN
    expect(code).toBe(ExitCode.UNREACHABLE);
    expect(stderr).toBe(
      `stackwright: ${url} is not a Kubernetes API server: GET /version answered HTTP 404; check the server of context ctx in the kubeconfig\n`,
    );
    await new Promise((resolve) => web.close(resolve));
  });
});
