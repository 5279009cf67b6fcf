import { DeployRecord } from '../../../lib/runtime/inventory/deploy-record';
import { inventoryLocation } from '../../../lib/runtime/inventory/inventory';
import { rollout } from '../../../lib/runtime/operations/rollout';
import { InMemoryCluster } from '../../../lib/testing/in-memory-cluster';
import { component, configMap, testGraph, namespace, NS } from '../support/manifests';

/** a <- b, with the namespace as a bootstrap object. */
function cloud(withB = true) {
  return testGraph(
    [namespace()],
    component('a', {}, configMap('a')),
    ...(withB ? [component('b', { needs: { a: 'ready' } }, configMap('b'))] : []),
  );
}

describe('DeployRecord', () => {
  test('records pending before the rollout, applied after it, and knows what left the manifests', async () => {
    // GIVEN an empty cluster
    const cluster = new InMemoryCluster();
    const graph = cloud();
    const location = inventoryLocation(graph);
    const record = await DeployRecord.open(cluster, graph, location, 'stackwright');

    // WHEN pending is recorded
    await record.recordPending(cluster);

    // THEN the namespace exists and the inventory lists every object, no hash yet
    expect(cluster.peek(`Namespace/${NS}`)).toBeDefined();
    expect(record.current?.state).toBe('pending');
    expect(record.current?.objects.map((o) => o.hash)).toEqual(['', '', '']);

    // WHEN the rollout is recorded
    await record.recordApplied(await rollout(graph, cluster));

    // THEN every object has its hash, after two writes
    expect(record.current?.state).toBe('complete');
    expect(record.current?.objects.every((o) => o.hash.length > 0)).toBe(true);
    expect(record.writes).toBe(2);

    // WHEN the next deploy's manifests drop b
    const next = await DeployRecord.open(cluster, cloud(false), location, 'stackwright');
    await next.recordPending(cluster);

    // THEN nothing is written (nothing new to record) and b's ConfigMap is an orphan until forgotten
    expect(next.writes).toBe(0);
    expect(next.orphans()).toEqual([`ConfigMap/${NS}/b`]);
    await next.forget((next.current?.objects ?? []).filter((o) => o.component === 'b'));
    expect(next.orphans()).toEqual([]);
    expect(next.writes).toBe(1);
  });

  test('refuses to record into a namespace nothing creates, naming the fix', async () => {
    // GIVEN manifests without their namespace
    const cluster = new InMemoryCluster();
    const graph = testGraph(component('a', {}, configMap('a')));
    const record = await DeployRecord.open(cluster, graph, inventoryLocation(graph), 'stackwright');

    // THEN
    await expect(record.recordPending(cluster)).rejects.toThrow(
      `namespace ${NS} does not exist and the manifests do not create it; create it or add a Namespace object`,
    );
  });
});
