import { OvsdbCluster } from '../../../constructs/infra';
import { Neutron, NeutronProps } from '../../../constructs/openstack/neutron';
import { edgesOf, findObject, podSpecOf, synthObjects } from '../../../lib/testing';
import { KubeObject } from '../../../lib/graph';
import {
  baseCloud,
  edgesFrom,
  envOf,
  errorOf,
  expectPlacedOn,
  fileOf,
  keyTerms,
  objectsOfService,
  termsOf,
} from '../support/compute-network-fixture';

const OVN_AGENT = 'network.yaook.cloud/neutron-ovn-agent';
const HYPERVISOR = 'compute.yaook.cloud/hypervisor';
const BGP = 'network.yaook.cloud/neutron-bgp-agent';
const NO_OVN_MAINTENANCE = {
  key: 'maintenance.yaook.cloud/ovn-maintenance',
  operator: 'In',
  values: ['not-required'],
};

/** The containers of a host agent's pod, after checking it is one: host network and PID, every container privileged. */
function hostAgentContainers(daemonSet: KubeObject): { name: string; image: string }[] {
  const spec = podSpecOf(daemonSet);
  expect(spec.hostNetwork).toBe(true);
  expect(spec.hostPID).toBe(true);
  const containers = spec.containers as {
    name: string;
    image: string;
    securityContext: { privileged: boolean };
  }[];
  expect(containers.every((c) => c.securityContext.privileged)).toBe(true);
  return containers;
}

function neutronCloud(props: Partial<NeutronProps> = {}) {
  const base = baseCloud();
  const ovsdb = new OvsdbCluster(base.cloud, 'ovsdb');
  const neutron = new Neutron(base.cloud, 'neutron', {
    keystone: base.keystone,
    database: base.database,
    messaging: base.messaging,
    cache: base.cache,
    ovsdb,
    ...props,
  });
  return { ...base, ovsdb, neutron };
}

