import { ComponentGraph } from '../../../lib/graph';
import { inventoryFromConfigMap } from '../../../lib/runtime/inventory/inventory';
import { deploy } from '../../../lib/runtime/operations/deploy';
import { planGraph } from '../../../lib/runtime/operations/plan';
import { readInventory } from '../../../lib/runtime/inventory/inventory';
import { decideRelease, manifestRelease, oldestWorkloadRelease } from '../../../lib/runtime/upgrade';
import { ApplyConflictError } from '../../../lib/runtime/ports';
import { InMemoryCluster } from '../../../lib/testing/in-memory-cluster';
import { component, deployment, testGraph, job, namespace, NS } from '../support/manifests';

const INVENTORY_REF = `ConfigMap/${NS}/stackwright-inventory-test`;

/** A deployment whose one container runs `image`. */
function runs(name: string, image: string) {
  const d = deployment(name);
  return {
    ...d,
    spec: { ...(d.spec as object), template: { spec: { containers: [{ name: 'main', image }] } } },
  };
}

/** mariadb (own tag) <- keystone-db-sync <- keystone-api, the OpenStack images at `release`. */
function cloudAt(release: string, glanceRelease = release): ComponentGraph {
  return testGraph(
    [namespace()],
    component('mariadb', {}, runs('mariadb', 'registry.local/mariadb:11.4')),
    component('keystone-db-sync', { needs: { mariadb: 'ready' } }, job('keystone-db-sync')),
    component(
      'keystone-api',
      { needs: { 'keystone-db-sync': 'completed' } },
      runs('keystone-api', `registry.local/keystone:${release}`),
    ),
    component(
      'glance-api',
      { needs: { 'keystone-api': 'ready' } },
      runs('glance-api', `registry.local/glance:${glanceRelease}`),
    ),
  );
}

const recordedRelease = (cluster: InMemoryCluster) =>
  inventoryFromConfigMap(cluster.peek(INVENTORY_REF) ?? namespace()).release;

const writesSince = (cluster: InMemoryCluster, mark: number) =>
  cluster.log.slice(mark).filter((c) => (c.op === 'apply' && c.detail !== 'unchanged') || c.op === 'delete');

