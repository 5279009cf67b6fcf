import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { App } from 'cdk8s';
import { Annotations, findCycle, graphFromManifests, KubeObject, objectRef } from '../../lib/graph';
import { SchedulingKey as K } from '../../lib/scheduling';
import { findObject, podSpecOf, synthGraph, synthObjects } from '../../lib/testing';
import { referenceCloud } from '../../stacks/reference-cloud';

const CONSTRUCTS = join(__dirname, '..', '..', 'constructs');
const NO_OVN_MAINTENANCE = 'maintenance.yaook.cloud/ovn-maintenance=not-required';

/**
 * Every long-running component of the reference cloud and its placement as the seed prescribes:
 * each entry is one nodeSelectorTerm (ORed); `a&b` means both expressions in one term.
 */
const EXPECTED_PLACEMENT: Record<string, string[]> = {
  db: [K.INFRA_DATABASE, K.ANY_INFRA],
  mq: [K.INFRA_MESSAGE_QUEUE, K.ANY_INFRA],
  memcached: [K.ANY_INFRA],
  'ovsdb-nb': [K.INFRA_OVSDB_CLUSTER, K.ANY_INFRA],
  'ovsdb-sb': [K.INFRA_OVSDB_CLUSTER, K.ANY_INFRA],
  'keystone-api': [K.IDENTITY_API, K.ANY_API],
  'glance-api': [K.IMAGE_API, K.ANY_API],
  'placement-api': [K.PLACEMENT_API, K.ANY_API],
  'neutron-api': [K.NETWORK_API, K.ANY_API],
  'neutron-northd': [K.NETWORK_NEUTRON_NORTHD],
  'neutron-ovn-agent': [K.NETWORK_NEUTRON_OVN_AGENT, K.COMPUTE_HYPERVISOR, K.NETWORK_NEUTRON_BGP_AGENT],
  'neutron-ovn-metadata-agent': [
    `${K.NETWORK_NEUTRON_OVN_AGENT}&${NO_OVN_MAINTENANCE}`,
    `${K.COMPUTE_HYPERVISOR}&${NO_OVN_MAINTENANCE}`,
    `${K.NETWORK_NEUTRON_BGP_AGENT}&${NO_OVN_MAINTENANCE}`,
  ],
  'neutron-l3-agent': [K.NETWORK_NEUTRON_L3_AGENT],
  'neutron-dhcp-agent': [K.NETWORK_NEUTRON_DHCP_AGENT],
  'neutron-bgp-agent': [`${K.NETWORK_NEUTRON_BGP_AGENT}&${NO_OVN_MAINTENANCE}`],
  'nova-api': [K.COMPUTE_API, K.ANY_API],
  'nova-metadata': [K.COMPUTE_METADATA_API, K.ANY_API],
  'nova-conductor': [K.COMPUTE_NOVA_CONDUCTOR, K.COMPUTE_NOVA_ANY_SERVICE],
  'nova-scheduler': [K.COMPUTE_NOVA_SCHEDULER, K.COMPUTE_NOVA_ANY_SERVICE],
  'nova-vnc': [K.COMPUTE_VNC, K.COMPUTE_NOVA_ANY_SERVICE],
  'nova-compute': [`${K.COMPUTE_HYPERVISOR}&${NO_OVN_MAINTENANCE}`],
  'nova-libvirt': [`${K.COMPUTE_HYPERVISOR}&${NO_OVN_MAINTENANCE}`],
  'cinder-api': [K.BLOCK_STORAGE_API, K.ANY_API],
  'cinder-scheduler': [K.BLOCK_STORAGE_CINDER_SCHEDULER, K.BLOCK_STORAGE_CINDER_ANY_SERVICE],
  'cinder-volume-ceph': [K.BLOCK_STORAGE_CINDER_VOLUME, K.BLOCK_STORAGE_CINDER_ANY_SERVICE],
  'cinder-backup': [K.BLOCK_STORAGE_CINDER_BACKUP, K.BLOCK_STORAGE_CINDER_ANY_SERVICE],
  'barbican-api': [K.KEY_MANAGER_API, K.ANY_API],
  'barbican-keystone-listener': [
    K.KEY_MANAGER_BARBICAN_KEYSTONE_LISTENER,
    K.KEY_MANAGER_BARBICAN_ANY_SERVICE,
  ],
  // The seed has no Heat keys: both components schedule by the API group key alone.
  'heat-api': [K.ANY_API],
  'heat-engine': [K.ANY_API],
  'gnocchi-api': [K.GNOCCHI_API, K.ANY_API],
  'gnocchi-metricd': [K.GNOCCHI_METRICD],
  'ceilometer-central': [K.CEILOMETER_CENTRAL, K.CEILOMETER_ANY_SERVICE],
  'ceilometer-notification': [K.CEILOMETER_NOTIFICATION, K.CEILOMETER_ANY_SERVICE],
  'ceilometer-compute': [`${K.COMPUTE_HYPERVISOR}&${NO_OVN_MAINTENANCE}`],
  'ironic-api': [K.INFRA_BARE_METAL_API, K.ANY_API],
  'ironic-conductor': [K.INFRA_BARE_METAL_IRONIC_CONDUCTOR, K.INFRA_BARE_METAL_IRONIC_ANY_SERVICE],
};