describe('Neutron', () => {
  // GIVEN a cloud with Neutron and no optional agent
  const { cloud } = neutronCloud();
  // WHEN
  const objects = synthObjects(cloud);

  test('matches the snapshot', () => {
    // THEN
    expect(objectsOfService(objects, 'neutron')).toMatchSnapshot();
  });

  test('neutron-api runs on the network API key or the any-API group', () => {
    // THEN
    const api = findObject(objects, 'Deployment', 'neutron-api');
    expectPlacedOn(api, ['network.yaook.cloud/api', 'any.yaook.cloud/api']);
  });

  test('neutron-api carries the canonical edges: keystone, mariadb, memcached, rabbitmq, ovsdb nb and sb ready', () => {
    // THEN
    expect(edgesOf(findObject(objects, 'Deployment', 'neutron-api'))).toEqual(
      edgesFrom('neutron-api', {
        ready: ['cache', 'db', 'keystone-api', 'mq', 'ovsdb-nb', 'ovsdb-sb'],
        completed: ['neutron-db-sync', 'neutron-ks-register', 'neutron-mq-init'],
      }),
    );
  });

  test('ovn-northd runs on its own key alone and waits for both databases', () => {
    // THEN
    const northd = findObject(objects, 'Deployment', 'neutron-northd');
    expectPlacedOn(northd, ['network.yaook.cloud/neutron-northd']);
    expect(edgesOf(northd)).toEqual(edgesFrom('neutron-northd', { ready: ['ovsdb-nb', 'ovsdb-sb'] }));
    expect((northd.spec as { replicas: number }).replicas).toBe(2);
  });

  test('the OVN agent tolerates and schedules on exactly its key and the hypervisor key (the union rule), without the maintenance label', () => {
    // THEN
    const agent = findObject(objects, 'DaemonSet', 'neutron-ovn-agent');
    expectPlacedOn(agent, [OVN_AGENT, HYPERVISOR]);
  });

  test('the OVN agent is a privileged host agent with Open vSwitch and ovn-controller, all of the OVN image', () => {
    // THEN
    const containers = hostAgentContainers(findObject(objects, 'DaemonSet', 'neutron-ovn-agent'));
    expect(containers.map((c) => c.name)).toEqual(['ovsdb-server', 'ovs-vswitchd', 'ovn-controller']);
    // Nothing of Neutron's release in the datapath's pod: a Neutron upgrade does not restart it.
    expect(new Set(containers.map((c) => c.image.split(':')[0].split('/').pop()))).toEqual(new Set(['ovn']));
    expect(envOf(findObject(objects, 'DaemonSet', 'neutron-ovn-agent'), 'ovn-controller').OVN_SB).toBe(
      'tcp:ovsdb-sb-0.ovsdb-sb-peers.openstack.svc.cluster.local:6642,tcp:ovsdb-sb-1.ovsdb-sb-peers.openstack.svc.cluster.local:6642,tcp:ovsdb-sb-2.ovsdb-sb-peers.openstack.svc.cluster.local:6642',
    );
  });

  test("the metadata agent is a privileged host agent of Neutron's image on the OVN agent's nodes free of OVN maintenance", () => {
    // THEN
    const daemonSet = findObject(objects, 'DaemonSet', 'neutron-ovn-metadata-agent');
    expect(hostAgentContainers(daemonSet).map((c) => [c.name, c.image.split('/').pop()])).toEqual([
      ['metadata-agent', 'neutron:2025.1'],
    ]);
    expectPlacedOn(daemonSet, [OVN_AGENT, HYPERVISOR], [NO_OVN_MAINTENANCE]);
    expect(envOf(daemonSet, 'metadata-agent').OS_DEFAULT__METADATA_PROXY_SHARED_SECRET).toEqual({
      secretKeyRef: { name: 'neutron-metadata-secret', key: 'secret' },
    });
  });

  test("the metadata agent is ready once it serves its haproxies' socket, which its configuration names", () => {
    // THEN
    const containers = podSpecOf(findObject(objects, 'DaemonSet', 'neutron-ovn-metadata-agent'))
      .containers as {
      name: string;
      readinessProbe: { exec: { command: string[] } };
    }[];
    const agent = containers.find((c) => c.name === 'metadata-agent');
    expect(agent?.readinessProbe.exec.command).toEqual([
      '/bin/sh',
      '-c',
      'test -S /var/lib/neutron/metadata_proxy',
    ]);
    const conf = fileOf(objects, 'neutron-ovn-metadata-agent-config', 'metadata-agent.conf');
    expect(conf).toContain('metadata_proxy_socket = /var/lib/neutron/metadata_proxy\n');
    expect(conf).toContain('nova_metadata_host = nova-metadata.openstack.svc\n');
    expect(() => fileOf(objects, 'neutron-ovn-agent-config', 'metadata-agent.conf')).toThrow(/no file/);
  });

  test('ovn-controller waits for the southbound database and for northd, which fills it', () => {
    // THEN
    expect(edgesOf(findObject(objects, 'DaemonSet', 'neutron-ovn-agent'))).toEqual(
      edgesFrom('neutron-ovn-agent', { ready: ['neutron-northd', 'ovsdb-sb'] }),
    );
  });

  test("the metadata agent needs the OVN agent on its node, the southbound database and the proxy's secret", () => {
    // THEN
    expect(edgesOf(findObject(objects, 'DaemonSet', 'neutron-ovn-metadata-agent'))).toEqual(
      edgesFrom('neutron-ovn-metadata-agent', {
        // the copy of the proxy's secret in the agents' namespace, which waits for the original
        completed: ['agent-secrets-neutron-metadata-secret', 'neutron-metadata-secret'],
        ready: ['neutron-northd', 'ovsdb-sb'],
        'same-node': ['neutron-ovn-agent'],
      }),
    );
  });

  test('without the metadata agent there is no metadata DaemonSet and neutron-server does not expect one', () => {
    // GIVEN
    const { cloud: without } = neutronCloud({ ovnAgent: { metadataAgent: false } });
    // WHEN
    const rendered = synthObjects(without);
    // THEN
    expect(rendered.filter((o) => o.kind === 'DaemonSet').map((o) => o.metadata.name)).toEqual([
      'neutron-ovn-agent',
    ]);
    expect(fileOf(rendered, 'neutron-api-config', 'neutron.conf')).toContain('ovn_metadata_enabled = false');
  });

  test('renders neutron.conf with ML2/OVN and both OVSDB connections, credentials from Secrets', () => {
    // THEN
    const conf = fileOf(objects, 'neutron-api-config', 'neutron.conf');
    expect(conf).toContain('mechanism_drivers = ovn');
    expect(conf).toContain(
      'ovn_nb_connection = tcp:ovsdb-nb-0.ovsdb-nb-peers.openstack.svc.cluster.local:6641,',
    );
    expect(conf).toContain(
      'ovn_sb_connection = tcp:ovsdb-sb-0.ovsdb-sb-peers.openstack.svc.cluster.local:6642,',
    );
    expect(conf).toContain(
      '[nova]\nauth_type = password\nauth_url = http://keystone-api.openstack.svc:5000/v3',
    );
    expect(conf).not.toMatch(/^(password|connection|transport_url)\s*=/m);
    const env = envOf(findObject(objects, 'Deployment', 'neutron-api'));
    expect(env.OS_NOVA__PASSWORD).toEqual({
      secretKeyRef: { name: 'neutron-keystone-user', key: 'password' },
    });
    expect(env.OS_DEFAULT__TRANSPORT_URL).toBe(
      'rabbit://neutron:$(MQ_PASSWORD)@mq.openstack.svc:5672/neutron',
    );
  });

  test('no optional agent without its options', () => {
    // THEN
    expect(objects.filter((o) => o.kind === 'DaemonSet').map((o) => o.metadata.name)).toEqual([
      'neutron-ovn-agent',
      'neutron-ovn-metadata-agent',
    ]);
  });
});

