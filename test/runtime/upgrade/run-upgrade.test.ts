import { Annotations, ComponentGraph, KubeObject } from '../../../lib/graph';
import { graphHash, inventoryFromConfigMap, readInventory } from '../../../lib/runtime/inventory/inventory';
import { deploy } from '../../../lib/runtime/operations/deploy';
import { planGraph, renderPlan } from '../../../lib/runtime/operations/plan';
import {
  DEFAULT_CONTROLLERS,
  InMemoryCluster,
  SimulatedController,
} from '../../../lib/testing/in-memory-cluster';
import { component, deployment, job, namespace, NS, testGraph } from '../support/manifests';

const INVENTORY_REF = `ConfigMap/${NS}/stackwright-inventory-test`;

/** A Deployment (or a Job, with `job`) whose one container runs `image`. */
function running(object: KubeObject, image: string): KubeObject {
  const spec = object.spec as { template?: { metadata?: object; spec?: object } };
  return {
    ...object,
    spec: {
      ...spec,
      template: { ...spec.template, spec: { ...spec.template?.spec, containers: [{ name: 'main', image }] } },
    },
  };
}

/** A service's schema migration Job, annotated as the upgrade's template. */
function schemaSync(service: string, release: string): KubeObject {
  return running(
    job(`${service}-db-sync`, { [Annotations.UPGRADE_TEMPLATE]: 'schema-sync' }),
    `registry.local/${service}:${release}`,
  );
}

/** The database backup CronJob (suspended), annotated as the upgrade's backup template. */
function backupCronJob(): KubeObject {
  const template = running(job('db-backup'), 'registry.local/mariadb:11.4');
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'db-backup', namespace: NS, annotations: { [Annotations.UPGRADE_TEMPLATE]: 'backup' } },
    spec: { schedule: '17 3 * * *', suspend: true, jobTemplate: { spec: template.spec } },
  };
}

/**
 * db (own tag) with its backup; Keystone and Glance at `release`, each a schema Job and an API.
 * `backup: false` leaves the backup CronJob out.
 */
function cloudAt(release: string, { backup = true } = {}): ComponentGraph {
  return testGraph(
    [namespace()],
    component('db', {}, running(deployment('db'), 'registry.local/mariadb:11.4')),
    backup ? component('db-backup', { needs: { db: 'ready' }, service: 'db' }, backupCronJob()) : [],
    component('keystone-db-sync', { needs: { db: 'ready' } }, schemaSync('keystone', release)),
    component(
      'keystone-api',
      { needs: { 'keystone-db-sync': 'completed', db: 'ready' } },
      running(deployment('keystone-api'), `registry.local/keystone:${release}`),
    ),
    component('glance-db-sync', { needs: { db: 'ready' } }, schemaSync('glance', release)),
    component(
      'glance-api',
      { needs: { 'keystone-api': 'ready', 'glance-db-sync': 'completed' } },
      running(deployment('glance-api'), `registry.local/glance:${release}`),
    ),
  );
}

const recordedRelease = (cluster: InMemoryCluster) =>
  inventoryFromConfigMap(cluster.peek(INVENTORY_REF) ?? namespace()).release;

/** The refs written (created or changed) since `mark`, in order. */
const writtenSince = (cluster: InMemoryCluster, mark: number) =>
  cluster.log
    .slice(mark)
    .filter((c) => c.op === 'apply' && c.detail !== 'unchanged')
    .map((c) => c.ref);

/** Index of the first written ref matching `pattern`; fails the test naming the refs when none does. */
function writeIndex(written: readonly string[], pattern: RegExp): number {
  const at = written.findIndex((ref) => pattern.test(ref));
  if (at < 0) throw new Error(`no write matches ${pattern}; written: ${written.join(', ')}`);
  return at;
}

const imageOf = (cluster: InMemoryCluster, ref: string) =>
  (cluster.peek(ref)?.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec
    .containers[0].image;

/** The default controllers, except that Jobs whose name starts with `prefix` fail. */
function failingJobs(prefix: string, message: string): SimulatedController[] {
  return [
    (written, cluster) =>
      written.kind === 'Job' && written.metadata.name.startsWith(prefix)
        ? cluster.simulateStatus(written, () => ({
            startTime: new Date().toISOString(),
            failed: 1,
            conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message }],
          }))
        : Promise.all(DEFAULT_CONTROLLERS.map((c) => c(written, cluster))).then(() => undefined),
  ];
}

