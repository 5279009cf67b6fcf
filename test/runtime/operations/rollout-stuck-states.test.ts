import { KubeObject, objectRef } from '../../../lib/graph';
import { ComponentGraph } from '../../../lib/graph';
import { rollout } from '../../../lib/runtime/operations/rollout';
import { RolloutOptions } from '../../../lib/runtime/operations/rollout-options';
import {
  DEFAULT_CONTROLLERS,
  InMemoryCluster,
  SIM_FAIL,
  SIM_NEVER_READY,
  SimulatedController,
} from '../../../lib/testing/in-memory-cluster';
import { ManualClock } from '../../../lib/testing/manual-clock';
import { component, deployment, EventRecorder, testGraph, job, NS, statefulSet } from '../support/manifests';

// Stuck states named from what the cluster says (its Events, its pods' status), and failed as
// soon as two diagnosis rounds confirm them instead of at the component timeout.

const START = Date.UTC(2025, 0, 1);
const QUOTA_MESSAGE =
  'Error creating: pods "keystone-api-5d8f-x2kq9" is forbidden: exceeded quota: pod-budget, requested: pods=1, used: pods=2, limited: pods=2';

function setup(extraControllers: SimulatedController[] = []) {
  const clock = new ManualClock(START);
  const cluster = new InMemoryCluster({ clock, controllers: [...DEFAULT_CONTROLLERS, ...extraControllers] });
  const recorder = new EventRecorder();
  const run = (graph: ComponentGraph, extra: RolloutOptions = {}) =>
    clock.runUntilSettled(
      rollout(graph, cluster, {
        clock,
        onEvent: recorder.onEvent,
        componentTimeoutMs: 600_000,
        diagnoseAfterMs: 15_000,
        ...extra,
      }),
    );
  return { clock, cluster, recorder, run };
}

/** A ReplicaSet controller that cannot create pods: its ReplicaSet reports `message` as FailedCreate. */
function replicaSetFailingWith(message: string): SimulatedController {
  return (written, cluster) => {
    if (written.kind !== 'Deployment' || cluster.peek(`ReplicaSet/${NS}/${written.metadata.name}-5d8f`))
      return;
    const replicaSet: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${written.metadata.name}-5d8f`,
        namespace: NS,
        labels: { 'app.kubernetes.io/name': written.metadata.name },
        ownerReferences: [{ kind: 'Deployment', name: written.metadata.name, uid: written.metadata.uid }],
      },
      spec: { replicas: 1 },
    };
    cluster.addObject(replicaSet);
    cluster.recordEvent(cluster.peek(objectRef(replicaSet)) as KubeObject, {
      reason: 'FailedCreate',
      message,
    });
  };
}

/** A pod of `app` whose container is in `waiting` (ImagePullBackOff, CrashLoopBackOff, …). */
function waitingPod(app: string, waiting: Record<string, unknown>, restartCount = 0): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${app}-5d8f-x2kq9`, namespace: NS, labels: { 'app.kubernetes.io/name': app } },
    spec: { containers: [{ name: 'main', image: `registry.example.com/${app}:1.0` }] },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'True' }],
      containerStatuses: [{ name: 'main', ready: false, restartCount, state: { waiting } }],
    },
  };
}

