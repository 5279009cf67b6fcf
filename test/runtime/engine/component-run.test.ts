/** How one component is waited for: timeouts, the no-progress clock, our own writes, diagnosis (lib/runtime/engine/component-run.ts), through a rollout. */
import { KubeObject } from '../../../lib/graph';
import { SIM_FAIL, SIM_NEVER_READY } from '../../../lib/testing/in-memory-cluster';
import { after, setup, keystoneGraph } from '../support/rollout-harness';
import { component, configMap, deployment, testGraph, job, NS } from '../support/manifests';

describe("a component's run", () => {
  test('a Deployment past its progress deadline fails fast, without waiting for the component timeout', async () => {
    // GIVEN
    const { run } = setup();
    const graph = testGraph(
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
    const graph = testGraph(
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
    const graph = testGraph(
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
    const graph = testGraph(
      component('a', {}, deployment('a', after(20_000))),
      component('b', { needs: { a: 'ready' } }, deployment('b', after(20_000))),
      component('c', { needs: { b: 'ready' } }, deployment('c', after(20_000))),
    );

    // WHEN
    const result = await run(graph, { noProgressTimeoutMs: 30_000 });

    // THEN
    expect(result.outcome).toBe('succeeded');
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
    const graph = testGraph(
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
    const graph = testGraph(component('nova-compute', {}, compute));

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

  test('a Job removed by its TTL after we applied it counts as finished', async () => {
    // GIVEN: the TTL controller deletes the Job before we see it complete.
    const { clock, cluster, run } = setup();
    const sync = job('db-sync', { [SIM_NEVER_READY]: 'true' }, { ttlSecondsAfterFinished: 0 });
    const graph = testGraph(
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