/**
 * The seed's keys no Stackwright component is placed by, and why. Every other key must be used by
 * the reference cloud, so it shows each component a user can place.
 */
const KEYS_WITHOUT_COMPONENT: Record<string, string> = {
  [K.NETWORK_NEUTRON_L2_AGENT]: 'the Open vSwitch agent; OVN replaces it',
  [K.NETWORK_NEUTRON_BGP_DRAGENT]: 'neutron-dynamic-routing, not modelled (the OVN BGP agent is)',
  [K.COMPUTE_NOVA_CONSOLEAUTH]: 'nova-consoleauth, removed from Nova in Train',
};

/** The operator key of each service's Jobs (infra services run theirs on OPERATOR_ANY alone). */
const JOB_OPERATOR_KEY: Record<string, string> = {
  keystone: K.OPERATOR_KEYSTONE,
  glance: K.OPERATOR_GLANCE,
  placement: K.OPERATOR_NOVA, // Yaook deploys Placement with Nova
  nova: K.OPERATOR_NOVA,
  neutron: K.OPERATOR_NEUTRON,
  'agent-secrets': K.OPERATOR_CONFIGURED_DAEMON_SET, // Yaook's node-agent operator
  cinder: K.OPERATOR_CINDER,
  barbican: K.OPERATOR_BARBICAN,
  heat: K.OPERATOR_HEAT,
  gnocchi: K.OPERATOR_GNOCCHI,
  ceilometer: K.OPERATOR_CEILOMETER,
  ironic: K.OPERATOR_INFRA_IRONIC,
};