describe('stuck states', () => {
  test('a ResourceQuota forbidding the pods is named with the quota and the resource, and fails the component after two rounds', async () => {
    // GIVEN a Deployment whose ReplicaSet cannot create pods because of a quota
    const { run, recorder } = setup([replicaSetFailingWith(QUOTA_MESSAGE)]);
    const graph = testGraph(
      component('keystone-api', {}, deployment('keystone-api', { [SIM_NEVER_READY]: 'true' })),
    );

    // WHEN
    const result = await run(graph);

    // THEN the first round says so at 15 s, the second confirms it at 30 s: not the 10-minute timeout
    const expected =
      "ResourceQuota pod-budget forbids the pods of ReplicaSet keystone-api-5d8f: pods (requested 1, used 2, limit 2); fix: raise spec.hard of ResourceQuota pod-budget (kubectl -n openstack edit resourcequota pod-budget) or lower the pods' requests";
    const [first] = recorder.of('unit-diagnosis');
    expect(first.at).toBe(new Date(START + 15_000).toISOString());
    expect(first.diagnosis).toEqual([expected]);
    expect(first.findings).toEqual([
      {
        cause: 'quota-exceeded',
        ref: `ReplicaSet/${NS}/keystone-api-5d8f`,
        message: expected,
        blocking: true,
      },
    ]);
    const api = result.components[0];
    expect(api.state).toBe('failed');
    expect(api.cause).toBe('quota-exceeded');
    expect(api.reason).toBe(expected);
    expect(api.failedAt).toBe(new Date(START + 30_000).toISOString());
    expect(api.findings?.map((f) => f.cause)).toEqual(['quota-exceeded']);
  });

  test('a change of the component between two rounds restarts the confirmation (the quota may have been raised)', async () => {
    // GIVEN the same quota failure, and the Deployment's status changes at 20 s
    const { run, cluster, clock } = setup([replicaSetFailingWith(QUOTA_MESSAGE)]);
    const graph = testGraph(
      component('keystone-api', {}, deployment('keystone-api', { [SIM_NEVER_READY]: 'true' })),
    );
    void clock.sleep(20_000).then(() =>
      cluster.setStatus(`Deployment/${NS}/keystone-api`, (d) => ({
        ...(d.status as Record<string, unknown>),
        replicas: 1,
        updatedReplicas: 1,
      })),
    );

    // WHEN
    const result = await run(graph);

    // THEN it is confirmed one round later
    expect(result.components[0].cause).toBe('quota-exceeded');
    expect(result.components[0].failedAt).toBe(new Date(START + 45_000).toISOString());
  });

  test('a PersistentVolumeClaim of a StatefulSet naming a missing StorageClass is named, not "not found"', async () => {
    // GIVEN a StatefulSet whose claim template names a StorageClass the cluster lacks
    const claimsFast: SimulatedController = (written, cluster) => {
      if (written.kind !== 'StatefulSet' || cluster.peek(`PersistentVolumeClaim/${NS}/data-mariadb-0`))
        return;
      const claim: KubeObject = {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data-mariadb-0', namespace: NS },
        spec: { storageClassName: 'fast-ssd' },
        status: { phase: 'Pending' },
      };
      cluster.addObject(claim);
      cluster.recordEvent(cluster.peek(objectRef(claim)) as KubeObject, {
        reason: 'ProvisioningFailed',
        message: 'storageclass.storage.k8s.io "fast-ssd" not found',
      });
    };
    const { run } = setup([claimsFast]);
    const mariadb = statefulSet('mariadb', { [SIM_NEVER_READY]: 'true' });
    (mariadb.spec as Record<string, unknown>).volumeClaimTemplates = [
      { metadata: { name: 'data' }, spec: { storageClassName: 'fast-ssd' } },
    ];

    // WHEN
    const result = await run(testGraph(component('mariadb', {}, mariadb)));

    // THEN
    const db = result.components[0];
    expect(db.cause).toBe('storage-class-missing');
    expect(db.reason).toBe(
      "PersistentVolumeClaim data-mariadb-0 asks for StorageClass fast-ssd, which does not exist; fix: create StorageClass fast-ssd, or set the claim's storageClassName to one that exists (kubectl get storageclass)",
    );
    expect(db.failedAt).toBe(new Date(START + 30_000).toISOString());
  });

  test.each([
    [
      'image-pull',
      { reason: 'ImagePullBackOff', message: 'Back-off pulling image "registry.example.com/glance-api:1.0"' },
      0,
    ],
    ['crash-loop', { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container' }, 4],
  ])(
    'a Deployment whose pod is in %s fails with that cause after two rounds',
    async (cause, waiting, restarts) => {
      // GIVEN
      const { run, cluster } = setup();
      cluster.seed(waitingPod('glance-api', waiting, restarts));
      const graph = testGraph(
        component('glance-api', {}, deployment('glance-api', { [SIM_NEVER_READY]: 'true' })),
      );

      // WHEN
      const result = await run(graph);

      // THEN
      expect(result.components[0].cause).toBe(cause);
      expect(result.components[0].reason).toContain('pod glance-api-5d8f-x2kq9: container main');
      expect(result.components[0].failedAt).toBe(new Date(START + 30_000).toISOString());
    },
  );

  test('an unschedulable pod is explained but does not fail early: a node may still come', async () => {
    // GIVEN the scheduler reports no node for the pod
    const { run, cluster } = setup();
    const pod = waitingPod('nova-compute', { reason: 'ContainerCreating' });
    cluster.seed({
      ...pod,
      status: {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
      },
    });
    cluster.recordEvent(cluster.peek(objectRef(pod)) as KubeObject, {
      reason: 'FailedScheduling',
      message:
        '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
    });
    const graph = testGraph(
      component('nova-compute', {}, deployment('nova-compute', { [SIM_NEVER_READY]: 'true' })),
    );

    // WHEN
    const result = await run(graph, { componentTimeoutMs: 120_000 });

    // THEN it times out, with the typed finding in the result
    const compute = result.components[0];
    expect(compute.cause).toBe('timeout');
    expect(compute.failedAt).toBe(new Date(START + 120_000).toISOString());
    expect(compute.findings).toEqual([
      expect.objectContaining({
        cause: 'unschedulable',
        ref: `Pod/${NS}/nova-compute-5d8f-x2kq9`,
        blocking: false,
      }),
    ]);
  });

  test('a failed Job fails its component at once with cause job-failed', async () => {
    // GIVEN
    const { run } = setup();
    const graph = testGraph(
      component(
        'keystone-db-sync',
        {},
        job('keystone-db-sync', {
          [SIM_FAIL]: 'BackoffLimitExceeded: Job has reached the specified backoff limit',
        }),
      ),
    );

    // WHEN
    const result = await run(graph);

    // THEN
    expect(result.components[0].cause).toBe('job-failed');
    expect(result.durationMs).toBe(0);
  });

  test('old Events and Events of an earlier incarnation of an object are not taken for the present', async () => {
    // GIVEN a quota event from two hours ago, and one about a deleted ReplicaSet of the same name
    const { run, cluster, recorder, clock } = setup();
    const replicaSet: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'keystone-api-5d8f',
        namespace: NS,
        uid: 'rs-now',
        labels: { 'app.kubernetes.io/name': 'keystone-api' },
        ownerReferences: [{ kind: 'Deployment', name: 'keystone-api' }],
      },
    };
    cluster.recordEvent(replicaSet, { reason: 'FailedCreate', message: QUOTA_MESSAGE });
    await clock.advance(2 * 3600_000);
    cluster.recordEvent(
      { ...replicaSet, metadata: { ...replicaSet.metadata, uid: 'rs-before' } },
      { reason: 'FailedCreate', message: QUOTA_MESSAGE },
    );
    cluster.seed(replicaSet);
    const graph = testGraph(
      component('keystone-api', {}, deployment('keystone-api', { [SIM_NEVER_READY]: 'true' })),
    );

    // WHEN
    const result = await run(graph, { componentTimeoutMs: 40_000 });

    // THEN neither is reported
    expect(result.components[0].cause).toBe('timeout');
    expect(recorder.of('unit-diagnosis')[0].diagnosis).toEqual([
      `Deployment/${NS}/keystone-api has no pods yet and its controller reported no error (yet); check its ReplicaSet/controller events`,
    ]);
  });

  test('a Warning no rule knows is quoted as the cluster wrote it', async () => {
    // GIVEN
    const { run, cluster, recorder } = setup();
    const pod = waitingPod('cinder-volume', { reason: 'ContainerCreating' });
    cluster.seed(pod);
    cluster.recordEvent(cluster.peek(objectRef(pod)) as KubeObject, {
      reason: 'FailedMount',
      message: 'MountVolume.SetUp failed for volume "ceph-keyring" : secret "ceph-keyring" not found',
    });
    const graph = testGraph(
      component('cinder-volume', {}, deployment('cinder-volume', { [SIM_NEVER_READY]: 'true' })),
    );

    // WHEN
    const result = await run(graph, { componentTimeoutMs: 20_000 });

    // THEN
    expect(result.components[0].cause).toBe('timeout');
    expect(recorder.of('unit-diagnosis')[0].diagnosis).toEqual([
      'Pod cinder-volume-5d8f-x2kq9: FailedMount: MountVolume.SetUp failed for volume "ceph-keyring" : secret "ceph-keyring" not found',
    ]);
  });
});
