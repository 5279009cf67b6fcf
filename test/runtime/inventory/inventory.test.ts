import { KubeObject, objectRef } from '../../../lib/graph';
import {
  inventoryChanged,
  inventoryFromConfigMap,
  inventoryFromGraph,
  inventoryLocation,
  inventoryToConfigMap,
  mergeInventories,
  objectsNotIn,
  withoutObjects,
} from '../../../lib/runtime/inventory/inventory';
import { component, configMap, deployment, testGraph, namespace, NS } from '../support/manifests';

const full = () =>
  testGraph(
    [namespace()],
    component('mariadb', {}, deployment('mariadb')),
    component(
      'keystone-api',
      { needs: { mariadb: 'ready', 'keystone-db-sync': 'completed' } },
      deployment('keystone-api'),
      configMap('keystone-config'),
    ),
    component('keystone-db-sync', { needs: { mariadb: 'ready' } }, deployment('keystone-db-sync')),
  );

describe('inventoryLocation', () => {
  test('uses the cloud annotation and the namespace the stack creates', () => {
    expect(inventoryLocation(full())).toEqual({ cloud: 'test', namespace: NS });
  });

  test('of several namespaces the stack creates, uses the one most of its objects live in', () => {
    // GIVEN a stack creating the control plane's namespace and the agents', with more objects in
    // a namespace it does not create
    const elsewhere = (name: string): KubeObject => ({
      ...deployment(name),
      metadata: { name, namespace: 'elsewhere' },
    });
    const graph = testGraph(
      [namespace('agents'), namespace()],
      component('a', {}, deployment('a')),
      component('b', {}, elsewhere('b'), elsewhere('c')),
    );

    // WHEN / THEN
    expect(inventoryLocation(graph)).toEqual({ cloud: 'test', namespace: NS });
  });

  test('falls back to the namespace most objects live in, and honours an override', () => {
    // GIVEN manifests without a Namespace object
    const graph = testGraph(component('a', {}, deployment('a')));

    // WHEN / THEN
    expect(inventoryLocation(graph)).toEqual({ cloud: 'test', namespace: NS });
    expect(inventoryLocation(graph, 'elsewhere')).toEqual({ cloud: 'test', namespace: 'elsewhere' });
  });
});

describe('the inventory ConfigMap', () => {
  test('round-trips objects, owners, hashes and gating dependencies', () => {
    // GIVEN
    const inventory = inventoryFromGraph(full(), { cloud: 'test', namespace: NS }, 'complete');

    // WHEN
    const configMap = inventoryToConfigMap(inventory);
    const read = inventoryFromConfigMap(JSON.parse(JSON.stringify(configMap)));

    // THEN
    expect(configMap.metadata.name).toBe('stackwright-inventory-test');
    expect(configMap.metadata.namespace).toBe(NS);
    expect(read).toEqual(inventory);
    expect(read.components.find((c) => c.name === 'keystone-api')?.dependsOn).toEqual([
      'keystone-db-sync',
      'mariadb',
    ]);
    expect(read.objects.find((o) => o.name === 'keystone-config')).toMatchObject({
      kind: 'ConfigMap',
      component: 'keystone-api',
    });
    expect(read.objects.find((o) => o.kind === 'Namespace')?.component).toBeUndefined();
  });

  test('is unchanged when nothing changed, so a no-op deploy does not write it', () => {
    const a = inventoryFromGraph(full(), { cloud: 'test', namespace: NS }, 'complete');
    const b = inventoryFromGraph(full(), { cloud: 'test', namespace: NS }, 'complete');
    expect(inventoryChanged(a, b)).toBe(false);
    expect(inventoryChanged(a, { ...b, state: 'pending' })).toBe(true);
  });
});

describe('merging and pruning', () => {
  test('keeps objects that left the manifests until they are pruned', () => {
    // GIVEN an inventory of the full cloud and manifests without keystone-db-sync
    const location = { cloud: 'test', namespace: NS };
    const before = inventoryFromGraph(full(), location, 'complete');
    const smaller = testGraph(
      [namespace()],
      component('mariadb', {}, deployment('mariadb')),
      component(
        'keystone-api',
        { needs: { mariadb: 'ready' } },
        deployment('keystone-api'),
        configMap('keystone-config'),
      ),
    );

    // WHEN
    const merged = mergeInventories(before, inventoryFromGraph(smaller, location, 'complete'));
    const removed = objectsNotIn(merged, smaller);

    // THEN the removed component stays recorded, with its dependencies, until pruned
    expect(removed.map((o) => `${o.kind}/${o.namespace}/${o.name}`)).toEqual([
      `Deployment/${NS}/keystone-db-sync`,
    ]);
    expect(merged.components.map((c) => c.name)).toContain('keystone-db-sync');
    const pruned = withoutObjects(merged, removed);
    expect(pruned.components.map((c) => c.name)).not.toContain('keystone-db-sync');
    expect(pruned.objects).toHaveLength(merged.objects.length - 1);
    expect(pruned.objects.map((o) => o.name)).toEqual(
      expect.arrayContaining(smaller.components.flatMap((c) => c.objects.map((x) => x.metadata.name))),
    );
    expect(objectRef(deployment('mariadb'))).toBe(`Deployment/${NS}/mariadb`);
  });
});