describe('deploy runs a release upgrade', () => {
  test('phase by phase: checks, backup, expand, roll, contract, then the Jobs again; the new release recorded', async () => {
    // GIVEN a cloud deployed at 2024.2
    const cluster = new InMemoryCluster();
    expect((await deploy(cloudAt('2024.2'), { cluster })).ok).toBe(true);
    const mark = cluster.log.length;

    // WHEN the manifests at 2025.1 are deployed
    const announced: string[][] = [];
    const result = await deploy(cloudAt('2025.1'), {
      cluster,
      onUpgrade: (u) => announced.push([...u.phases]),
    });

    // THEN every unit ran, in the plan's order, and the cluster now records 2025.1
    expect(result.ok).toBe(true);
    expect(result.upgrade).toMatchObject({ from: '2024.2', to: '2025.1' });
    expect(announced[0].slice(0, 2)).toEqual([
      'upgrade test: 2024.2 -> 2025.1',
      'service order: keystone, glance',
    ]);
    expect(recordedRelease(cluster)).toBe('2025.1');
    // (the record's graph is the manifests', so `stackwright status` sees them unchanged)
    expect((await readInventory(cluster, { cloud: 'test', namespace: NS }))?.graphHash).toBe(
      graphHash(cloudAt('2025.1')),
    );
    const written = writtenSince(cluster, mark);
    const at = (pattern: RegExp) => writeIndex(written, pattern);
    expect(at(/^Job\/.*\/keystone-pre-check-2025-1-[0-9a-f]{8}$/)).toBeLessThan(
      at(/^Job\/.*\/upgrade-backup-/),
    );
    expect(at(/^Job\/.*\/upgrade-backup-/)).toBeLessThan(at(/^Job\/.*\/keystone-expand-/));
    expect(at(/^Job\/.*\/keystone-expand-/)).toBeLessThan(at(/^Deployment\/.*\/keystone-api$/));
    expect(at(/^Deployment\/.*\/keystone-api$/)).toBeLessThan(at(/^Job\/.*\/keystone-contract-/));
    // the plain schema sync (the whole migration at once) only after the contract
    expect(at(/^Job\/.*\/keystone-contract-/)).toBeLessThan(at(/^Job\/.*\/keystone-db-sync$/));
    expect(at(/^Job\/.*\/keystone-contract-/)).toBeLessThan(at(/^Job\/.*\/glance-expand-/));
    expect(at(/^Job\/.*\/glance-expand-/)).toBeLessThan(at(/^Deployment\/.*\/glance-api$/));
    expect(at(/^Deployment\/.*\/glance-api$/)).toBeLessThan(
      at(/^Job\/.*\/glance-post-check-|^Job\/.*\/keystone-post-check-/),
    );
    expect(imageOf(cluster, `Deployment/${NS}/keystone-api`)).toBe('registry.local/keystone:2025.1');

    // AND the expand Job is the schema Job's pod at the target release, running the judged commands
    const expand = result.rollout.components.find((c) => c.name === 'keystone-expand');
    expect(expand?.state).toBe('verified');
    const expandRef = written[at(/^Job\/.*\/keystone-expand-/)];
    const expandJob = cluster.peek(expandRef) as KubeObject;
    const container = (expandJob.spec as { template: { spec: { containers: Record<string, unknown>[] } } })
      .template.spec.containers[0];
    expect(container.image).toBe('registry.local/keystone:2025.1');
    expect(container.command).toEqual([
      '/bin/sh',
      '-c',
      expect.stringContaining('keystone-manage db_sync --expand\n'),
    ]);
    expect(expandJob.metadata.annotations?.[Annotations.UPGRADE_TEMPLATE]).toBeUndefined();
  });

  test('an inventory that records no release (an older runtime): the live images give the release upgraded from', async () => {
    // GIVEN a cloud running 2024.2 whose inventory lost its record
    const cluster = new InMemoryCluster();
    expect((await deploy(cloudAt('2024.2'), { cluster })).ok).toBe(true);
    const annotations = { ...cluster.peek(INVENTORY_REF)?.metadata.annotations };
    delete annotations['stackwright.io/release'];
    cluster.updateMetadata(INVENTORY_REF, { annotations });
    const inventory = await readInventory(cluster, { cloud: 'test', namespace: NS });
    expect(inventory?.release).toBeUndefined();

    // WHEN the 2025.1 manifests are planned, then deployed
    const planned = await planGraph(cloudAt('2025.1'), cluster, inventory);
    const result = await deploy(cloudAt('2025.1'), { cluster });

    // THEN both take the move from 2024.2: the phases run (an expand before the new pods), not a plain roll
    expect(planned.upgrade?.[0]).toBe('upgrade test: 2024.2 -> 2025.1');
    expect(result.ok).toBe(true);
    expect(result.upgrade).toMatchObject({ from: '2024.2', to: '2025.1' });
    expect(recordedRelease(cluster)).toBe('2025.1');
  });

  test('a second deploy writes nothing; the upgrade Jobs are orphans that --prune deletes', async () => {
    // GIVEN a cloud upgraded from 2024.2 to 2025.1
    const cluster = new InMemoryCluster();
    await deploy(cloudAt('2024.2'), { cluster });
    await deploy(cloudAt('2025.1'), { cluster });
    const mark = cluster.log.length;

    // WHEN the same manifests are deployed again, then with prune
    const again = await deploy(cloudAt('2025.1'), { cluster });
    const writes = writtenSince(cluster, mark);
    const pruned = await deploy(cloudAt('2025.1'), { cluster, prune: true });

    // THEN nothing is written, not even the inventory; the upgrade's Jobs are named as orphans,
    // and prune deletes them
    expect(again.ok && again.upgrade === undefined).toBe(true);
    expect(writes).toEqual([]);
    expect(again.inventory.orphans).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Job\/.*\/keystone-expand-2025-1-/)]),
    );
    expect(pruned.prune?.ok).toBe(true);
    expect(pruned.inventory.orphans).toEqual([]);
  });

  test('a failed pre-check stops the upgrade before any schema step or pod changes; the old release stays recorded', async () => {
    // GIVEN a cloud at 2024.2 on a cluster where Keystone's pre-check Job fails
    const reason = '`keystone-manage db_sync --check` exited 1: the schema is broken or the check failed';
    const cluster = new InMemoryCluster({ controllers: failingJobs('keystone-pre-check', reason) });
    await deploy(cloudAt('2024.2'), { cluster });

    // WHEN the manifests at 2025.1 are deployed
    const result = await deploy(cloudAt('2025.1'), { cluster });

    // THEN the pre-check failed with the Job's message, the rest is blocked by it, nothing rolled
    expect(result.ok).toBe(false);
    const byName = new Map(result.rollout.components.map((c) => [c.name, c]));
    expect(byName.get('keystone-pre-check')).toMatchObject({ state: 'failed' });
    expect(byName.get('keystone-pre-check')?.reason).toContain(reason);
    for (const blocked of ['upgrade-backup', 'keystone-expand', 'keystone-api', 'glance-api']) {
      expect(byName.get(blocked)).toMatchObject({ state: 'blocked', blockedBy: 'keystone-pre-check' });
    }
    expect(imageOf(cluster, `Deployment/${NS}/keystone-api`)).toBe('registry.local/keystone:2024.2');
    expect(recordedRelease(cluster)).toBe('2024.2');
  });

  test('plan shows the phases and the Jobs deploy would create; a missing template is refused before any write', async () => {
    // GIVEN a cloud at 2024.2
    const cluster = new InMemoryCluster();
    await deploy(cloudAt('2024.2'), { cluster });
    const mark = cluster.log.length;
    const inventory = await readInventory(cluster, { cloud: 'test', namespace: NS });

    // WHEN the manifests at 2025.1 are planned
    const planned = await planGraph(cloudAt('2025.1'), cluster, inventory);

    // THEN the phases are printed and the upgrade's Jobs are among the objects to create
    expect(planned.upgrade).toContain(
      '  keystone-expand: keystone-manage db_sync --expand (after upgrade-backup)',
    );
    expect(renderPlan(planned)).toContain('upgrade test: 2024.2 -> 2025.1\n');
    expect(planned.objects.filter((o) => o.action === 'create').map((o) => o.ref)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Job\/.*\/upgrade-backup-2025-1-/)]),
    );

    // WHEN manifests without the backup CronJob are deployed THEN refused, naming the fix, nothing written
    await expect(deploy(cloudAt('2025.1', { backup: false }), { cluster })).rejects.toThrow(
      `[test] the backup before the first schema step needs a CronJob annotated ${Annotations.UPGRADE_TEMPLATE}: backup`,
    );
    expect(writtenSince(cluster, mark)).toEqual([]);
    expect(recordedRelease(cluster)).toBe('2024.2');
  });
});
