import { ComponentGraph } from '../../../lib/graph';
import { deploy } from '../../../lib/runtime/operations/deploy';
import { destroy, destroyUnits, planDestroy, runDestroy } from '../../../lib/runtime/operations/destroy';
import { InMemoryCluster } from '../../../lib/testing/in-memory-cluster';
import {
  inventoryFromConfigMap,
  inventoryFromGraph,
  inventoryLocation,
} from '../../../lib/runtime/inventory/inventory';
import { pruneUnits } from '../../../lib/runtime/operations/prune';
import { RunEvent } from '../../../lib/runtime/events';
import {
  component,
  configMap,
  deployment,
  testGraph,
  job,
  namespace,
  NS,
  service,
} from '../support/manifests';

/** mariadb <- keystone-db-sync <- keystone-api <- glance-api; memcached independent. */
function cloud(opts: { withGlance?: boolean; keystoneImage?: string } = {}): ComponentGraph {
  const api = deployment('keystone-api');
  const keystoneApi = opts.keystoneImage
    ? {
        ...api,
        spec: {
          ...(api.spec as object),
          template: { spec: { containers: [{ name: 'main', image: opts.keystoneImage }] } },
        },
      }
    : api;
  return testGraph(
    [namespace()],
    component('mariadb', {}, configMap('mariadb-config'), service('mariadb'), deployment('mariadb')),
    component('memcached', {}, deployment('memcached')),
    component('keystone-db-sync', { needs: { mariadb: 'ready' } }, job('keystone-db-sync')),
    component(
      'keystone-api',
      { needs: { 'keystone-db-sync': 'completed', memcached: 'ready' } },
      keystoneApi,
      service('keystone-api'),
    ),
    ...(opts.withGlance === false
      ? []
      : [
          component(
            'glance-api',
            { needs: { 'keystone-api': 'ready' } },
            deployment('glance-api'),
            configMap('glance-config'),
          ),
        ]),
  );
}

const INVENTORY_REF = `ConfigMap/${NS}/stackwright-inventory-test`;

function writesOf(cluster: InMemoryCluster, from = 0): string[] {
  return cluster.log
    .slice(from)
    .filter((c) => (c.op === 'apply' && c.detail !== 'unchanged') || c.op === 'delete')
    .map((c) => `${c.op} ${c.ref}`);
}

