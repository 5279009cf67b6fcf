import { App } from 'cdk8s';
import { OvsdbCluster } from '../../../constructs/infra';
import { Cloud } from '../../../lib/model';
import { edgesOf, findObject, podSpecOf, synthObjects } from '../../../lib/testing';
import { errorOf, expectPlacedOn } from '../support/compute-network-fixture';

function ovsdbCloud(props: ConstructorParameters<typeof OvsdbCluster>[2] = {}) {
  const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
  const ovsdb = new OvsdbCluster(cloud, 'ovsdb', props);
  return { cloud, ovsdb };
}

describe('OvsdbCluster', () => {
  // GIVEN a cloud with the default OVSDB clusters
  const { cloud, ovsdb } = ovsdbCloud();
  // WHEN it is synthesised
  const objects = synthObjects(cloud);

  test('matches the snapshot', () => {
    // THEN
    expect(
      objects.filter((o) => o.metadata.annotations?.['stackwright.io/service'] === 'ovsdb'),
    ).toMatchSnapshot();
  });

  test.each([
    ['ovsdb-nb', 6641, 6643, 'OVN_Northbound'],
    ['ovsdb-sb', 6642, 6644, 'OVN_Southbound'],
  ])(
    '%s is a 3-member raft StatefulSet with headless and client Services and a PDB',
    (name, client, raft, db) => {
      // THEN
      const sts = findObject(objects, 'StatefulSet', name);
      const spec = sts.spec as { replicas: number; serviceName: string; podManagementPolicy: string };
      expect(spec.replicas).toBe(3);
      expect(spec.serviceName).toBe(`${name}-peers`);
      expect(spec.podManagementPolicy).toBe('Parallel');
      const headless = findObject(objects, 'Service', `${name}-peers`).spec as Record<string, unknown>;
      expect(headless.clusterIP).toBe('None');
      expect(headless.publishNotReadyAddresses).toBe(true);
      expect(headless.ports).toEqual([
        { name: 'ovsdb', port: client },
        { name: 'raft', port: raft },
      ]);
      expect((findObject(objects, 'Service', name).spec as { ports: unknown }).ports).toEqual([
        { name: 'ovsdb', port: client },
      ]);
      expect(
        (findObject(objects, 'PodDisruptionBudget', name).spec as { maxUnavailable: number }).maxUnavailable,
      ).toBe(1);
      const container = (
        podSpecOf(sts).containers as { command: string[]; readinessProbe: { exec: { command: string[] } } }[]
      )[0];
      expect(container.command[2]).toContain(
        `ovsdb-tool join-cluster /var/lib/ovn/${name === 'ovsdb-nb' ? 'ovnnb_db' : 'ovnsb_db'}.db ${db}`,
      );
      expect(container.readinessProbe.exec.command[2]).toContain(`cluster/status ${db}`);
    },
  );

  test.each(['ovsdb-nb', 'ovsdb-sb'])(
    '%s runs on the OVSDB cluster key or the infra group, non-root',
    (name) => {
      // THEN
      const sts = findObject(objects, 'StatefulSet', name);
      expectPlacedOn(sts, ['infra.yaook.cloud/ovsdbcluster', 'infra.yaook.cloud/any']);
      expect((podSpecOf(sts).securityContext as { runAsNonRoot: boolean }).runAsNonRoot).toBe(true);
    },
  );

  test('clients get every member of each database', () => {
    // THEN
    expect(ovsdb.nb.connection).toBe(
      'tcp:ovsdb-nb-0.ovsdb-nb-peers.openstack.svc.cluster.local:6641,tcp:ovsdb-nb-1.ovsdb-nb-peers.openstack.svc.cluster.local:6641,tcp:ovsdb-nb-2.ovsdb-nb-peers.openstack.svc.cluster.local:6641',
    );
    expect(ovsdb.sb.connection).toBe(
      'tcp:ovsdb-sb-0.ovsdb-sb-peers.openstack.svc.cluster.local:6642,tcp:ovsdb-sb-1.ovsdb-sb-peers.openstack.svc.cluster.local:6642,tcp:ovsdb-sb-2.ovsdb-sb-peers.openstack.svc.cluster.local:6642',
    );
  });

  test("members and clients name each other fully qualified: libunbound (OVS, OVN) ignores the pod's search list", () => {
    // GIVEN a cluster whose DNS domain is not the default
    const custom = new Cloud(new App(), 'prod', { namespace: 'openstack', clusterDomain: 'k8s.example' });
    const cluster = new OvsdbCluster(custom, 'ovsdb');
    // WHEN
    const script = (
      podSpecOf(findObject(synthObjects(custom), 'StatefulSet', 'ovsdb-sb')).containers as {
        command: string[];
      }[]
    )[0].command[2];
    // THEN
    expect(cluster.sb.connection.split(',')[0]).toBe(
      'tcp:ovsdb-sb-0.ovsdb-sb-peers.openstack.svc.k8s.example:6642',
    );
    expect(script).toContain('self="tcp:${HOSTNAME}.ovsdb-sb-peers.openstack.svc.k8s.example:6644"');
    expect(script).toContain('"$self" tcp:ovsdb-sb-0.ovsdb-sb-peers.openstack.svc.k8s.example:6644');
  });

  test('a cluster domain that is not a DNS name fails with the cloud path', () => {
    // WHEN / THEN
    expect(
      errorOf(() => new Cloud(new App(), 'prod', { namespace: 'openstack', clusterDomain: 'bad domain' })),
    ).toContain('[prod] clusterDomain');
  });

  test('the databases depend on nothing, and a dependant of the construct waits for both', () => {
    // THEN
    expect(edgesOf(findObject(objects, 'StatefulSet', 'ovsdb-nb'))).toEqual([]);
    expect(ovsdb.dependencyTargets.map((c) => c.componentName)).toEqual(['ovsdb-nb', 'ovsdb-sb']);
  });

  test('an even member count fails at the construct boundary with the construct path and the fix', () => {
    // WHEN / THEN
    expect(errorOf(() => ovsdbCloud({ replicas: 4 }))).toContain(
      '[prod/ovsdb] replicas must be odd so a raft majority survives a partition, got 4; use 5',
    );
  });
});
