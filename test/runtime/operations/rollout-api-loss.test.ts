import { exitCodeFor } from '../../../lib/cli/commands/cluster-command';
import { ExitCode } from '../../../lib/cli/exit-codes';
import { rollout } from '../../../lib/runtime/operations/rollout';
import { RolloutOptions } from '../../../lib/runtime/operations/rollout-options';
import { InMemoryCluster, SIM_NEVER_READY, SIM_READY_AFTER_MS } from '../../../lib/testing/in-memory-cluster';
import { ManualClock } from '../../../lib/testing/manual-clock';
import { ComponentGraph } from '../../../lib/graph';
import { component, deployment, EventRecorder, testGraph, NS } from '../support/manifests';

// The engine while the API server is lost: component timers pause, requests wait, the run goes on
// when it is back, or ends as `unreachable` (exit 3) when it stays away past the loss timeout.

const START = Date.UTC(2025, 0, 1);
const at = (ms: number) => new Date(START + ms).toISOString();

function setup(apiLossTimeoutMs = 120_000) {
  const clock = new ManualClock(START);
  const cluster = new InMemoryCluster({ clock, apiLossTimeoutMs });
  const recorder = new EventRecorder();
  const run = (graph: ComponentGraph, extra: RolloutOptions = {}) =>
    clock.runUntilSettled(
      rollout(graph, cluster, { clock, onEvent: recorder.onEvent, diagnoseAfterMs: 600_000, ...extra }),
    );
  const after = (ms: number, fn: () => void) => void clock.sleep(ms).then(fn);
  return { clock, cluster, recorder, run, after };
}

const READY = {
  observedGeneration: 1,
  replicas: 1,
  updatedReplicas: 1,
  readyReplicas: 1,
  availableReplicas: 1,
  conditions: [{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' }],
};

describe('a lost API server during a rollout', () => {
  test('pauses the component timers: a component that becomes ready after the server is back verifies', async () => {
    // GIVEN a 30 s component timeout, the API server lost from 10 s to 70 s, the Deployment ready at 80 s
    const { run, cluster, recorder, after } = setup();
    const graph = testGraph(
      component('keystone-api', {}, deployment('keystone-api', { [SIM_NEVER_READY]: 'true' })),
    );
    after(10_000, () => cluster.loseApi('connect ECONNREFUSED 127.0.0.1:6443'));
    after(70_000, () => cluster.restoreApi());
    after(80_000, () => cluster.setStatus(`Deployment/${NS}/keystone-api`, READY));

    // WHEN
    const result = await run(graph, { componentTimeoutMs: 30_000 });

    // THEN it verified (20 s of its 30 s were used before the loss, 10 s after)
    expect(result.ok).toBe(true);
    expect(result.components[0].verifiedAt).toBe(at(80_000));
    expect(recorder.of('api-lost')).toEqual([
      {
        type: 'api-lost',
        at: at(10_000),
        reason: 'connect ECONNREFUSED 127.0.0.1:6443',
        waitingUntil: at(130_000),
      },
    ]);
    expect(recorder.of('api-restored')).toEqual([
      { type: 'api-restored', at: at(70_000), lostForMs: 60_000 },
    ]);
  });

  test('the component timeout still fires, counting only the time the server answered', async () => {
    // GIVEN the same loss, and a Deployment that never becomes ready
    const { run, cluster, after } = setup();
    const graph = testGraph(
      component('keystone-api', {}, deployment('keystone-api', { [SIM_NEVER_READY]: 'true' })),
    );
    after(10_000, () => cluster.loseApi());
    after(70_000, () => cluster.restoreApi());

    // WHEN
    const result = await run(graph, { componentTimeoutMs: 30_000 });

    // THEN 30 s of answered time: 10 s before, 20 s after
    expect(result.components[0].cause).toBe('timeout');
    expect(result.components[0].failedAt).toBe(at(90_000));
  });

  test('requests wait for the server: a component that starts while it is lost applies when it is back', async () => {
    // GIVEN b depends on a; a verifies at 5 s, the server is lost from 4 s to 40 s
    const { run, cluster, after } = setup();
    const graph = testGraph(
      component('a', {}, deployment('a', { [SIM_READY_AFTER_MS]: '5000' })),
      component('b', { needs: { a: 'ready' } }, deployment('b')),
    );
    after(4_000, () => cluster.loseApi());
    after(40_000, () => cluster.restoreApi());

    // WHEN
    const result = await run(graph, { componentTimeoutMs: 30_000 });

    // THEN
    expect(result.ok).toBe(true);
    const applied = cluster.calls('apply').find((c) => c.ref === `Deployment/${NS}/b`);
    expect(applied?.at).toBe(START + 40_000);
  });

  test('a server that stays away past the loss timeout ends the run as unreachable, exit code 3', async () => {
    // GIVEN a 60 s loss timeout and a server lost for good at 10 s
    const { run, cluster, after } = setup(60_000);
    const graph = testGraph(
      component('keystone-api', {}, deployment('keystone-api', { [SIM_NEVER_READY]: 'true' })),
      component('glance-api', { needs: { 'keystone-api': 'ready' } }, deployment('glance-api')),
    );
    after(10_000, () => cluster.loseApi('no answer to GET /readyz within 3000 ms'));

    // WHEN
    const result = await run(graph, { componentTimeoutMs: 600_000 });

    // THEN
    expect(result.outcome).toBe('unreachable');
    expect(result.durationMs).toBe(70_000);
    const byName = Object.fromEntries(result.components.map((c) => [c.name, c]));
    expect(byName['keystone-api']).toMatchObject({
      state: 'failed',
      cause: 'cluster-unreachable',
      reason:
        'the API server stopped answering (no answer to GET /readyz within 3000 ms) while waiting for Deployment/openstack/keystone-api',
    });
    expect(byName['glance-api']).toMatchObject({ state: 'not-started', cause: 'cluster-unreachable' });
    expect(exitCodeFor(result)).toBe(ExitCode.UNREACHABLE);
  });
});