describe('Neutron with the BGP, L3 and DHCP agents', () => {
  // GIVEN
  const { cloud } = neutronCloud({
    bgpAgent: { config: { DEFAULT: { bgp_AS: '64999' } } },
    l3Agent: {},
    dhcpAgent: {},
  });
  // WHEN
  const objects = synthObjects(cloud);

  test('the OVN agent follows the union of the hypervisor and BGP keys', () => {
    // THEN
    const agent = findObject(objects, 'DaemonSet', 'neutron-ovn-agent');
    expectPlacedOn(agent, [OVN_AGENT, HYPERVISOR, BGP]);
  });

  test('the BGP agent needs OVN: no-maintenance label in every term and a same-node edge to the OVN agent', () => {
    // THEN
    const bgp = findObject(objects, 'DaemonSet', 'neutron-bgp-agent');
    expectPlacedOn(bgp, [BGP], [NO_OVN_MAINTENANCE]);
    expect(edgesOf(bgp)).toEqual(
      edgesFrom('neutron-bgp-agent', { 'same-node': ['neutron-ovn-agent'], ready: ['ovsdb-sb'] }),
    );
    expect(fileOf(objects, 'neutron-bgp-agent-config', 'bgp-agent.conf')).toContain('bgp_AS = 64999');
  });

  test.each([
    ['neutron-l3-agent', 'network.yaook.cloud/neutron-l3-agent', 'l3_agent.conf'],
    ['neutron-dhcp-agent', 'network.yaook.cloud/neutron-dhcp-agent', 'dhcp_agent.conf'],
  ])('%s runs on its key, talks RPC and waits for the API', (name, key, file) => {
    // THEN
    const agent = findObject(objects, 'DaemonSet', name);
    expect(termsOf(agent)).toEqual(keyTerms([key]));
    expect(edgesOf(agent)).toEqual([
      // a host agent: its message bus credentials are copied into the agents' namespace
      { from: name, to: 'agent-secrets-neutron-mq', kind: 'completed' },
      { from: name, to: 'mq', kind: 'ready' },
      { from: name, to: 'neutron-api', kind: 'ready' },
      { from: name, to: 'neutron-mq-init', kind: 'completed' },
    ]);
    expect(fileOf(objects, `${name}-config`, file)).toContain('interface_driver = openvswitch');
  });
});

