/**
 * Stuck states explained from what the cluster says, against a real control plane: a
 * ResourceQuota that forbids the pods and a PersistentVolumeClaim whose StorageClass does not
 * exist are named (the quota and its resource, the StorageClass) from the Events of the
 * ReplicaSet and the claim, and fail their component with a typed cause within two diagnosis
 * rounds instead of at the component timeout.
 */
import { graphFromManifests } from '../../lib/graph';
import { RunEvent } from '../../lib/runtime/events';
import { deploy } from '../../lib/runtime/operations/deploy';
import { destroy } from '../../lib/runtime/operations/destroy';
import { KubeCluster } from '../../lib/runtime/kube/kube-cluster';
import { waitFor } from './support/kube';
import { scratchNamespaces } from './support/scratch-namespaces';
import { fixtureCloud } from './runtime/fixtures';

jest.setTimeout(120_000);

const scratch = scratchNamespaces('sw-stuck');
const freshNamespace = scratch.fresh;
let cluster: KubeCluster;
beforeAll(() => {
  cluster = scratch.cluster();
});

const ROUND_MS = 3_000;
const COMPONENT_TIMEOUT_MS = 90_000;

test('a ResourceQuota that forbids the pods is named with its resource, and fails the component early', async () => {
  // GIVEN a namespace whose quota allows no pods (its usage already counted by the quota controller)
  const namespace = freshNamespace('quota');
  const fieldManager = { fieldManager: 'e2e', force: true, dryRun: false };
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, fieldManager);
  const quota = {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'no-pods', namespace },
    spec: { hard: { pods: '0' } },
  };
  await cluster.apply(quota, fieldManager);
  await waitFor('the quota controller to count the namespace', async () => {
    const live = await cluster.get(quota);
    return (live?.status as { used?: unknown } | undefined)?.used ? true : undefined;
  });
  const graph = graphFromManifests(
    fixtureCloud('quota', namespace, [{ name: 'api' }, { name: 'frontend', needs: { api: 'ready' } }]),
  );
  const events: RunEvent[] = [];

  // WHEN
  const result = await deploy(graph, {
    cluster,
    componentTimeoutMs: COMPONENT_TIMEOUT_MS,
    diagnoseAfterMs: ROUND_MS,
    onEvent: (e) => events.push(e),
  });

  // THEN the quota and its resource are named, with the fix, and the component failed long before its timeout
  const api = result.rollout.components.find((c) => c.name === 'api');
  expect(api).toMatchObject({ state: 'failed', cause: 'quota-exceeded' });
  expect(api?.reason).toMatch(
    /^ResourceQuota no-pods forbids the pods of ReplicaSet api-[a-z0-9]+: pods \(requested 1, used 0, limit 0\); fix: raise spec\.hard of ResourceQuota no-pods/,
  );
  expect(api?.durations.totalMs).toBeLessThan(COMPONENT_TIMEOUT_MS / 3);
  expect(result.rollout.components.find((c) => c.name === 'frontend')).toMatchObject({
    state: 'blocked',
    blockedBy: 'api',
  });
  // AND the diagnosis that failed it names the quota alone, not also "has no pods yet" (a diagnosis
  // before the ReplicaSet controller's FailedCreate exists may say that: on a loaded machine the
  // controller can take longer than one round to create the ReplicaSet)
  const diagnoses = events.filter((e) => e.type === 'unit-diagnosis' && e.unit === 'api');
  const last = diagnoses[diagnoses.length - 1];
  const said = last?.type === 'unit-diagnosis' ? last.diagnosis.join('\n') : '';
  expect(said).toContain('ResourceQuota no-pods');
  expect(said).not.toContain('has no pods yet');

  await destroy(graph, { cluster, propagationPolicy: 'Background' });
});

test('a PersistentVolumeClaim naming a StorageClass that does not exist is named, and fails the component early', async () => {
  // GIVEN a component whose pods mount a claim of a missing StorageClass
  const namespace = freshNamespace('storage');
  const graph = graphFromManifests(
    fixtureCloud('storage', namespace, [{ name: 'db', claimStorageClass: 'no-such-class' }]),
  );

  // WHEN
  const result = await deploy(graph, {
    cluster,
    componentTimeoutMs: COMPONENT_TIMEOUT_MS,
    diagnoseAfterMs: ROUND_MS,
  });

  // THEN
  const db = result.rollout.components.find((c) => c.name === 'db');
  expect(db).toMatchObject({
    state: 'failed',
    cause: 'storage-class-missing',
    reason:
      "PersistentVolumeClaim db-data asks for StorageClass no-such-class, which does not exist; fix: create StorageClass no-such-class, or set the claim's storageClassName to one that exists (kubectl get storageclass)",
  });
  expect(db?.durations.totalMs).toBeLessThan(COMPONENT_TIMEOUT_MS / 3);

  await destroy(graph, { cluster, propagationPolicy: 'Background' });
});