describe('deploy', () => {
  test('records the inventory before the first apply and after the run', async () => {
    // GIVEN an empty cluster
    const cluster = new InMemoryCluster();

    // WHEN
    const result = await deploy(cloud(), { cluster });

    // THEN every component verified, and the inventory was written twice: pending, then complete
    expect(result.ok).toBe(true);
    expect(result.rollout.counts.verified).toBe(5);
    expect(result.inventory.writes).toBe(2);
    const applies = cluster.calls('apply').map((c) => c.ref);
    const firstInventoryWrite = applies.indexOf(INVENTORY_REF);
    const firstComponentWrite = applies.indexOf(`ConfigMap/${NS}/mariadb-config`);
    expect(firstInventoryWrite).toBeGreaterThanOrEqual(0);
    expect(firstInventoryWrite).toBeLessThan(firstComponentWrite);
    const inventory = inventoryFromConfigMap(cluster.peek(INVENTORY_REF) ?? namespace());
    expect(inventory.state).toBe('complete');
    expect(inventory.objects.every((o) => o.hash.length > 0)).toBe(true);
  });

  test('a re-run with nothing changed writes nothing', async () => {
    // GIVEN a deployed cloud
    const cluster = new InMemoryCluster();
    await deploy(cloud(), { cluster });
    const mark = cluster.log.length;

    // WHEN the same manifests are deployed again
    const result = await deploy(cloud(), { cluster });

    // THEN no apply reached the cluster, the inventory was not rewritten, all verified
    expect(result.ok).toBe(true);
    expect(writesOf(cluster, mark)).toEqual([]);
    expect(cluster.log.slice(mark).filter((c) => c.op === 'apply-start')).toEqual([]);
    expect(result.inventory.writes).toBe(0);
    expect(result.skippedUnchanged).toBe(10);
  });

  test('a changed object is applied, the unchanged ones are not', async () => {
    // GIVEN a deployed cloud
    const cluster = new InMemoryCluster();
    await deploy(cloud(), { cluster });
    const mark = cluster.log.length;

    // WHEN keystone-api gets a new image
    const result = await deploy(cloud({ keystoneImage: 'keystone:2' }), { cluster });

    // THEN only that object and the inventory (its new hash) were written
    expect(result.ok).toBe(true);
    expect(writesOf(cluster, mark)).toEqual([
      `apply Deployment/${NS}/keystone-api`,
      `apply ${INVENTORY_REF}`,
    ]);
  });

  test('a Secret whose value changed is applied, though its recorded hash leaves values out', async () => {
    // GIVEN a deployed cloud with a user-supplied Secret
    const secret = (password: string) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'admin', namespace: NS },
      stringData: { password },
    });
    const withSecret = (password: string) =>
      testGraph([namespace()], component('admin', {}, secret(password)));
    const cluster = new InMemoryCluster();
    await deploy(withSecret('hunter2'), { cluster });
    const recorded = inventoryFromConfigMap(cluster.peek(INVENTORY_REF) ?? namespace());
    const mark = cluster.log.length;

    // WHEN the same Secret is deployed with another value
    const result = await deploy(withSecret('letmein'), { cluster });

    // THEN it is written again; the inventory did not change (no value in it to change)
    expect(result.ok).toBe(true);
    expect(writesOf(cluster, mark)).toEqual([`apply Secret/${NS}/admin`]);
    expect(JSON.stringify(recorded)).not.toMatch(/hunter2/);
  });

  test('without skipping, a re-run sends every apply and the server reports them unchanged', async () => {
    const cluster = new InMemoryCluster();
    await deploy(cloud(), { cluster });
    const mark = cluster.log.length;
    const result = await deploy(cloud(), { cluster, skipUnchanged: false });
    expect(result.skippedUnchanged).toBe(0);
    expect(
      cluster.log
        .slice(mark)
        .filter((c) => c.op === 'apply')
        .map((c) => c.detail),
    ).toEqual(new Array(10).fill('unchanged'));
  });

  test('prune deletes a removed component after a successful rollout, and forgets it', async () => {
    // GIVEN a deployed cloud
    const cluster = new InMemoryCluster();
    await deploy(cloud(), { cluster });
    const events: RunEvent[] = [];

    // WHEN glance-api is removed from the manifests and deployed with prune
    const result = await deploy(cloud({ withGlance: false }), {
      cluster,
      prune: true,
      onEvent: (e) => events.push(e),
    });

    // THEN its objects are gone and the inventory no longer lists them
    expect(result.ok).toBe(true);
    expect(result.prune?.counts.deleted).toBe(1);
    expect(cluster.peek(`Deployment/${NS}/glance-api`)).toBeUndefined();
    expect(cluster.peek(`ConfigMap/${NS}/glance-config`)).toBeUndefined();
    expect(result.inventory.orphans).toEqual([]);
    const inventory = inventoryFromConfigMap(cluster.peek(INVENTORY_REF) ?? namespace());
    expect(inventory.objects.some((o) => o.component === 'glance-api')).toBe(false);
    const gone = events
      .filter((e) => e.type === 'object-gone')
      .map((e) => (e.type === 'object-gone' ? e.ref : ''));
    expect(gone.sort()).toEqual([`ConfigMap/${NS}/glance-config`, `Deployment/${NS}/glance-api`]);
  });

  test('without prune, a removed component stays and is reported as an orphan', async () => {
    const cluster = new InMemoryCluster();
    await deploy(cloud(), { cluster });
    const result = await deploy(cloud({ withGlance: false }), { cluster });
    expect(cluster.peek(`Deployment/${NS}/glance-api`)).toBeDefined();
    expect(result.inventory.orphans).toEqual([
      `ConfigMap/${NS}/glance-config`,
      `Deployment/${NS}/glance-api`,
    ]);
  });
});

