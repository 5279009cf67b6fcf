import { App } from 'cdk8s';
import { CELL_LABEL, multiCellCloud } from '../../examples/multi-cell-cloud';
import { Nova } from '../../constructs/openstack';
import { findCycle } from '../../lib/graph';
import { edgesOf, findObject, podSpecOf, synthGraph, synthObjects } from '../../lib/testing';
import { envOf, termsOf, tolerationsOf } from '../constructs/support/compute-network-fixture';

const NO_OVN_MAINTENANCE = {
  key: 'maintenance.yaook.cloud/ovn-maintenance',
  operator: 'In',
  values: ['not-required'],
};

describe('examples/multi-cell-cloud', () => {
  // GIVEN the example cloud
  const cloud = multiCellCloud(new App());
  const nova = cloud.node.findAll().find((c): c is Nova => c instanceof Nova);
  // WHEN it is synthesised
  const objects = synthObjects(cloud);
  const graph = synthGraph(multiCellCloud(new App()));

  test('matches the snapshot (objects and graph)', () => {
    // THEN
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toMatchSnapshot('objects');
    expect(
      graph.components.map((c) => ({ name: c.name, edges: c.edges.map((e) => `${e.to}:${e.kind}`) })),
    ).toMatchSnapshot('graph');
  });

  test('has two cells, the second on its own RabbitMQ', () => {
    // THEN
    expect(nova?.cells.map((c) => c.name)).toEqual(['cell1', 'cell2']);
    expect(envOf(findObject(objects, 'Deployment', 'nova-cell2-conductor')).OS_DEFAULT__TRANSPORT_URL).toBe(
      'rabbit://nova-cell2:$(MQ_PASSWORD)@mq-cell2.openstack.svc:5672/nova-cell2',
    );
    expect(edgesOf(findObject(objects, 'Deployment', 'nova-cell2-conductor'))).toContainEqual({
      from: 'nova-cell2-conductor',
      to: 'mq-cell2',
      kind: 'ready',
    });
    expect(
      (findObject(objects, 'Deployment', 'nova-cell2-conductor').spec as { replicas: number }).replicas,
    ).toBe(3);
  });

  test('every nova-compute DaemonSet belongs to one cell and requires no OVN maintenance in every term', () => {
    // THEN
    const computes = objects.filter(
      (o) => o.kind === 'DaemonSet' && /^nova-(cell2-)?compute/.test(o.metadata.name),
    );
    // 4 classes (none, gpu, qemu, both) in each of the 2 cells
    expect(computes).toHaveLength(8);
    for (const daemonSet of computes) {
      const cell2 = daemonSet.metadata.name.startsWith('nova-cell2-');
      for (const term of termsOf(daemonSet)) {
        expect(term).toContainEqual(NO_OVN_MAINTENANCE);
        expect(term).toContainEqual(
          cell2
            ? { key: CELL_LABEL, operator: 'In', values: ['cell2'] }
            : { key: CELL_LABEL, operator: 'NotIn', values: ['cell2'] },
        );
      }
      expect(tolerationsOf(daemonSet)).toEqual([
        'compute.yaook.cloud/hypervisor:Exists:NoSchedule',
        'compute.yaook.cloud/hypervisor:Exists:NoExecute',
      ]);
      expect(
        edgesOf(daemonSet)
          .filter((e) => e.kind === 'same-node')
          .map((e) => e.to)
          .sort(),
      ).toEqual([
        'neutron-ovn-agent',
        expect.stringMatching(/^neutron-ovn-agent-[0-9a-f]{6}$/),
        'nova-libvirt',
      ]);
    }
  });

  test('the OVN agent follows the union rule, a gateway class included', () => {
    // THEN
    const agents = objects.filter(
      (o) => o.kind === 'DaemonSet' && o.metadata.name.startsWith('neutron-ovn-agent'),
    );
    expect(agents).toHaveLength(2);
    for (const agent of agents) {
      expect(termsOf(agent).map((t) => t[0].key)).toEqual([
        'network.yaook.cloud/neutron-ovn-agent',
        'compute.yaook.cloud/hypervisor',
      ]);
      expect(podSpecOf(agent).hostNetwork).toBe(true);
    }
  });

  test('the graph is acyclic and discover_hosts runs after every nova-compute', () => {
    // THEN
    expect(
      findCycle(
        graph.components.map((c) => c.name),
        graph.edges,
      ),
    ).toBeUndefined();
    const setup = graph.components.find((c) => c.name === 'nova-cell-setup');
    const computes = graph.components.filter((c) => /^nova-(cell2-)?compute/.test(c.name)).map((c) => c.name);
    expect(
      setup?.edges
        .filter((e) => e.kind === 'ready')
        .map((e) => e.to)
        .sort(),
    ).toEqual(['nova-api', ...computes].sort());
  });

  test('no Secret or config carries a literal credential', () => {
    // THEN
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    for (const config of objects.filter((o) => o.kind === 'ConfigMap')) {
      for (const text of Object.values((config.data ?? {}) as Record<string, string>)) {
        expect(text).not.toMatch(/^(password|connection|transport_url|metadata_proxy_shared_secret)\s*=/m);
      }
    }
  });
});
