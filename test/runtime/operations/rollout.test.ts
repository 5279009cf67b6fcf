/** The rollout operation: dependency order, outcomes, limits, abort and the event stream (lib/runtime/operations/rollout.ts). */
import { objectRef } from '../../../lib/graph';
import { hashObject } from '../../../lib/runtime/kube/object-diff';
import { rollout, verify } from '../../../lib/runtime/operations/rollout';
import { after, setup, keystoneGraph } from '../support/rollout-harness';
import { component, configMap, deployment, testGraph, job, namespace, NS } from '../support/manifests';

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
    const graph = testGraph(
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

  test('the run timeout fails running components and reports pending ones not started', async () => {
    // GIVEN
    const { run } = setup();
    const graph = testGraph(
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
    const graph = testGraph(
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
    const graph = testGraph(
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
    const graph = testGraph(
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

  test('skipped components count as satisfied for their dependants', async () => {
    // GIVEN
    const { run, cluster } = setup();
    const graph = testGraph(
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
    const graph = testGraph(
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
    const graph = testGraph(
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
    const graph = testGraph(component('mariadb', {}, deployment('mariadb')));

    // WHEN
    const result = await clock.runUntilSettled(verify(graph, cluster, { clock, waitMs: 60_000 }));

    // THEN
    expect(result.components[0].state).toBe('verified');
    expect(result.durationMs).toBe(10_000);
  });
});