/** Canonical edges (reference §5) as they appear in the synthesised graph. */
const CANONICAL_EDGES: [string, string, string][] = [
  ['keystone-db-sync', 'keystone-db-init', 'completed'],
  ['keystone-db-sync', 'keystone-fernet-setup', 'completed'],
  ['keystone-db-sync', 'keystone-credential-setup', 'completed'],
  ['keystone-api', 'keystone-db-sync', 'completed'],
  ['keystone-api', 'db', 'ready'],
  ['keystone-api', 'memcached', 'ready'],
  ['keystone-api', 'mq', 'runtime'],
  ['keystone-bootstrap', 'keystone-api', 'ready'],
  ['glance-api', 'keystone-api', 'ready'],
  ['glance-api', 'db', 'ready'],
  ['glance-api', 'memcached', 'ready'],
  ['glance-api', 'glance-storage-init', 'completed'],
  ['placement-api', 'keystone-api', 'ready'],
  ['placement-api', 'db', 'ready'],
  ['placement-api', 'memcached', 'ready'],
  ['neutron-northd', 'ovsdb-nb', 'ready'],
  ['neutron-northd', 'ovsdb-sb', 'ready'],
  ['neutron-ovn-agent', 'ovsdb-sb', 'ready'],
  ['neutron-ovn-metadata-agent', 'neutron-ovn-agent', 'same-node'],
  ['neutron-ovn-metadata-agent', 'ovsdb-sb', 'ready'],
  ['neutron-ovn-metadata-agent', 'nova-metadata', 'runtime'],
  ['neutron-api', 'keystone-api', 'ready'],
  ['neutron-api', 'ovsdb-nb', 'ready'],
  ['neutron-api', 'ovsdb-sb', 'ready'],
  ['neutron-api', 'mq', 'ready'],
  ['neutron-api', 'nova-api', 'runtime'],
  ['nova-api', 'nova-api-db-sync', 'completed'],
  ['nova-api', 'keystone-api', 'ready'],
  ['nova-api', 'glance-api', 'runtime'],
  ['nova-api', 'neutron-api', 'runtime'],
  ['nova-scheduler', 'placement-api', 'ready'],
  ['nova-compute', 'nova-libvirt', 'same-node'],
  ['nova-compute', 'neutron-ovn-agent', 'same-node'],
  ['nova-compute', 'mq', 'ready'],
  ['nova-compute', 'nova-conductor', 'ready'],
  ['nova-compute', 'placement-api', 'ready'],
  ['nova-cell-setup', 'nova-api', 'ready'],
  ['nova-cell-setup', 'nova-compute', 'ready'],
  ['cinder-api', 'keystone-api', 'ready'],
  ['cinder-api', 'mq', 'ready'],
  ['cinder-volume-ceph', 'cinder-api', 'ready'],
  ['cinder-backup', 'cinder-api', 'ready'],
  ['barbican-api', 'keystone-api', 'ready'],
  ['barbican-api', 'mq', 'runtime'],
  ['barbican-keystone-listener', 'mq', 'ready'],
  ['barbican-keystone-listener', 'keystone-api', 'runtime'],
  ['heat-api', 'keystone-api', 'ready'],
  ['heat-engine', 'heat-domain-setup', 'completed'],
  ['gnocchi-api', 'gnocchi-storage-init', 'completed'],
  ['gnocchi-metricd', 'gnocchi-storage-init', 'completed'],
  ['ceilometer-central', 'gnocchi-api', 'ready'],
  ['ceilometer-notification', 'mq', 'ready'],
  ['ceilometer-compute', 'nova-compute', 'same-node'],
  ['ironic-api', 'glance-api', 'ready'],
  ['ironic-conductor', 'mq', 'ready'],
  ['ironic-network-setup', 'neutron-api', 'ready'],
];

function terms(object: KubeObject): string[] {
  const spec = podSpecOf(object) as {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: { matchExpressions: { key: string; values?: string[] }[] }[];
        };
      };
    };
  };
  return spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.map(
    (t) =>
      t.matchExpressions
        .filter((e) => !e.key.startsWith('nova.stackwright.io/'))
        .map((e) => (e.values ? `${e.key}=${e.values.join(',')}` : e.key))
        .join('&'),
  );
}

function tolerationKeys(object: KubeObject): string[] {
  const spec = podSpecOf(object) as { tolerations: { key: string; effect: string }[] };
  return spec.tolerations.map((t) => `${t.key}:${t.effect}`);
}

