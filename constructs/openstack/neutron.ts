import { Construct } from 'constructs';
import { COMMON_INPUT_RULES, commonInputHints, serviceRule } from '../openstack-kit/input-rules';
import { addCheck, Cloud, Component, Rules } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../kube/api-service';
import { MessagingEndpoint } from '../openstack-kit/endpoints';
import { GeneratedSecret } from '../kube/generated-secret';
import { KeystoneRegistration } from '../openstack-kit/keystone-registration';
import { serviceUserAuthConfig, serviceUserCredentialsEnv } from '../openstack-kit/keystone-service-user';
import {
  NODE_CONFIGURED_AGENT_OPTIONS_RULES,
  NodeConfiguredAgent,
} from '../openstack-kit/node-config-templates';
import { osloProblems } from '../openstack-kit/oslo-config';
import { ServiceDatabase } from '../openstack-kit/service-database';
import { ServiceMessaging } from '../openstack-kit/service-messaging';
import { WorkerService } from '../kube/worker-service';
import { OVN_IMAGE_TAG, OvsdbCluster } from '../infra/ovsdb';
import {
  NeutronAgentKind,
  NeutronAgentOptions,
  neutronAgent,
  neutronAgentConfigProblems,
} from './neutron-agents';
import {
  NeutronOvnAgentOptions,
  neutronOvnAgent,
  OVN_AGENT_SCHEMA,
  ovsDatapathProblems,
} from './neutron-ovn-agent';
import { neutronOvnMetadataAgent } from './neutron-ovn-metadata-agent';
import { apiServiceDefaults, OpenStackServiceProps } from '../openstack-kit/openstack-service';
import { OpenStackApiService, OpenStackApiServiceDescriptor } from '../openstack-kit/openstack-api-service';

/** `config` holds neutron.conf's ML2 and OVN sections too: Stackwright keeps them in one file. */
export interface NeutronProps extends OpenStackServiceProps {
  /** RPC and notifications: neutron-server waits for it. */
  readonly messaging: MessagingEndpoint;
  /** The OVN northbound and southbound databases. */
  readonly ovsdb: OvsdbCluster;
  /** @default 2 */
  readonly apiReplicas?: number;
  /** ovn-northd pods; one is active (it holds the southbound lock), the others stand by. @default 2 */
  readonly northdReplicas?: number;
  /** The per-node OVN agent. @default - on every node a dependant may run on, with the metadata agent */
  readonly ovnAgent?: NeutronOvnAgentOptions;
  /** The L3 agent, for routers outside OVN. @default - none */
  readonly l3Agent?: NeutronAgentOptions;
  /** The DHCP agent, e.g. for bare-metal provisioning networks. @default - none */
  readonly dhcpAgent?: NeutronAgentOptions;
  /** The OVN BGP agent, which announces the node's routes. @default - none */
  readonly bgpAgent?: NeutronAgentOptions;
  /** Image of ovn-northd and the OVN agent. @default the cloud's registry `ovn:24.03` */
  readonly ovnImage?: string;
  /** @default the cloud's registry `ovn-bgp-agent:<release>` */
  readonly bgpAgentImage?: string;
}

const PORT = 9696;

/** The rules of the L3, DHCP and BGP agents' options (their files are checked at synthesis). */
const NEUTRON_AGENT_OPTIONS = Rules.object<NeutronAgentOptions>(NODE_CONFIGURED_AGENT_OPTIONS_RULES);

