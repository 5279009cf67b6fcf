import { App } from 'cdk8s';
import {
  ClusteredStatefulSetProps,
  clusteredStatefulSet,
  clusterMemberHosts,
  clusterServiceName,
  quorumReplicas,
} from '../../../constructs';
import { Cloud, Component, Service } from '../../../lib/model';
import { groupPlacement, SchedulingKey } from '../../../lib/scheduling';
import { findObject, podSpecOf, synthObjects } from '../../../lib/testing';

/** A service whose only component is one clustered StatefulSet built from `props`. */
class ClusterService extends Service {
  readonly server: Component;
  readonly hosts: string[];
  constructor(scope: Cloud, id: string, props: ClusteredStatefulSetProps) {
    super(scope, id);
    this.server = new Component(this, 'default', { placement: groupPlacement(SchedulingKey.ANY_INFRA) });
    this.hosts = clusterMemberHosts(this.server, props);
    clusteredStatefulSet(this.server, props);
  }
  protected get entryPoints(): readonly Component[] {
    return [this.server];
  }
}

const pod: ClusteredStatefulSetProps['pod'] = { containers: [{ name: 'main', image: 'example/db:1' }] };

function synthCluster(props: ClusteredStatefulSetProps) {
  const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
  const service = new ClusterService(cloud, 'store', props);
  return { service, objects: synthObjects(cloud) };
}

describe('clusteredStatefulSet with peers', () => {
  // GIVEN
  const props: ClusteredStatefulSetProps = {
    replicas: 3,
    peerPorts: [{ name: 'raft', port: 7000 }],
    clientPorts: [{ name: 'client', port: 6000 }],
    podManagementPolicy: 'Parallel',
    storage: { size: '2Gi', storageClassName: 'fast' },
    spread: 'even',
    pod,
  };

  test('members are named through the headless peers Service', () => {
    // WHEN
    const { service } = synthCluster(props);
    // THEN
    expect(clusterServiceName(service.server, props)).toBe('store-peers');
    expect(service.hosts).toEqual(['store-0.store-peers', 'store-1.store-peers', 'store-2.store-peers']);
  });

  test('the peers Service publishes members before they are ready; the client Service is a plain ClusterIP', () => {
    // WHEN
    const { objects } = synthCluster(props);
    // THEN
    const peers = findObject(objects, 'Service', 'store-peers');
    expect(peers.spec).toMatchObject({
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      ports: [{ name: 'raft', port: 7000 }],
    });
    const client = findObject(objects, 'Service', 'store');
    expect(client.spec).not.toHaveProperty('clusterIP');
    expect(client.spec).toMatchObject({ ports: [{ name: 'client', port: 6000 }] });
  });

  test('the StatefulSet is governed by the peers Service, spreads members and claims a volume each', () => {
    // WHEN
    const { service, objects } = synthCluster(props);
    // THEN
    const statefulSet = findObject(objects, 'StatefulSet', 'store');
    expect(statefulSet.spec).toMatchObject({
      serviceName: 'store-peers',
      replicas: 3,
      podManagementPolicy: 'Parallel',
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            storageClassName: 'fast',
            resources: { requests: { storage: '2Gi' } },
          },
        },
      ],
    });
    // A quorum cluster: one member per node, as long as there are enough nodes
    expect(podSpecOf(statefulSet).topologySpreadConstraints).toEqual([
      {
        maxSkew: 1,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: service.server.selectorLabels },
      },
    ]);
    expect(podSpecOf(statefulSet)).not.toHaveProperty('affinity.podAntiAffinity');
    expect(podSpecOf(statefulSet).priorityClassName).toBe('openstack-control-plane');
  });

  test('a PodDisruptionBudget lets drains take one member at a time', () => {
    // WHEN
    const { objects } = synthCluster(props);
    // THEN
    expect(findObject(objects, 'PodDisruptionBudget', 'store').spec).toMatchObject({ maxUnavailable: 1 });
  });
});

describe('clusteredStatefulSet with a single client member (Galera)', () => {
  test('the client Service selects that member by pod name; the peers Service every member', () => {
    // GIVEN
    const props: ClusteredStatefulSetProps = {
      replicas: 3,
      peerPorts: [{ name: 'raft', port: 7000 }],
      clientPorts: [{ name: 'client', port: 6000 }],
      podManagementPolicy: 'Parallel',
      clientMember: 0,
      spread: 'even',
      pod,
    };
    // WHEN
    const { service, objects } = synthCluster(props);
    // THEN
    const selectorOf = (name: string) =>
      (findObject(objects, 'Service', name).spec as { selector: unknown }).selector;
    expect(selectorOf('store')).toEqual({
      ...service.server.selectorLabels,
      'statefulset.kubernetes.io/pod-name': 'store-0',
    });
    expect(selectorOf('store-peers')).toEqual(service.server.selectorLabels);
  });
});

describe('clusteredStatefulSet without peers (Memcached)', () => {
  // GIVEN
  const props: ClusteredStatefulSetProps = {
    replicas: 2,
    clientPorts: [{ name: 'client', port: 6000 }],
    podManagementPolicy: 'Parallel',
    spread: 'preferred',
    pod,
  };

  test('the client Service is headless and governs the members', () => {
    // WHEN
    const { service, objects } = synthCluster(props);
    // THEN
    expect(service.hosts).toEqual(['store-0.store', 'store-1.store']);
    expect(objects.filter((o) => o.kind === 'Service').map((o) => o.metadata.name)).toEqual(['store']);
    const client = findObject(objects, 'Service', 'store');
    expect(client.spec).toMatchObject({ clusterIP: 'None' });
    expect(client.spec).not.toHaveProperty('publishNotReadyAddresses');
    expect(findObject(objects, 'StatefulSet', 'store').spec).toMatchObject({ serviceName: 'store' });
  });

  test('no volume claims; preferred spreading and a PodDisruptionBudget like every workload of two or more', () => {
    // WHEN
    const { objects } = synthCluster(props);
    // THEN
    const statefulSet = findObject(objects, 'StatefulSet', 'store');
    expect(statefulSet.spec).not.toHaveProperty('volumeClaimTemplates');
    expect(podSpecOf(statefulSet)).toHaveProperty('affinity.podAntiAffinity');
    expect(podSpecOf(statefulSet)).not.toHaveProperty('topologySpreadConstraints');
    expect(findObject(objects, 'PodDisruptionBudget', 'store').spec).toMatchObject({ maxUnavailable: 1 });
  });
});

describe('quorumReplicas', () => {
  test.each<[unknown, string[]]>([
    [3, []],
    [1, []],
    [undefined, []],
    [4, ['replicas must be odd so the test keeps a majority, got 4; use 5']],
    [0, ['replicas must be between 1 and 7, got 0']],
    [9, ['replicas must be between 1 and 7, got 9']],
    [Infinity, ['replicas must be a finite number between 1 and 7, got Infinity']],
    ['3', ['replicas must be a number between 1 and 7, got "3"']],
  ])('%p replicas', (replicas, expected) => {
    // WHEN
    const problems = quorumReplicas(7, 'so the test keeps a majority')(replicas, 'replicas');
    // THEN
    expect(problems).toEqual(expected);
  });
});