describe('Neutron OVN agent per-node configuration', () => {
  test('gateway nodes get their own DaemonSet with bridge mappings; the others are kept off them', () => {
    // GIVEN
    const { cloud, neutron } = neutronCloud({
      ovnAgent: {
        configTemplates: [
          {
            nodeSelector: { 'example.com/gateway': 'true' },
            config: {
              ovn: {
                bridges: ['br-ex:eth1'],
                bridge_mappings: ['physnet1:br-ex'],
                cms_options: ['enable-chassis-as-gw'],
              },
            },
          },
        ],
      },
    });
    // WHEN
    const objects = synthObjects(cloud);
    // THEN
    const [plain, gateway] = neutron.ovnAgent.components.map((c) => c.componentName);
    expect(plain).toBe('neutron-ovn-agent');
    expect(gateway).toMatch(/^neutron-ovn-agent-[0-9a-f]{6}$/);
    expect(fileOf(objects, `${gateway}-config`, 'external_ids')).toBe(
      'ovn-bridge-datapath-type=system\novn-bridge-mappings=physnet1:br-ex\novn-cms-options=enable-chassis-as-gw\n' +
        'ovn-encap-type=geneve\n',
    );
    expect(fileOf(objects, `${gateway}-config`, 'bridges')).toBe('br-ex:eth1\n');
    expect(fileOf(objects, `${plain}-config`, 'external_ids')).toBe(
      'ovn-bridge-datapath-type=system\novn-encap-type=geneve\n',
    );
    const notGateway = { key: 'example.com/gateway', operator: 'NotIn', values: ['true'] };
    expect(termsOf(findObject(objects, 'DaemonSet', plain))).toEqual(
      keyTerms([OVN_AGENT, HYPERVISOR], [notGateway]),
    );
    expect(termsOf(findObject(objects, 'DaemonSet', gateway))).toEqual(
      keyTerms([OVN_AGENT, HYPERVISOR], [{ key: 'example.com/gateway', operator: 'In', values: ['true'] }]),
    );
  });
});

describe('Neutron validation', () => {
  test('an unknown agent option fails with the path', () => {
    // GIVEN
    const { cloud } = neutronCloud({ l3Agent: { config: { DEFAULT: { agent_mod: 'dvr' } } } });
    // WHEN / THEN
    expect(errorOf(() => synthObjects(cloud))).toContain(
      '[prod/neutron] l3Agent l3_agent.ini: unknown option "agent_mod" in [DEFAULT]',
    );
  });

  test('a Neutron without the OVSDB clusters fails for JavaScript users with the path and the fix', () => {
    // GIVEN
    const base = baseCloud();
    const props = {
      keystone: base.keystone,
      database: base.database,
      messaging: base.messaging,
      cache: base.cache,
    };
    // WHEN / THEN
    expect(errorOf(() => new Neutron(base.cloud, 'neutron', props as unknown as NeutronProps))).toContain(
      '[prod/neutron] missing required input "ovsdb": pass the OVN databases (new OvsdbCluster(cloud, \'ovsdb\'))',
    );
  });
});