describe('prune and destroy order', () => {
  test('pruned components keep their recorded dependencies', () => {
    // GIVEN an inventory of the full cloud, and manifests with only mariadb left
    const inventory = inventoryFromGraph(cloud(), { cloud: 'test', namespace: NS }, 'complete');
    const remaining = testGraph(
      [namespace()],
      component('mariadb', {}, configMap('mariadb-config'), service('mariadb'), deployment('mariadb')),
    );

    // WHEN
    const units = pruneUnits(inventory, remaining);

    // THEN keystone-api (removed) still waits on keystone-db-sync and memcached (removed too)
    expect(units.map((u) => u.name)).toEqual(['glance-api', 'keystone-api', 'keystone-db-sync', 'memcached']);
    expect(units.find((u) => u.name === 'keystone-api')?.dependsOn).toEqual([
      'keystone-db-sync',
      'memcached',
    ]);
  });

  test('destroy deletes dependants before their dependencies, bootstrap and inventory last', async () => {
    // GIVEN a deployed cloud
    const cluster = new InMemoryCluster();
    await deploy(cloud(), { cluster });
    const mark = cluster.log.length;

    // WHEN
    const result = await destroy(cloud(), { cluster });

    // THEN everything is gone
    expect(result.ok).toBe(true);
    expect(cluster.all()).toEqual([]);
    // AND each component's deletes came after the deletes of every component that depends on it
    const deletes = cluster.log
      .slice(mark)
      .filter((c) => c.op === 'delete')
      .map((c) => c.ref);
    const position = (ref: string) => deletes.indexOf(ref);
    expect(position(`Deployment/${NS}/glance-api`)).toBeLessThan(position(`Deployment/${NS}/keystone-api`));
    expect(position(`Deployment/${NS}/keystone-api`)).toBeLessThan(position(`Job/${NS}/keystone-db-sync`));
    expect(position(`Deployment/${NS}/keystone-api`)).toBeLessThan(position(`Deployment/${NS}/memcached`));
    expect(position(`Job/${NS}/keystone-db-sync`)).toBeLessThan(position(`Deployment/${NS}/mariadb`));
    expect(position(`Deployment/${NS}/mariadb`)).toBeLessThan(position(INVENTORY_REF));
    expect(position(INVENTORY_REF)).toBeLessThan(position(`Namespace/${NS}`));
  });

  test('a destroy plan deletes nothing; running it deletes what it planned, the recorded orphans included', async () => {
    // GIVEN the full cloud deployed, and manifests without glance-api
    const cluster = new InMemoryCluster();
    await deploy(cloud(), { cluster });
    const before = cluster.all().length;
    const graph = cloud({ withGlance: false });

    // WHEN the destroy is planned
    const plan = await planDestroy(graph, inventoryLocation(graph), cluster);

    // THEN nothing is deleted yet, and the plan counts what it will delete, glance-api's objects included
    expect(cluster.all()).toHaveLength(before);
    expect(cluster.log.filter((c) => c.op === 'delete')).toEqual([]);
    expect(plan.orphans).toEqual([`ConfigMap/${NS}/glance-config`, `Deployment/${NS}/glance-api`]);
    expect(plan.components).toBe(graph.components.length);
    expect(plan.objects).toBe(plan.units.reduce((n, u) => n + u.objects.length, 0));
    expect(plan.units.map((u) => u.name)).toContain('glance-api');

    // WHEN it is run
    const result = await runDestroy(plan, cluster);

    // THEN everything is gone
    expect(result.ok).toBe(true);
    expect(result.orphans).toEqual(plan.orphans);
    expect(cluster.all()).toEqual([]);
  });

  test('destroy also removes objects only the inventory remembers', () => {
    // GIVEN an inventory with glance-api, and manifests without it
    const inventory = inventoryFromGraph(cloud(), { cloud: 'test', namespace: NS }, 'complete');

    // WHEN
    const { units, orphans } = destroyUnits(cloud({ withGlance: false }), inventory);

    // THEN glance-api is a unit of its own that depends on keystone-api, as recorded
    expect(orphans).toEqual([`ConfigMap/${NS}/glance-config`, `Deployment/${NS}/glance-api`]);
    expect(units.find((u) => u.name === 'glance-api')?.dependsOn).toEqual(['keystone-api', 'bootstrap']);
  });

  test('a unit that cannot be deleted blocks its dependencies, not unrelated units', async () => {
    // GIVEN a deployed cloud whose keystone-api delete is rejected
    const cluster = new InMemoryCluster();
    await deploy(cloud(), { cluster });
    const original = cluster.delete.bind(cluster);
    cluster.delete = async (object) => {
      if (object.metadata.name === 'keystone-api' && object.kind === 'Deployment')
        throw new Error('forbidden');
      return original(object);
    };

    // WHEN
    const result = await destroy(cloud(), { cluster });

    // THEN keystone-api failed, what it needs stays, glance-api (a dependant) is gone
    const state = (name: string) => result.deletion.units.find((u) => u.name === name)?.state;
    expect(state('glance-api')).toBe('deleted');
    expect(state('keystone-api')).toBe('failed');
    expect(state('keystone-db-sync')).toBe('blocked');
    expect(state('memcached')).toBe('blocked');
    expect(cluster.peek(`Deployment/${NS}/mariadb`)).toBeDefined();
    // AND the reasons are the scheduler's, worded as deploy's, with typed causes
    const unit = (name: string) => result.deletion.units.find((u) => u.name === name);
    expect(unit('keystone-api')).toMatchObject({ cause: 'apply-rejected', reason: 'forbidden' });
    expect(unit('mariadb')).toMatchObject({
      state: 'blocked',
      cause: 'blocked',
      blockedBy: 'keystone-api',
      reason: 'blocked by keystone-api (through keystone-db-sync), which failed: forbidden',
    });
  });
});