describe('the release recorded on the cluster', () => {
  test('a deploy records the manifests’ release on the inventory once the run completed', async () => {
    // GIVEN an empty cluster
    const cluster = new InMemoryCluster();

    // WHEN a cloud at 2024.2 is deployed
    const result = await deploy(cloudAt('2024.2'), { cluster });

    // THEN the inventory carries stackwright.io/release: 2024.2
    expect(result.ok).toBe(true);
    expect(cluster.peek(INVENTORY_REF)?.metadata.annotations?.['stackwright.io/release']).toBe('2024.2');
    expect(recordedRelease(cluster)).toBe('2024.2');
  });

  test('a run whose rollout failed leaves no release recorded, so the next run checks again', async () => {
    // GIVEN a cluster where glance-api's apply conflicts with another manager
    const cluster = new InMemoryCluster();
    const ref = `Deployment/${NS}/glance-api`;
    cluster.failApply(
      ref,
      new ApplyConflictError(ref, [{ manager: 'kubectl-edit', field: '.spec.replicas' }]),
    );

    // WHEN the cloud at 2024.2 is deployed
    const result = await deploy(cloudAt('2024.2'), { cluster });

    // THEN the run failed and the inventory records no release
    expect(result.ok).toBe(false);
    expect(recordedRelease(cluster)).toBeUndefined();
  });

  test('the same release again is a plain deploy that writes nothing', async () => {
    // GIVEN a cloud deployed at 2024.2
    const cluster = new InMemoryCluster();
    await deploy(cloudAt('2024.2'), { cluster });
    const mark = cluster.log.length;

    // WHEN the same manifests are deployed again
    const result = await deploy(cloudAt('2024.2'), { cluster });

    // THEN nothing is written and no upgrade is planned
    expect(result.ok).toBe(true);
    expect(writesSince(cluster, mark)).toEqual([]);
    expect(
      (
        await planGraph(
          cloudAt('2024.2'),
          cluster,
          await readInventory(cluster, { cloud: 'test', namespace: NS }),
        )
      ).upgrade,
    ).toBeUndefined();
  });

  test('a downgrade is refused naming the cloud and the fix, before any write', async () => {
    // GIVEN a cloud deployed at 2025.1
    const cluster = new InMemoryCluster();
    await deploy(cloudAt('2025.1'), { cluster });
    const mark = cluster.log.length;

    // WHEN manifests at 2024.2 are deployed
    const run = deploy(cloudAt('2024.2'), { cluster });

    // THEN it is refused and the cluster is untouched, the recorded release still 2025.1
    await expect(run).rejects.toThrow(
      "[test] release '2025.1' -> '2024.2' is a downgrade, and OpenStack's database migrations only go forward; set release: '2025.1' again",
    );
    expect(writesSince(cluster, mark)).toEqual([]);
    expect(recordedRelease(cluster)).toBe('2025.1');
  });

  test('a recorded release the package does not carry is refused before any write', async () => {
    // GIVEN an inventory that records 2023.2 (a cloud deployed by an older Stackwright)
    const cluster = new InMemoryCluster();
    await deploy(cloudAt('2024.2'), { cluster });
    const live = cluster.peek(INVENTORY_REF) ?? namespace();
    await cluster.apply(
      {
        ...live,
        metadata: {
          ...live.metadata,
          annotations: { ...live.metadata.annotations, 'stackwright.io/release': '2023.2' },
        },
      },
      { fieldManager: 'test', force: true, dryRun: false },
    );
    const mark = cluster.log.length;

    // WHEN manifests at 2024.2 are deployed, THEN refused, nothing written
    await expect(deploy(cloudAt('2024.2'), { cluster })).rejects.toThrow(
      '[test] the cluster runs release "2023.2", which this package does not carry',
    );
    expect(writesSince(cluster, mark)).toEqual([]);
  });

  /** A cloud deployed at `release` whose inventory records no release (an older runtime's record). */
  async function cloudWithoutRecord(release: string): Promise<InMemoryCluster> {
    const cluster = new InMemoryCluster();
    await deploy(cloudAt(release), { cluster });
    const annotations = { ...cluster.peek(INVENTORY_REF)?.metadata.annotations };
    delete annotations['stackwright.io/release'];
    cluster.updateMetadata(INVENTORY_REF, { annotations });
    expect(recordedRelease(cluster)).toBeUndefined();
    return cluster;
  }

  test('an inventory without a record, the same release live: a plain deploy that records it', async () => {
    // GIVEN a cloud running 2025.1 whose inventory records no release
    const cluster = await cloudWithoutRecord('2025.1');
    const mark = cluster.log.length;

    // WHEN the same manifests are deployed
    const result = await deploy(cloudAt('2025.1'), { cluster });

    // THEN no upgrade, only the record is written
    expect(result.upgrade).toBeUndefined();
    expect(writesSince(cluster, mark).map((c) => c.ref)).toEqual([INVENTORY_REF]);
    expect(recordedRelease(cluster)).toBe('2025.1');
  });

  test('an inventory without a record, a newer release live: the downgrade is refused before any write', async () => {
    // GIVEN a cloud running 2025.1 whose inventory records no release
    const cluster = await cloudWithoutRecord('2025.1');
    const mark = cluster.log.length;

    // WHEN / THEN 2024.2 manifests are refused as a downgrade, nothing written
    await expect(deploy(cloudAt('2024.2'), { cluster })).rejects.toThrow(
      "[test] release '2025.1' -> '2024.2' is a downgrade",
    );
    expect(writesSince(cluster, mark)).toEqual([]);
  });

  test('live workloads at two releases (a move stopped half-way): the oldest is the one to move from', () => {
    // GIVEN workloads at 2025.1 and 2024.2, and one with no release tag
    const workloads = [
      runs('glance-api', 'registry.local/glance:2025.1'),
      runs('keystone-api', 'registry.local/keystone:2024.2'),
      runs('mariadb', 'registry.local/mariadb:11.4'),
    ];
    // WHEN / THEN
    expect(oldestWorkloadRelease(workloads)).toBe('2024.2');
    expect(oldestWorkloadRelease(workloads.slice(2))).toBeUndefined();
  });

  test('manifests without a release tag are untracked; mixed releases are refused', () => {
    // GIVEN manifests with no OpenStack image, and manifests half at 2024.2 and half at 2025.1
    const infraOnly = testGraph(
      [namespace()],
      component('mariadb', {}, runs('mariadb', 'registry.local/mariadb:11.4')),
    );

    // WHEN / THEN
    expect(decideRelease(infraOnly, 'test', '2024.2')).toEqual({ kind: 'untracked' });
    expect(decideRelease(cloudAt('2024.2'), 'test', undefined)).toEqual({ kind: 'record', to: '2024.2' });
    expect(() => manifestRelease(cloudAt('2024.2', '2025.1'), 'test')).toThrow(
      "[test] the manifests' images name several releases: '2024.2' (keystone-api), '2025.1' (glance-api)",
    );
  });
});
