import { KubeObject, objectRef } from '../../lib/graph';
import { hashObject } from '../../lib/runtime/kube/object-diff';
import {
  InMemoryCluster,
  SIM_FAIL,
  SIM_NEVER_READY,
  SIM_READY_AFTER_MS,
} from '../../lib/testing/in-memory-cluster';
import { ApplyConflictError } from '../../lib/runtime/ports';
import { rollout, verify } from '../../lib/runtime/operations/rollout';
import { RolloutOptions } from '../../lib/runtime/operations/rollout-options';
import { ManualClock } from '../../lib/testing/manual-clock';
import { ComponentGraph } from '../../lib/graph';
import {
  component,
  configMap,
  crd,
  deployment,
  EventRecorder,
  graphOf,
  job,
  namespace,
  NS,
  service,
} from './support/manifests';

const after = (ms: number) => ({ [SIM_READY_AFTER_MS]: String(ms) });

function setup(options: { eventDelivery?: 'before-apply-returns' | 'after-apply-returns' } = {}) {
  const clock = new ManualClock();
  const cluster = new InMemoryCluster({ clock, eventDelivery: options.eventDelivery });
  const recorder = new EventRecorder();
  const run = (graph: ComponentGraph, extra: RolloutOptions = {}) =>
    clock.runUntilSettled(rollout(graph, cluster, { clock, onEvent: recorder.onEvent, ...extra }));
  return { clock, cluster, recorder, run };
}

/** A small OpenStack-shaped graph: mariadb -> keystone-db-sync (Job) -> keystone-api; memcached independent. */
function keystoneGraph(opts: { failSync?: boolean } = {}): ComponentGraph {
  return graphOf(
    [namespace()],
    component(
      'mariadb',
      {},
      configMap('mariadb-config'),
      service('mariadb'),
      deployment('mariadb', after(3000)),
    ),
    component('memcached', {}, deployment('memcached', after(1000))),
    component(
      'keystone-db-sync',
      { needs: { mariadb: 'ready' } },
      job('keystone-db-sync', {
        ...after(2000),
        ...(opts.failSync
          ? { [SIM_FAIL]: 'BackoffLimitExceeded: Job has reached the specified backoff limit' }
          : {}),
      }),
    ),
    component(
      'keystone-api',
      { needs: { 'keystone-db-sync': 'completed', memcached: 'ready' } },
      deployment('keystone-api', after(1000)),
      service('keystone-api'),
    ),
    component('glance-api', { needs: { 'keystone-api': 'ready' } }, deployment('glance-api')),
  );
}