describe('reference cloud', () => {
  const objects = synthObjects(referenceCloud(new App()));
  const workloads = objects.filter((o) => ['Deployment', 'StatefulSet', 'DaemonSet'].includes(o.kind));
  const componentOf = (o: KubeObject) => o.metadata.annotations?.[Annotations.COMPONENT] ?? '';

  test('matches the snapshot', () => {
    expect(objects).toMatchSnapshot();
  });

  test('every long-running component is placed by its seed key and group key', () => {
    // THEN every workload is in the table (a new component must be added to it deliberately) …
    expect(workloads.map(componentOf).sort()).toEqual(Object.keys(EXPECTED_PLACEMENT).sort());
    for (const workload of workloads) {
      const expected = EXPECTED_PLACEMENT[componentOf(workload)];
      // … its affinity has exactly one term per key …
      expect({ component: componentOf(workload), terms: terms(workload) }).toEqual({
        component: componentOf(workload),
        terms: expected,
      });
      // … and it tolerates NoSchedule and NoExecute for every key.
      const keys = expected.map((term) => term.split('&')[0]);
      expect(tolerationKeys(workload).sort()).toEqual(
        keys.flatMap((k) => [`${k}:NoExecute`, `${k}:NoSchedule`]).sort(),
      );
    }
  });

  test('every scheduling key that has an OpenStack component places a component of the reference cloud', () => {
    // GIVEN the keys in the affinity terms of every pod of the cloud
    const used = new Set(
      objects
        .filter((o) => ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(o.kind))
        .flatMap((o) => terms(o).flatMap((term) => term.split('&').map((e) => e.split('=')[0]))),
    );

    // THEN every key of the seed is used, but for those without a component
    const unused = Object.values(K).filter((key) => !used.has(key));
    expect(unused.sort()).toEqual(Object.keys(KEYS_WITHOUT_COMPONENT).sort());
    // AND no construct places anything by those
    const sources = readdirSync(CONSTRUCTS, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(join(CONSTRUCTS, f), 'utf8'))
      .join('\n');
    const names = Object.entries(K)
      .filter(([, key]) => key in KEYS_WITHOUT_COMPONENT)
      .map(([name]) => name);
    expect(names.filter((name) => sources.includes(`SchedulingKey.${name}`))).toEqual([]);
  });

  test("every Job (and CronJob) runs on its service's operator key or the OPERATOR_ANY group", () => {
    const jobs = objects.filter((o) => o.kind === 'Job' || o.kind === 'CronJob');
    expect(jobs.length).toBeGreaterThan(50);
    for (const job of jobs) {
      const service = job.metadata.annotations?.[Annotations.SERVICE] ?? '';
      const operatorKey = JOB_OPERATOR_KEY[service];
      expect({ job: job.metadata.name, terms: terms(job) }).toEqual({
        job: job.metadata.name,
        terms: operatorKey ? [operatorKey, K.OPERATOR_ANY] : [K.OPERATOR_ANY],
      });
    }
  });

  test('the OVN agent follows the union rule and does not itself wait for the maintenance label', () => {
    const agent = workloads.find((o) => componentOf(o) === 'neutron-ovn-agent') as KubeObject;
    expect(terms(agent)).toEqual([
      K.NETWORK_NEUTRON_OVN_AGENT,
      K.COMPUTE_HYPERVISOR,
      K.NETWORK_NEUTRON_BGP_AGENT,
    ]);
  });

  test('hypervisor workloads require the no-OVN-maintenance label in every term', () => {
    // (the OVN agent is the one they depend on: it runs on hypervisors by the union rule, without the label)
    const hypervisor = workloads.filter(
      (o) =>
        componentOf(o) !== 'neutron-ovn-agent' && terms(o).some((t) => t.startsWith(K.COMPUTE_HYPERVISOR)),
    );
    expect(hypervisor.map(componentOf).sort()).toEqual([
      'ceilometer-compute',
      'neutron-ovn-metadata-agent',
      'nova-compute',
      'nova-libvirt',
    ]);
    for (const workload of hypervisor) {
      for (const term of terms(workload)) expect(term).toContain(NO_OVN_MAINTENANCE);
    }
  });

  test('the graph has no cycle and contains the canonical edges', () => {
    const graph = graphFromManifests(objects);
    expect(
      findCycle(
        graph.components.map((c) => c.name),
        graph.edges,
      ),
    ).toBeUndefined();
    const edges = new Set(graph.edges.map((e) => `${e.from} -> ${e.to} (${e.kind})`));
    const missing = CANONICAL_EDGES.map(([from, to, kind]) => `${from} -> ${to} (${kind})`).filter(
      (e) => !edges.has(e),
    );
    expect(missing).toEqual([]);
  });

  test('no Secret in the output carries literal data', () => {
    for (const secret of objects.filter((o) => o.kind === 'Secret')) {
      expect(secret.data).toBeUndefined();
      expect(secret.stringData).toBeUndefined();
    }
    expect(JSON.stringify(objects)).not.toMatch(/password\s*[=:]\s*[A-Za-z0-9]{8,}/i);
  });

  test('no container command holds `$$`: Kubernetes would run it as `$`', () => {
    // GIVEN every container of every pod template (a shell's `$$` must be written another way)
    const withPods = objects.filter((o) =>
      ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'].includes(o.kind),
    );
    expect(withPods.length).toBeGreaterThan(100);
    const containers = withPods.flatMap((o) => {
      const spec = podSpecOf(o) as { containers: object[]; initContainers?: object[] };
      return [...spec.containers, ...(spec.initContainers ?? [])].map((c) => ({ object: objectRef(o), c }));
    });
    // THEN
    const escaped = containers.filter(({ c }) => JSON.stringify(c).includes('$$'));
    expect(escaped.map(({ object }) => object)).toEqual([]);
  });

  test('every object is labelled and annotated with the graph', () => {
    // Bootstrap objects belong to no component: the two Namespaces, the two PriorityClasses, the
    // default deny of each namespace
    const bootstrap = objects.filter((x) => x.metadata.annotations?.[Annotations.COMPONENT] === undefined);
    expect(bootstrap.map((o) => objectRef(o))).toEqual([
      'Namespace/openstack',
      'Namespace/openstack-agents',
      'PriorityClass/openstack-control-plane',
      'PriorityClass/openstack-node-agent',
      'NetworkPolicy/openstack/default-deny-ingress',
      'NetworkPolicy/openstack-agents/default-deny-ingress',
    ]);
    for (const o of objects.filter((x) => !bootstrap.includes(x))) {
      expect(o.metadata.labels?.['app.kubernetes.io/managed-by']).toBe('stackwright');
      expect(o.metadata.labels?.['app.kubernetes.io/part-of']).toBe('openstack');
      expect(o.metadata.annotations?.[Annotations.COMPONENT]).toBeTruthy();
    }
  });
});