describe('Neutron OVN agent datapath', () => {
  type Container = { name: string; command: string[]; volumeMounts: { name: string; mountPath: string }[] };
  const agentOf = (props: Partial<NeutronProps>) => {
    const { cloud } = neutronCloud(props);
    const objects = synthObjects(cloud);
    const spec = podSpecOf(findObject(objects, 'DaemonSet', 'neutron-ovn-agent'));
    const containers = spec.containers as Container[];
    const container = (name: string) => containers.find((c) => c.name === name) as Container;
    return {
      externalIds: fileOf(objects, 'neutron-ovn-agent-config', 'external_ids'),
      vswitchd: container('ovs-vswitchd'),
      controller: container('ovn-controller'),
      volumes: spec.volumes as { name: string; hostPath?: { path: string; type: string } }[],
    };
  };

  test('by default the kernel datapath is named for br-int and the provider bridges, TSO reset, no TAP device', () => {
    // WHEN
    const agent = agentOf({});
    // THEN
    expect(agent.externalIds).toBe('ovn-bridge-datapath-type=system\novn-encap-type=geneve\n');
    expect(agent.controller.command[2]).toContain(
      'ovs-vsctl --may-exist add-br "$bridge" -- set bridge "$bridge" datapath_type=system;',
    );
    expect(agent.vswitchd.command[2].split('\n')).toEqual([
      'until [ -S /run/openvswitch/db.sock ]; do sleep 1; done',
      'ovs-vsctl --no-wait set open . other_config:userspace-tso-enable=false',
      'exec ovs-vswitchd unix:/run/openvswitch/db.sock --pidfile=/run/openvswitch/ovs-vswitchd.pid --mlockall -vconsole:info -vfile:off',
    ]);
    expect(agent.volumes.map((v) => v.name)).not.toContain('dev-net-tun');
  });

  test('netdev with TSO: br-int and provider bridges in userspace, TSO on before ovs-vswitchd starts, /dev/net/tun required', () => {
    // WHEN
    const agent = agentOf({ ovnAgent: { datapathType: 'netdev', userspaceTso: true } });
    // THEN
    expect(agent.externalIds).toBe('ovn-bridge-datapath-type=netdev\novn-encap-type=geneve\n');
    expect(agent.controller.command[2]).toContain('-- set bridge "$bridge" datapath_type=netdev;');
    const script = agent.vswitchd.command[2].split('\n');
    expect(script[1]).toBe('ovs-vsctl --no-wait set open . other_config:userspace-tso-enable=true');
    expect(script[2]).toMatch(/^exec ovs-vswitchd /);
    expect(agent.volumes).toContainEqual({
      name: 'dev-net-tun',
      hostPath: { path: '/dev/net/tun', type: 'CharDevice' },
    });
    expect(agent.vswitchd.volumeMounts).toContainEqual({ name: 'dev-net-tun', mountPath: '/dev/net/tun' });
  });

  test.each([
    [{ userspaceTso: true }, '"system"'],
    [{ userspaceTso: true, datapathType: 'system' as const }, '"system"'],
  ])('userspace TSO without the userspace datapath (%j) fails naming the fix', (ovnAgent, named) => {
    // GIVEN
    const { cloud } = neutronCloud({ ovnAgent });
    // WHEN / THEN
    expect(errorOf(() => synthObjects(cloud))).toContain(
      `[prod/neutron] ovnAgent.userspaceTso applies to the userspace datapath only, but ovnAgent.datapathType is ${named}; ` +
        "set ovnAgent.datapathType: 'netdev' or drop userspaceTso",
    );
  });

  test('an unknown datapath type fails at construction with the path', () => {
    // GIVEN
    const base = baseCloud();
    const ovsdb = new OvsdbCluster(base.cloud, 'ovsdb');
    const props = { ...base, ovsdb, ovnAgent: { datapathType: 'dpdk' } };
    // WHEN / THEN
    expect(errorOf(() => new Neutron(base.cloud, 'neutron', props as unknown as NeutronProps))).toContain(
      'ovnAgent.datapathType must be one of "system", "netdev", got "dpdk"',
    );
  });
});