describe('rollout', () => {
  test('deploys every component in dependency order and reports them verified', async () => {
    // GIVEN
    const { run, recorder, cluster } = setup();

    // WHEN
    const result = await run(keystoneGraph());

    // THEN
    expect(result.outcome).toBe('succeeded');
    expect(result.ok).toBe(true);
    expect(result.counts.verified).toBe(5);
    expect(result.bootstrap.state).toBe('verified');
    expect(result.components.map((c) => [c.name, c.state])).toEqual([
      ['glance-api', 'verified'],
      ['keystone-api', 'verified'],
      ['keystone-db-sync', 'verified'],
      ['mariadb', 'verified'],
      ['memcached', 'verified'],
    ]);
    // The namespace (bootstrap) is applied before any component object.
    expect(cluster.calls('apply')[0].ref).toBe(`Namespace/${NS}`);
    // Objects are reported with their last status and what apply did.
    const mariadb = result.components.find((c) => c.name === 'mariadb');
    expect(mariadb?.objects.map((o) => [o.ref, o.action, o.status])).toEqual([
      [`ConfigMap/${NS}/mariadb-config`, 'created', 'Current'],
      [`Service/${NS}/mariadb`, 'created', 'Current'],
      [`Deployment/${NS}/mariadb`, 'created', 'Current'],
    ]);
    expect(mariadb?.durations.totalMs).toBe(3000);
    // Within a component, objects are applied in synthesis order.
    expect(
      cluster
        .calls('apply')
        .map((c) => c.ref)
        .filter((r) => r.includes('mariadb')),
    ).toEqual([`ConfigMap/${NS}/mariadb-config`, `Service/${NS}/mariadb`, `Deployment/${NS}/mariadb`]);
    expect(recorder.events[recorder.events.length - 1].type).toBe('run-finished');
  });

  test('a dependant never starts before every one of its gating dependencies verified', async () => {
    // GIVEN
    const { run, recorder } = setup();
    const graph = keystoneGraph();

    // WHEN
    await run(graph);

    // THEN
    for (const edge of graph.edges) {
      const started = recorder.index('unit-started', edge.from);
      const dependencyVerified = recorder.index('unit-done', edge.to);
      expect(started).toBeGreaterThan(-1);
      expect(dependencyVerified).toBeGreaterThan(-1);
      expect(started).toBeGreaterThan(dependencyVerified);
    }
  });

  test('starts a component as soon as its own dependencies verify, without waiting for the level (no barriers)', async () => {
    // GIVEN: slow and fast are independent; after-fast needs only fast.
    const { run, recorder } = setup();
    const graph = graphOf(
      component('slow', {}, deployment('slow', after(60_000))),
      component('fast', {}, deployment('fast', after(1000))),
      component('after-fast', { needs: { fast: 'ready' } }, deployment('after-fast', after(1000))),
    );

    // WHEN
    const result = await run(graph);

    // THEN: both roots run at once, and after-fast finishes while slow is still rolling out.
    expect(recorder.index('unit-started', 'fast')).toBeLessThan(recorder.index('unit-done', 'slow'));
    expect(recorder.index('unit-started', 'slow')).toBeLessThan(recorder.index('unit-done', 'fast'));
    expect(recorder.index('unit-done', 'after-fast')).toBeLessThan(recorder.index('unit-done', 'slow'));
    expect(result.components.find((c) => c.name === 'after-fast')?.verifiedAt).toBe(
      new Date(Date.UTC(2025, 0, 1) + 2000).toISOString(),
    );
  });

  test('a failing Job fails its component, blocks only its transitive dependants, and independent branches finish', async () => {
    // GIVEN
    const { run, recorder } = setup();

    // WHEN
    const result = await run(keystoneGraph({ failSync: true }));

    // THEN
    const byName = Object.fromEntries(result.components.map((c) => [c.name, c]));
    expect(result.outcome).toBe('failed');
    expect(result.ok).toBe(false);
    expect(byName['keystone-db-sync'].state).toBe('failed');
    expect(byName['keystone-db-sync'].reason).toContain(`Job/${NS}/keystone-db-sync`);
    expect(byName['keystone-db-sync'].reason).toContain('BackoffLimitExceeded');
    expect(byName['keystone-api'].state).toBe('blocked');
    expect(byName['keystone-api'].blockedBy).toBe('keystone-db-sync');
    expect(byName['keystone-api'].reason).toContain('keystone-db-sync');
    expect(byName['keystone-api'].reason).toContain('BackoffLimitExceeded');
    expect(byName['glance-api'].state).toBe('blocked');
    expect(byName['glance-api'].reason).toMatch(/blocked by keystone-db-sync \(through keystone-api\)/);
    expect(byName.memcached.state).toBe('verified');
    expect(byName.mariadb.state).toBe('verified');
    expect(result.counts).toMatchObject({ verified: 2, failed: 1, blocked: 2, 'not-started': 0 });
    // Blocked components never start; the failure is reported before the blocks.
    expect(recorder.index('unit-started', 'keystone-api')).toBe(-1);
    expect(recorder.index('unit-failed', 'keystone-db-sync')).toBeLessThan(
      recorder.index('unit-blocked', 'keystone-api'),
    );
  });

  test('a Deployment past its progress deadline fails fast, without waiting for the component timeout', async () => {
    // GIVEN
    const { run } = setup();
    const graph = graphOf(
      component(
        'nova-api',
        {},
        deployment('nova-api', {
          ...after(20_000),
          [SIM_FAIL]: 'ProgressDeadlineExceeded: ReplicaSet "nova-api-64b7" has timed out progressing.',
        }),
      ),
    );

    // WHEN
    const result = await run(graph, { componentTimeoutMs: 600_000 });

    // THEN
    expect(result.components[0].state).toBe('failed');
    expect(result.components[0].reason).toBe(
      `Deployment/${NS}/nova-api: progress deadline exceeded: ReplicaSet "nova-api-64b7" has timed out progressing.`,
    );
    expect(result.durationMs).toBe(20_000);
    // The failure was diagnosed (off the hot path, after the fact).
    expect(result.components[0].diagnosis).toEqual([
      `Deployment nova-api: progress deadline exceeded: ReplicaSet "nova-api-64b7" has timed out progressing.`,
    ]);
  });

  test('a component timeout names the object it waited for and its last status message', async () => {
    // GIVEN
    const { run } = setup();
    const graph = graphOf(
      component(
        'stuck',
        {},
        configMap('stuck-config'),
        deployment('stuck', { [SIM_NEVER_READY]: 'true' }, 3),
      ),
      component('after-stuck', { needs: { stuck: 'ready' } }, deployment('after-stuck')),
    );

    // WHEN
    const result = await run(graph, { componentTimeoutMs: 120_000 });

    // THEN
    const stuck = result.components.find((c) => c.name === 'stuck');
    expect(stuck?.state).toBe('failed');
    expect(stuck?.reason).toBe(
      `timed out after 2m waiting for Deployment/${NS}/stuck: InProgress: 0/3 replicas updated`,
    );
    expect(stuck?.failedAt).toBe(new Date(Date.UTC(2025, 0, 1) + 120_000).toISOString());
    expect(stuck?.objects.find((o) => o.kind === 'Deployment')?.message).toBe('0/3 replicas updated');
    expect(result.components.find((c) => c.name === 'after-stuck')?.state).toBe('blocked');
  });

  test('the no-progress timeout ends a stalled run long before the component timeout', async () => {
    // GIVEN
    const { run } = setup();
    const graph = graphOf(
      component('stuck', {}, deployment('stuck', { [SIM_NEVER_READY]: 'true' })),
      component('later', { needs: { stuck: 'ready' } }, deployment('later')),
    );

    // WHEN
    const result = await run(graph, { componentTimeoutMs: 600_000, noProgressTimeoutMs: 30_000 });

    // THEN
    expect(result.outcome).toBe('no-progress');
    const stuck = result.components.find((c) => c.name === 'stuck');
    expect(stuck?.state).toBe('failed');
    expect(stuck?.reason).toBe(`no progress for 30s while waiting for Deployment/${NS}/stuck`);
    expect(result.components.find((c) => c.name === 'later')).toMatchObject({
      state: 'not-started',
      reason: 'no progress for 30s',
    });
    expect(result.durationMs).toBe(30_000);
  });

  test('progress resets the no-progress clock', async () => {
    // GIVEN: a chain of three 20 s components under a 30 s no-progress limit.
    const { run } = setup();
    const graph = graphOf(
      component('a', {}, deployment('a', after(20_000))),
      component('b', { needs: { a: 'ready' } }, deployment('b', after(20_000))),
      component('c', { needs: { b: 'ready' } }, deployment('c', after(20_000))),
    );

    // WHEN
    const result = await run(graph, { noProgressTimeoutMs: 30_000 });

    // THEN
    expect(result.outcome).toBe('succeeded');
  });

  test('the run timeout fails running components and reports pending ones not started', async () => {
    // GIVEN
    const { run } = setup();
    const graph = graphOf(
      component('a', {}, deployment('a', after(50_000))),
      component('b', { needs: { a: 'ready' } }, deployment('b', after(50_000))),
    );

    // WHEN
    const result = await run(graph, { runTimeoutMs: 60_000 });

    // THEN
    expect(result.outcome).toBe('timed-out');
    expect(result.components.map((c) => [c.name, c.state])).toEqual([
      ['a', 'verified'],
      ['b', 'failed'],
    ]);
    expect(result.components[1].reason).toBe(`run timed out after 1m while waiting for Deployment/${NS}/b`);
  });

  test('never runs more components at once than the concurrency limit', async () => {
    // GIVEN: six independent components.
    const { run, recorder, cluster } = setup();
    const names = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
    const graph = graphOf(
      ...names.map((n, i) =>
        component(n, {}, configMap(`${n}-config`), deployment(n, after(1000 * (i + 1)))),
      ),
    );

    // WHEN
    const result = await run(graph, { concurrency: 2 });

    // THEN
    expect(result.counts.verified).toBe(6);
    expect(recorder.maxRunning()).toBe(2);
    expect(cluster.maxConcurrentApplies).toBeLessThanOrEqual(2);
  });

  test('runtime edges do not gate', async () => {
    // GIVEN: nova-api talks to glance at run time only; glance is slow.
    const { run, recorder } = setup();
    const graph = graphOf(
      component('glance-api', { needs: { 'nova-api': 'runtime' } }, deployment('glance-api', after(30_000))),
      component('nova-api', { needs: { 'glance-api': 'runtime' } }, deployment('nova-api', after(1000))),
    );

    // WHEN
    const result = await run(graph);

    // THEN: a runtime cycle is fine, and nova-api verifies while glance-api is still rolling out.
    expect(result.counts.verified).toBe(2);
    expect(recorder.index('unit-done', 'nova-api')).toBeLessThan(recorder.index('unit-done', 'glance-api'));
  });

  test('an abort stops cleanly: nothing new starts and the result says what did not start', async () => {
    // GIVEN
    const { clock, cluster, recorder } = setup();
    const controller = new AbortController();
    const graph = graphOf(
      component('a', {}, deployment('a', after(1000))),
      component('b', { needs: { a: 'ready' } }, deployment('b', after(10_000))),
      component('c', { needs: { b: 'ready' } }, deployment('c')),
    );
    const onEvent = (event: Parameters<typeof recorder.onEvent>[0]) => {
      recorder.onEvent(event);
      if (event.type === 'unit-started' && event.unit === 'b') controller.abort();
    };

    // WHEN
    const result = await clock.runUntilSettled(
      rollout(graph, cluster, { clock, onEvent, signal: controller.signal }),
    );

    // THEN
    expect(result.outcome).toBe('aborted');
    expect(result.components.map((c) => [c.name, c.state, c.reason])).toEqual([
      ['a', 'verified', undefined],
      ['b', 'failed', 'rollout aborted before any of its objects was applied'],
      ['c', 'not-started', 'rollout aborted'],
    ]);
    expect(result.counts['not-started']).toBe(1);
    // Nothing of b or c was written; the watches are closed.
    expect(cluster.peek(`Deployment/${NS}/b`)).toBeUndefined();
    expect(cluster.peek(`Deployment/${NS}/c`)).toBeUndefined();
    expect(cluster.openWatches).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  test('an already aborted signal starts nothing', async () => {
    // GIVEN
    const { run, cluster } = setup();
    const controller = new AbortController();
    controller.abort();

    // WHEN
    const result = await run(keystoneGraph(), { signal: controller.signal });

    // THEN
    expect(result.outcome).toBe('aborted');
    expect(result.counts['not-started']).toBe(5);
    expect(cluster.calls('apply')).toHaveLength(0);
  });

  test('waits for the controller to observe our write before judging an existing object', async () => {
    // GIVEN: a Deployment that is ready at generation 1; the run changes its image.
    const { run, cluster } = setup();
    const old = deployment('keystone-api');
    cluster.seed({
      ...old,
      status: {
        observedGeneration: 1,
        replicas: 1,
        updatedReplicas: 1,
        readyReplicas: 1,
        availableReplicas: 1,
        conditions: [
          { type: 'Available', status: 'True' },
          { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
        ],
      },
    });
    const changed = deployment('keystone-api', after(5000));
    const graph = graphOf(
      component(
        'keystone-api',
        {},
        { ...changed, spec: { ...(changed.spec as object), minReadySeconds: 5 } },
      ),
    );

    // WHEN
    const result = await run(graph);

    // THEN: verified only when the simulated controller reported generation 2 ready (after 5 s).
    const api = result.components[0];
    expect(api.objects[0].action).toBe('configured');
    expect(cluster.peek(`Deployment/${NS}/keystone-api`)?.metadata.generation).toBe(2);
    expect(api.durations.totalMs).toBe(5000);
  });

  test.each(['before-apply-returns', 'after-apply-returns'] as const)(
    'works whether watch events arrive %s',
    async (eventDelivery) => {
      // GIVEN
      const { run } = setup({ eventDelivery });

      // WHEN
      const result = await run(keystoneGraph());

      // THEN
      expect(result.counts.verified).toBe(5);
    },
  );

  test('shares one watch per (apiVersion, kind, namespace) across components', async () => {
    // GIVEN
    const { run, cluster } = setup();

    // WHEN
    await run(keystoneGraph());

    // THEN
    expect(cluster.watchSubscriptions.get(`apps/v1/Deployment/${NS}`)).toBe(1);
    expect(cluster.watchSubscriptions.get(`batch/v1/Job/${NS}`)).toBe(1);
    expect(cluster.watchSubscriptions.get('v1/Namespace/*')).toBe(1);
    expect(cluster.openWatches).toBe(0);
  });

  test('does not list pods or nodes on the happy path (diagnosis only when slow or failed)', async () => {
    // GIVEN
    const { run, cluster } = setup();

    // WHEN
    await run(keystoneGraph(), { diagnoseAfterMs: 60_000 });

    // THEN
    expect(cluster.calls('list')).toHaveLength(0);
    expect(cluster.calls('get')).toHaveLength(0);
  });

  test('attaches a diagnosis to a timed-out component: which scheduling label no node carries, and the fix', async () => {
    // GIVEN: nova-compute's pod is unschedulable; the nodes carry no hypervisor label.
    const { run, cluster, recorder } = setup();
    const compute = deployment('nova-compute', { [SIM_NEVER_READY]: 'true' });
    cluster.seed(
      node('worker-1', { 'kubernetes.io/os': 'linux' }),
      node('worker-2', { 'kubernetes.io/os': 'linux' }),
      unschedulablePod('nova-compute-abc12', 'nova-compute', 'compute.yaook.cloud/hypervisor'),
    );
    const graph = graphOf(component('nova-compute', {}, compute));

    // WHEN
    const result = await run(graph, { componentTimeoutMs: 300_000, diagnoseAfterMs: 30_000 });

    // THEN
    const nova = result.components[0];
    expect(nova.state).toBe('failed');
    expect(nova.diagnosis).toEqual([
      'pod nova-compute-abc12 is unschedulable: no node carries the scheduling label compute.yaook.cloud/hypervisor; ' +
        'fix: kubectl label node <a-suitable-node> compute.yaook.cloud/hypervisor=true; nodes whose taints it tolerates: worker-1, worker-2',
    ]);
    // The slow-component diagnosis came as an event before the timeout.
    const diagnosisEvent = recorder.of('unit-diagnosis')[0];
    expect(diagnosisEvent.at).toBe(new Date(Date.UTC(2025, 0, 1) + 30_000).toISOString());
    expect(recorder.index('unit-diagnosis')).toBeLessThan(recorder.index('unit-failed'));
    expect(cluster.calls('list').map((c) => c.detail)).toContain('app.kubernetes.io/name=nova-compute');
  });

  test('an apply conflict fails the component with the conflicting manager and is not retried', async () => {
    // GIVEN
    const { run, cluster } = setup();
    const ref = `Deployment/${NS}/keystone-api`;
    cluster.failApply(
      ref,
      new ApplyConflictError(ref, [{ manager: 'kubectl-edit', field: '.spec.replicas' }]),
    );

    // WHEN
    const result = await run(graphOf(component('keystone-api', {}, deployment('keystone-api'))));

    // THEN
    expect(result.components[0].state).toBe('failed');
    expect(result.components[0].reason).toContain('kubectl-edit (.spec.replicas)');
    expect(result.components[0].reason).toContain('--force-conflicts');
    expect(cluster.calls('apply-error')).toHaveLength(1);
  });

  test('passes the field manager and force flag to every apply', async () => {
    // GIVEN
    const { clock, cluster } = setup();
    const seen: unknown[] = [];
    const spy: typeof cluster.apply = (object, options) => {
      seen.push(options);
      return InMemoryCluster.prototype.apply.call(cluster, object, options);
    };
    cluster.apply = spy;

    // WHEN
    await clock.runUntilSettled(
      rollout(graphOf(component('a', {}, configMap('a'))), cluster, { clock, forceConflicts: true }),
    );

    // THEN
    expect(seen).toEqual([{ fieldManager: 'stackwright', force: true, dryRun: false }]);
  });

  test('retries retryable apply errors with back-off, then succeeds', async () => {
    // GIVEN: the CR's kind is not served for the first two attempts (a CRD just established).
    const { run, cluster } = setup();
    const ref = `ConfigMap/${NS}/flaky`;
    cluster.failApply(ref, (attempt) =>
      attempt <= 2
        ? Object.assign(new Error('the server is currently unable to handle the request'), {
            retryable: true,
          })
        : undefined,
    );

    // WHEN
    const result = await run(graphOf(component('flaky', {}, configMap('flaky'))));

    // THEN
    expect(result.components[0].state).toBe('verified');
    expect(cluster.calls('apply-error')).toHaveLength(2);
  });

  test('gives up on a retryable error after applyAttempts and says so', async () => {
    // GIVEN
    const { run, cluster } = setup();
    const ref = `ConfigMap/${NS}/down`;
    cluster.failApply(ref, Object.assign(new Error('503 Service Unavailable'), { retryable: true }));

    // WHEN
    const result = await run(graphOf(component('down', {}, configMap('down'))), { applyAttempts: 3 });

    // THEN
    expect(result.components[0].reason).toBe(
      `${ref}: apply failed: 503 Service Unavailable (after 3 attempts)`,
    );
    expect(cluster.calls('apply-error')).toHaveLength(3);
  });

  test('a non-retryable apply error fails at once', async () => {
    // GIVEN
    const { run, cluster } = setup();
    cluster.failApply(
      `ConfigMap/${NS}/bad`,
      new Error('ConfigMap "bad" is invalid: data[BAD KEY]: Invalid value'),
    );

    // WHEN
    const result = await run(graphOf(component('bad', {}, configMap('bad'))));

    // THEN
    expect(result.components[0].reason).toBe(
      `ConfigMap/${NS}/bad: apply failed: ConfigMap "bad" is invalid: data[BAD KEY]: Invalid value`,
    );
    expect(cluster.calls('apply-error')).toHaveLength(1);
  });

  test('bootstrap objects go first, in kind order; a failed bootstrap starts no component', async () => {
    // GIVEN: a CRD whose names the API server rejects.
    const { run, cluster } = setup();
    const rejected = crd('widgets');
    cluster.failApply(
      `CustomResourceDefinition/${rejected.metadata.name}`,
      new Error('metadata.name: Invalid value: must be spec.names.plural+"."+spec.group'),
    );
    const clusterRole: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'stackwright-reader' },
      rules: [],
    };
    const graph = graphOf([clusterRole, rejected, namespace()], component('a', {}, configMap('a')));

    // WHEN
    const result = await run(graph);

    // THEN
    expect(cluster.calls('apply-start').map((c) => c.ref)).toEqual([
      `Namespace/${NS}`,
      `CustomResourceDefinition/${rejected.metadata.name}`,
    ]);
    expect(result.bootstrap.state).toBe('failed');
    expect(result.bootstrap.reason).toContain('must be spec.names.plural');
    expect(result.components[0]).toMatchObject({ state: 'not-started' });
    expect(result.components[0].reason).toMatch(/^bootstrap failed: /);
    expect(result.outcome).toBe('failed');
  });

  test('applies a component’s CRD first and waits until it is established before its custom resources', async () => {
    // GIVEN
    const { run, cluster, recorder } = setup();
    const widget: KubeObject = {
      apiVersion: 'example.stackwright.io/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: NS },
      spec: { size: 1 },
    };
    const graph = graphOf(
      component('widgets', {}, widget, crd('widgets', 'example.stackwright.io', 'Widget')),
    );

    // WHEN
    const result = await run(graph);

    // THEN
    expect(result.components[0].state).toBe('verified');
    expect(cluster.calls('apply').map((c) => c.ref)).toEqual([
      `CustomResourceDefinition/widgets.example.stackwright.io`,
      `Widget/${NS}/w`,
    ]);
    const established = recorder.events.findIndex(
      (e) =>
        e.type === 'object-status' && e.ref.startsWith('CustomResourceDefinition') && e.status === 'Current',
    );
    const crApplied = recorder.events.findIndex(
      (e) => e.type === 'object-applied' && e.ref === `Widget/${NS}/w`,
    );
    expect(established).toBeLessThan(crApplied);
  });

  test('a Job removed by its TTL after we applied it counts as finished', async () => {
    // GIVEN: the TTL controller deletes the Job before we see it complete.
    const { clock, cluster, run } = setup();
    const sync = job('db-sync', { [SIM_NEVER_READY]: 'true' }, { ttlSecondsAfterFinished: 0 });
    const graph = graphOf(
      component('db-sync', {}, sync),
      component('api', { needs: { 'db-sync': 'completed' } }, deployment('api')),
    );
    void clock.sleep(5000).then(() => cluster.remove(`Job/${NS}/db-sync`));

    // WHEN
    const result = await run(graph);

    // THEN
    expect(result.components.map((c) => c.state)).toEqual(['verified', 'verified']);
    expect(result.components[1].objects[0].ref).toBe(`Job/${NS}/db-sync`);
    expect(result.components[1].objects[0].message).toBe('finished and removed by its TTL');
  });

  test('skipped components count as satisfied for their dependants', async () => {
    // GIVEN
    const { run, cluster } = setup();
    const graph = graphOf(
      component('mariadb', {}, deployment('mariadb')),
      component('keystone', { needs: { mariadb: 'ready' } }, deployment('keystone')),
    );

    // WHEN
    const result = await run(graph, { skip: ['mariadb'] });

    // THEN
    expect(result.components.map((c) => [c.name, c.state])).toEqual([
      ['keystone', 'verified'],
      ['mariadb', 'skipped'],
    ]);
    expect(result.outcome).toBe('succeeded');
    expect(cluster.peek(`Deployment/${NS}/mariadb`)).toBeUndefined();
  });

  test('a second rollout of the same manifests changes nothing and verifies at once', async () => {
    // GIVEN
    const { run, cluster } = setup();
    await run(keystoneGraph());
    const writesBefore = cluster.calls('event').length;

    // WHEN
    const result = await run(keystoneGraph());

    // THEN
    expect(result.counts.verified).toBe(5);
    expect(result.components.flatMap((c) => c.objects.map((o) => o.action))).toEqual(
      expect.arrayContaining(['unchanged']),
    );
    expect(new Set(result.components.flatMap((c) => c.objects.map((o) => o.action)))).toEqual(
      new Set(['unchanged']),
    );
    expect(cluster.calls('event').length).toBe(writesBefore);
    expect(result.durationMs).toBe(0);
  });

  test('a broken event handler does not break the run', async () => {
    // GIVEN
    const { clock, cluster } = setup();

    // WHEN
    const result = await clock.runUntilSettled(
      rollout(keystoneGraph(), cluster, {
        clock,
        onEvent: () => {
          throw new Error('renderer bug');
        },
      }),
    );

    // THEN
    expect(result.ok).toBe(true);
  });

  test('emits a well-formed event stream: run-started first, run-finished last with the result', async () => {
    // GIVEN
    const { run, recorder } = setup();

    // WHEN
    const result = await run(keystoneGraph());

    // THEN
    const first = recorder.events[0];
    const last = recorder.events[recorder.events.length - 1];
    expect(first).toMatchObject({ type: 'run-started', mode: 'deploy', bootstrapObjects: 1 });
    expect(last).toEqual({ type: 'run-finished', at: result.finishedAt, result });
    expect(recorder.of('unit-started')).toHaveLength(5);
    expect(recorder.of('unit-done')).toHaveLength(5);
    expect(recorder.of('object-applied').length).toBe(1 + 3 + 1 + 1 + 2 + 1);
    // JSON-serialisable as is (the CLI's --json streams these).
    expect(JSON.parse(JSON.stringify(recorder.events))).toEqual(recorder.events);
  });
});

describe('verify', () => {
  test('reports a deployed graph verified without writing anything', async () => {
    // GIVEN
    const { clock, cluster, run } = setup();
    await run(keystoneGraph());
    const appliesBefore = cluster.calls('apply').length;

    // WHEN
    const result = await clock.runUntilSettled(verify(keystoneGraph(), cluster, { clock }));

    // THEN
    expect(result.mode).toBe('verify');
    expect(result.ok).toBe(true);
    expect(result.counts.verified).toBe(5);
    expect(cluster.calls('apply')).toHaveLength(appliesBefore);
  });

  test('counts a Job its TTL removed as completed when the last deploy recorded that manifest', async () => {
    // GIVEN a Job with a TTL that is gone from the cluster, and one without a TTL, also gone
    const { clock, cluster } = setup();
    cluster.seed(namespace());
    const graph = graphOf(
      [namespace()],
      component('db-sync', {}, job('db-sync', {}, { ttlSecondsAfterFinished: 600 })),
      component('db-init', {}, job('db-init')),
    );
    // What deploy recorded: the hash of each manifest as the graph holds it
    const recorded = new Map(
      graph.components.flatMap((c) => c.objects).map((o) => [objectRef(o), hashObject(o)]),
    );

    // WHEN verify reads them, with and without what the inventory recorded
    const informed = await clock.runUntilSettled(verify(graph, cluster, { clock, recordedHashes: recorded }));
    const uninformed = await clock.runUntilSettled(verify(graph, cluster, { clock }));

    // THEN only the TTL Job the deploy recorded counts, and only when verify knows the record
    expect(informed.components.map((c) => [c.name, c.state])).toEqual([
      ['db-init', 'failed'],
      ['db-sync', 'verified'],
    ]);
    expect(uninformed.components.map((c) => [c.name, c.state])).toEqual([
      ['db-init', 'failed'],
      ['db-sync', 'failed'],
    ]);
  });

  test('reports missing and not-ready objects, with diagnosis, on a cluster that lacks them', async () => {
    // GIVEN: only mariadb exists, and it is not ready.
    const { clock, cluster } = setup();
    cluster.seed(namespace(), {
      ...deployment('mariadb'),
      status: {
        observedGeneration: 1,
        replicas: 1,
        updatedReplicas: 1,
        readyReplicas: 0,
        availableReplicas: 0,
      },
    });
    const graph = graphOf(
      [namespace()],
      component('mariadb', {}, deployment('mariadb')),
      component('memcached', {}, deployment('memcached')),
    );

    // WHEN
    const result = await clock.runUntilSettled(verify(graph, cluster, { clock }));

    // THEN
    expect(result.ok).toBe(false);
    expect(result.components.map((c) => [c.name, c.state, c.reason])).toEqual([
      ['mariadb', 'failed', `not verified: Deployment/${NS}/mariadb is InProgress: 0/1 replicas available`],
      ['memcached', 'failed', `not verified: Deployment/${NS}/memcached is NotFound: not found`],
    ]);
    expect(result.components[0].diagnosis).toEqual([
      `Deployment/${NS}/mariadb has no pods yet and its controller reported no error (yet); check its ReplicaSet/controller events`,
    ]);
  });

  test('waits up to waitMs for objects to become Current', async () => {
    // GIVEN: mariadb becomes ready 10 s into the wait.
    const { clock, cluster } = setup();
    cluster.seed({
      ...deployment('mariadb'),
      status: {
        observedGeneration: 1,
        replicas: 1,
        updatedReplicas: 1,
        readyReplicas: 0,
        availableReplicas: 0,
      },
    });
    void clock.sleep(10_000).then(() =>
      cluster.setStatus(`Deployment/${NS}/mariadb`, {
        observedGeneration: 1,
        replicas: 1,
        updatedReplicas: 1,
        readyReplicas: 1,
        availableReplicas: 1,
        conditions: [{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' }],
      }),
    );
    const graph = graphOf(component('mariadb', {}, deployment('mariadb')));

    // WHEN
    const result = await clock.runUntilSettled(verify(graph, cluster, { clock, waitMs: 60_000 }));

    // THEN
    expect(result.components[0].state).toBe('verified');
    expect(result.durationMs).toBe(10_000);
  });
});

function node(name: string, labels: Record<string, string>, taints: unknown[] = []): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
    spec: { taints },
  };
}

function unschedulablePod(name: string, app: string, key: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS, labels: { 'app.kubernetes.io/name': app } },
    spec: {
      containers: [{ name: 'main', image: `${app}:1` }],
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'Exists' }] }],
          },
        },
      },
      tolerations: [
        { key, operator: 'Exists', effect: 'NoSchedule' },
        { key, operator: 'Exists', effect: 'NoExecute' },
      ],
    },
    status: {
      phase: 'Pending',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector.",
        },
      ],
    },
  };
}