const NEUTRON: OpenStackApiServiceDescriptor<NeutronProps> = {
  image: 'neutron',
  operatorKey: SchedulingKey.OPERATOR_NEUTRON,
  catalog: { type: 'network', name: 'neutron', port: PORT },
  inputs: {
    ...commonInputHints('keystone', 'database', 'messaging', 'cache'),
    ovsdb: "the OVN databases (new OvsdbCluster(cloud, 'ovsdb'))",
  },
  // Agent configuration and templates are checked against their schemas at synthesis.
  props: {
    ...COMMON_INPUT_RULES,
    ovsdb: serviceRule("the OVN databases (new OvsdbCluster(cloud, 'ovsdb'))"),
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    northdReplicas: Rules.count({ min: 1, max: 5 }),
    ovnAgent: Rules.object<NeutronOvnAgentOptions>({
      datapathType: Rules.oneOf('system', 'netdev'),
      userspaceTso: Rules.bool(),
      dependantKeys: Rules.list(Rules.checkedElsewhere()),
      ...NODE_CONFIGURED_AGENT_OPTIONS_RULES,
      metadataAgent: Rules.bool(),
      novaMetadataHost: Rules.nonEmptyText(),
      image: Rules.image(),
    }),
    l3Agent: NEUTRON_AGENT_OPTIONS,
    dhcpAgent: NEUTRON_AGENT_OPTIONS,
    bgpAgent: NEUTRON_AGENT_OPTIONS,
    ovnImage: Rules.image(),
    bgpAgentImage: Rules.image(),
  },
};

/**
 * Neutron with OVN: neutron-server (the API, with the ML2/OVN driver writing the northbound
 * database), ovn-northd (translating northbound into southbound), the per-node OVN agent (local
 * Open vSwitch and ovn-controller, of the OVN image), the metadata agent beside it on the same
 * nodes (Neutron's image, so a Neutron upgrade rolls it and leaves the datapath running), and
 * optionally the L3, DHCP and OVN BGP agents. The OVSDB clusters are an input, like the database.
 *
 * **The OVN agent's union rule.** Yaook runs the OVN agent wherever a component that needs it may
 * run: it tolerates and schedules on the union of their keys. Neutron is constructed before Nova
 * (Nova needs it), so it cannot discover nova-compute; instead it computes the union eagerly from
 * what it knows: `ovnAgent.dependantKeys` (nova-compute's `COMPUTE_HYPERVISOR` by default) plus
 * `NETWORK_NEUTRON_BGP_AGENT` when its own BGP agent is enabled. Eagerly, so the agent's placement
 * and objects are final at construction and synthesis needs no lazy values; Nova, when given this
 * Neutron, checks at synthesis that the union includes nova-compute's key.
 *
 * @example
 * const ovsdb = new OvsdbCluster(cloud, 'ovsdb');
 * const neutron = new Neutron(cloud, 'neutron', { keystone, database, messaging, cache, ovsdb,
 *   ovnAgent: { configTemplates: [{ nodeSelector: { 'example.com/gateway': 'true' },
 *     config: { ovn: { bridges: ['br-ex:eth1'], bridge_mappings: ['physnet1:br-ex'], cms_options: ['enable-chassis-as-gw'] } } }] } });
 */
export class Neutron extends OpenStackApiService {
  readonly api: ApiService;
  readonly northd: WorkerService;
  /** The OVN agent: one DaemonSet per class of per-node configuration. */
  readonly ovnAgent: NodeConfiguredAgent;
  /** The keys the OVN agent tolerates and schedules on besides its own (the union rule). */
  readonly ovnAgentDependantKeys: readonly SchedulingKey[];
  /**
   * neutron-ovn-metadata-agent, on the OVN agent's nodes (a `same-node` edge to it); absent with
   * `ovnAgent: { metadataAgent: false }`.
   */
  readonly ovnMetadataAgent?: Component;
  readonly l3Agent?: NodeConfiguredAgent;
  readonly dhcpAgent?: NodeConfiguredAgent;
  readonly bgpAgent?: NodeConfiguredAgent;
  readonly registration: KeystoneRegistration;
  readonly database: ServiceDatabase;
  readonly messaging: ServiceMessaging;
  /** Shared by the metadata agent and Nova's metadata API, which signs and checks forwarded requests. */
  readonly metadataProxySecret: GeneratedSecret;
  /** Where the metadata agent forwards instance metadata requests. */
  readonly novaMetadataHost: string;