describe('reference cloud per-service options', () => {
  /** Replicas and the first container's image of a workload. */
  function workload(objects: readonly KubeObject[], kind: string, name: string) {
    const object = findObject(objects, kind, name);
    const containers = podSpecOf(object).containers as { image: string }[];
    return { replicas: (object.spec as { replicas?: number }).replicas, image: containers[0].image };
  }

  test('replicas and images reach the main component of each kind of service', () => {
    // GIVEN
    const cloud = referenceCloud(new App(), 'e2e', {
      services: {
        db: { replicas: 5, image: 'registry.example.org/mariadb:11.8' },
        memcached: { replicas: 3 },
        keystone: { replicas: 4, image: 'registry.example.org/keystone:patched' },
        nova: { replicas: 3 },
        heat: { replicas: 1, image: 'registry.example.org/heat:patched' },
      },
    });

    // WHEN
    const objects = synthObjects(cloud);

    // THEN
    expect([
      workload(objects, 'StatefulSet', 'db'),
      workload(objects, 'StatefulSet', 'memcached'),
      workload(objects, 'Deployment', 'keystone-api'),
      workload(objects, 'Deployment', 'nova-api'),
      workload(objects, 'Deployment', 'heat-api'),
    ]).toEqual([
      { replicas: 5, image: 'registry.example.org/mariadb:11.8' },
      { replicas: 3, image: 'docker.io/library/memcached:1.6' },
      { replicas: 4, image: 'registry.example.org/keystone:patched' },
      { replicas: 3, image: 'registry.yaook.cloud/yaook/nova:2025.1' },
      { replicas: 1, image: 'registry.example.org/heat:patched' },
    ]);
    // AND the service's other components use the same image (they run the same code)
    expect(workload(objects, 'Job', 'keystone-db-sync').image).toBe('registry.example.org/keystone:patched');
  });

  test('empty options synthesise exactly the default cloud', () => {
    // WHEN
    const withEmpty = synthObjects(
      referenceCloud(new App(), 'e2e', { services: { keystone: {}, heat: {} } }),
    );

    // THEN
    expect(withEmpty).toEqual(synthObjects(referenceCloud(new App(), 'e2e')));
  });

  test('a disabled optional service leaves no object and no edge behind', () => {
    // WHEN
    const graph = synthGraph(
      referenceCloud(new App(), 'e2e', {
        services: { heat: { enabled: false }, ceilometer: { enabled: false } },
      }),
    );

    // THEN
    const services = new Set(graph.components.map((c) => c.service));
    expect([services.has('heat'), services.has('ceilometer'), services.has('gnocchi')]).toEqual([
      false,
      false,
      true,
    ]);
    expect(graph.edges.filter((e) => /^(heat|ceilometer)/.test(e.to))).toEqual([]);
  });

  test('Ceilometer without Gnocchi fails naming both options and the fix', () => {
    // THEN
    expect(() => referenceCloud(new App(), 'e2e', { services: { gnocchi: { enabled: false } } })).toThrow(
      '[e2e] services.ceilometer publishes its metrics to Gnocchi, but services.gnocchi.enabled is false; enable gnocchi or set services.ceilometer.enabled to false',
    );
  });
});