describe('a stopped destroy', () => {
  test('leaves its units not started with the stop as their cause, so the CLI can say what to do', async () => {
    // GIVEN a deployed cloud and a destroy stopped before it starts
    const cluster = new InMemoryCluster();
    await deploy(cloud(), { cluster });
    const controller = new AbortController();
    controller.abort();

    // WHEN
    const result = await destroy(cloud(), { cluster, signal: controller.signal });

    // THEN nothing is deleted and every unit says why it did not start
    expect(result.deletion.outcome).toBe('aborted');
    expect(cluster.log.filter((c) => c.op === 'delete')).toEqual([]);
    expect(result.deletion.units.map((u) => [u.state, u.cause, u.reason])).toEqual(
      result.deletion.units.map(() => ['not-started', 'aborted', 'aborted']),
    );
  });
});

describe('waiting until gone', () => {
  test('a delete held by a finalizer fails the unit after its timeout, naming the finalizer', async () => {
    // GIVEN a deployed cloud whose memcached Deployment carries a finalizer nobody removes
    const cluster = new InMemoryCluster();
    await deploy(cloud(), { cluster });
    cluster.updateMetadata(`Deployment/${NS}/memcached`, { finalizers: ['example.com/protect'] });

    // WHEN the cloud is destroyed with a short per-unit timeout
    const result = await destroy(cloud(), { cluster, unitTimeoutMs: 200 });

    // THEN memcached failed with the reason, keystone-api (its dependant) is gone, nothing it needs was touched
    const unit = (name: string) => result.deletion.units.find((u) => u.name === name);
    expect(unit('keystone-api')?.state).toBe('deleted');
    expect(unit('memcached')?.state).toBe('failed');
    expect(unit('memcached')?.reason).toContain(
      `Deployment/${NS}/memcached (terminating, finalizers example.com/protect)`,
    );
    expect(unit('bootstrap namespaces')?.state).toBe('blocked');
    expect(cluster.peek(`Namespace/${NS}`)).toBeDefined();
  });
});