  constructor(scope: Construct, id: string, props: NeutronProps) {
    super(scope, id, props, NEUTRON);
    const { image, operatorKey } = this;
    const cloud = Cloud.of(this);
    const ovnImage = props.ovnImage ?? cloud.image('ovn', OVN_IMAGE_TAG);
    const ovsdb = props.ovsdb;
    const ovnOptions = props.ovnAgent ?? {};
    this.novaMetadataHost = ovnOptions.novaMetadataHost ?? 'nova-metadata';
    const agentWiring = (kind: NeutronAgentKind, options: NeutronAgentOptions) => ({
      kind,
      options,
      sbConnection: ovsdb.sb.connection,
      nbConnection: ovsdb.nb.connection,
    });
    addCheck(this, () => [
      ...(props.l3Agent ? neutronAgentConfigProblems(agentWiring('l3', props.l3Agent)) : []),
      ...(props.dhcpAgent ? neutronAgentConfigProblems(agentWiring('dhcp', props.dhcpAgent)) : []),
      ...(props.bgpAgent ? neutronAgentConfigProblems(agentWiring('bgp', props.bgpAgent)) : []),
      ...osloProblems('ovnAgent config', OVN_AGENT_SCHEMA, ovnOptions.config ?? {}),
      ...ovsDatapathProblems(ovnOptions),
    ]);

    const deps = this.dependencies(props, {
      syncCommand: ['neutron-db-manage', 'upgrade', 'heads'],
    });
    this.database = deps.database;
    this.messaging = deps.messaging;
    this.registration = deps.registration;
    this.metadataProxySecret = new GeneratedSecret(this, 'metadata-secret', {
      operatorKey,
      keys: ['secret'],
    });

    const conf = this.renderConfig(
      apiServiceDefaults({
        DEFAULT: {
          core_plugin: 'ml2',
          service_plugins: ['ovn-router'],
          notify_nova_on_port_status_changes: true,
          notify_nova_on_port_data_changes: true,
        },
        // Port events go to Nova with Neutron's own service user, found through the catalogue.
        nova: { ...serviceUserAuthConfig(props.keystone), endpoint_type: 'internal' },
        ml2: {
          type_drivers: ['geneve', 'flat', 'vlan'],
          tenant_network_types: ['geneve'],
          mechanism_drivers: ['ovn'],
          extension_drivers: ['port_security'],
          overlay_ip_version: 4,
        },
        ml2_type_geneve: { vni_ranges: ['1:65536'], max_header_size: 38 },
        ovn: {
          ovn_nb_connection: ovsdb.nb.connection,
          ovn_sb_connection: ovsdb.sb.connection,
          ovn_metadata_enabled: ovnOptions.metadataAgent ?? true,
          enable_distributed_floating_ip: false,
        },
        securitygroup: { enable_security_group: true },
        oslo_concurrency: { lock_path: '/tmp/neutron' },
        ...deps.authtokenConfig,
      }),
    );

    this.api = this.serveApi({
      schedulingKey: SchedulingKey.NETWORK_API,
      command: ['neutron-server'],
      healthPath: '/',
      replicas: props.apiReplicas,
      env: [
        ...deps.env,
        ...serviceUserCredentialsEnv('nova', this.registration),
        // The files neutron's WSGI entry point (neutron.wsgi.api) loads, instead of its default
        // neutron.conf + plugins/ml2/ml2_conf.ini: Stackwright puts [ml2] and [ovn] in neutron.conf.
        { name: 'OS_NEUTRON_CONFIG_FILES', value: 'neutron.conf' },
      ],
      files: { 'neutron.conf': conf },
      requests: { cpu: '200m', memory: '512Mi' },
    });
    deps.gate(this.api).dependsOn(ovsdb.nb, 'ready').dependsOn(ovsdb.sb, 'ready');

    this.northd = new WorkerService(this, 'northd', {
      placement: placement(SchedulingKey.NETWORK_NEUTRON_NORTHD),
      image: ovnImage,
      command: [
        '/bin/sh',
        '-ec',
        `exec ovn-northd --ovnnb-db="${ovsdb.nb.connection}" --ovnsb-db="${ovsdb.sb.connection}" ` +
          '--pidfile=/var/run/ovn/ovn-northd.pid --unixctl=/var/run/ovn/ovn-northd.ctl -vconsole:info -vfile:off',
      ],
      replicas: props.northdReplicas ?? 2,
      connectedTo: [ovsdb.nb.port, ovsdb.sb.port],
      volumes: [{ name: 'run', emptyDir: {} }],
      volumeMounts: [{ name: 'run', mountPath: '/var/run/ovn' }],
    });
    this.northd.dependsOn(ovsdb.nb, 'ready').dependsOn(ovsdb.sb, 'ready');

    this.ovnAgentDependantKeys = [
      ...new Set([
        ...(ovnOptions.dependantKeys ?? [SchedulingKey.COMPUTE_HYPERVISOR]),
        ...(props.bgpAgent ? [SchedulingKey.NETWORK_NEUTRON_BGP_AGENT] : []),
      ]),
    ];
    this.ovnAgent = neutronOvnAgent(this, 'ovn-agent', {
      options: ovnOptions,
      dependantKeys: this.ovnAgentDependantKeys,
      ovnImage: ovnOptions.image ?? ovnImage,
      sbConnection: ovsdb.sb.connection,
    });
    // ovn-controller and the metadata agent read the southbound database, which northd fills:
    // ovn-controller 23.03 connected to a southbound without northd's records crashed (SIGSEGV)
    // on the real node until northd had run.
    for (const component of this.ovnAgent.components) {
      component.dependsOn(ovsdb.sb, 'ready').dependsOn(this.northd, 'ready');
    }
    if (ovnOptions.metadataAgent ?? true) {
      this.ovnMetadataAgent = neutronOvnMetadataAgent(this, 'ovn-metadata-agent', {
        image,
        dependantKeys: this.ovnAgentDependantKeys,
        sbConnection: ovsdb.sb.connection,
        novaMetadataHost: this.novaMetadataHost,
        metadataProxySecret: this.metadataProxySecret.ref('secret'),
      });
      this.ovnMetadataAgent
        .dependsOn(this.ovnAgent, 'same-node')
        .dependsOn(ovsdb.sb, 'ready')
        .dependsOn(this.northd, 'ready')
        .dependsOn(this.metadataProxySecret, 'completed');
    }

    const rpcAgent = (kind: 'l3' | 'dhcp', options: NeutronAgentOptions): NodeConfiguredAgent => {
      const agent = neutronAgent(this, `${kind}-agent`, {
        ...agentWiring(kind, options),
        image,
        env: this.messaging.transportUrlEnv(),
        connectedTo: [props.messaging.port],
      });
      for (const component of agent.components) {
        component
          .dependsOn(props.messaging, 'ready')
          .dependsOn(this.messaging.init, 'completed')
          .dependsOn(this.api, 'ready');
      }
      return agent;
    };
    if (props.l3Agent) this.l3Agent = rpcAgent('l3', props.l3Agent);
    if (props.dhcpAgent) this.dhcpAgent = rpcAgent('dhcp', props.dhcpAgent);
    if (props.bgpAgent) {
      this.bgpAgent = neutronAgent(this, 'bgp-agent', {
        ...agentWiring('bgp', props.bgpAgent),
        image: props.bgpAgentImage ?? cloud.image('ovn-bgp-agent'),
        env: [],
        connectedTo: [ovsdb.sb.port],
      });
      for (const component of this.bgpAgent.components) {
        component.dependsOn(this.ovnAgent, 'same-node').dependsOn(ovsdb.sb, 'ready');
      }
    }
  }
}
