import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { Component } from '../../lib/model';
import { ovnAgentPlacement, SchedulingKey } from '../../lib/scheduling';
import { CONFIG_CHECKSUM_ANNOTATION, configFiles } from '../kube/config-files';
import { NodeConfiguredAgent, NodeConfiguredAgentOptions } from '../openstack-kit/node-config-templates';
import { mergeOslo, OsloSchema, OsloValue } from '../openstack-kit/oslo-config';
import { hostAgentDaemonSet, hostDirectory, hostKernelModules } from '../kube/host-agent-daemon-set';
import { resourcesWithMemoryLimit } from '../kube/memory-limit';
import { shellProbe } from '../kube/shell-probe';

/**
 * ovn-controller's per-node settings, in the `[ovn]` section of the agent's configuration and its
 * `configTemplates`. They become `external_ids` of the node's Open vSwitch (`bridge_mappings` →
 * `ovn-bridge-mappings`, …); `bridges` creates provider bridges with their uplink
 * (`br-ex:eth1`), which the mappings then name.
 */
export const OVN_AGENT_SCHEMA: OsloSchema = {
  ovn: {
    bridges: 'list',
    bridge_mappings: 'list',
    encap_type: 'string',
    cms_options: 'list',
    openflow_probe_interval: 'int',
    remote_probe_interval: 'int',
    monitor_all: 'bool',
  },
};

/** `[ovn]` option → Open vSwitch external id read by ovn-controller. */
const EXTERNAL_IDS: Readonly<Record<string, string>> = {
  bridge_mappings: 'ovn-bridge-mappings',
  encap_type: 'ovn-encap-type',
  cms_options: 'ovn-cms-options',
  openflow_probe_interval: 'ovn-openflow-probe-interval',
  remote_probe_interval: 'ovn-remote-probe-interval',
  monitor_all: 'ovn-monitor-all',
};

/**
 * Open vSwitch's datapath: `system`, the kernel module's (production), or `netdev`, the userspace
 * datapath in ovs-vswitchd, for hosts without the openvswitch kernel module (test clouds, DPDK).
 */
export type OvsDatapathType = 'system' | 'netdev';

/**
 * The OVN agent's options: `config` holds the `[ovn]` settings of every node (see
 * {@link OVN_AGENT_SCHEMA}; by default `{ ovn: { encap_type: 'geneve' } }`), `configTemplates` the
 * per-node ones, e.g. bridge mappings of gateway nodes.
 */
export interface NeutronOvnAgentOptions extends NodeConfiguredAgentOptions {
  /**
   * The datapath of every bridge on the agent's nodes: `br-int` (ovn-controller creates it with
   * `external_ids:ovn-bridge-datapath-type`) and the provider bridges of `[ovn] bridges`
   * (`datapath_type`). `netdev` needs `/dev/net/tun`, which the pod then requires.
   * @default 'system'
   */
  readonly datapathType?: OvsDatapathType;
  /**
   * TCP segmentation offload in the userspace datapath (`other_config:userspace-tso-enable`), set
   * before ovs-vswitchd starts. Only meaningful with `datapathType: 'netdev'`; without it, TCP from
   * guests whose virtio-net offloads checksums arrives with bad checksums.
   * @default false
   */
  readonly userspaceTso?: boolean;
  /**
   * The scheduling keys of the components that need the OVN agent on their node. The agent
   * tolerates them and runs wherever one of them may run (Yaook's union rule). Neutron adds
   * `NETWORK_NEUTRON_BGP_AGENT` itself when the BGP agent is enabled.
   * @default [SchedulingKey.COMPUTE_HYPERVISOR]
   */
  readonly dependantKeys?: readonly SchedulingKey[];
  /**
   * Run neutron-ovn-metadata-agent on the agent's nodes (a DaemonSet of its own,
   * `neutron-ovn-metadata-agent`), which serves instance metadata through Nova's metadata API.
   * @default true
   */
  readonly metadataAgent?: boolean;
  /**
   * Host name of Nova's metadata API, where the metadata agent forwards requests. Nova checks it
   * against its own metadata API when it is wired to this Neutron.
   * @default 'nova-metadata'
   */
  readonly novaMetadataHost?: string;
  /** @default the cloud's registry `ovn:24.03` */
  readonly image?: string;
}

/** What the Neutron service hands to the agent. */
export interface OvnAgentWiring {
  readonly options: NeutronOvnAgentOptions;
  /** Keys of every dependant, already including the BGP agent's when it is enabled. */
  readonly dependantKeys: readonly SchedulingKey[];
  readonly ovnImage: string;
  readonly sbConnection: string;
}

/**
 * The per-node OVN agent: one pod per node with the local ovsdb-server, ovs-vswitchd and
 * ovn-controller as containers, all of the OVN image. Placed by the union rule
 * (`ovnAgentPlacement`), one DaemonSet per class of per-node configuration.
 */
export function neutronOvnAgent(scope: Construct, id: string, wiring: OvnAgentWiring): NodeConfiguredAgent {
  const options = wiring.options;
  const base = mergeOslo({ ovn: { encap_type: 'geneve' } }, options.config);
  return new NodeConfiguredAgent(scope, id, {
    placement: ovnAgentPlacement(wiring.dependantKeys),
    templates: options.configTemplates,
    schema: OVN_AGENT_SCHEMA,
    file: 'ovn-agent',
    build: (classScope, classId, nodeClass) => {
      const component = new Component(classScope, classId, { placement: nodeClass.placement });
      const ovn = mergeOslo(base, nodeClass.config).ovn ?? {};
      const config = configFiles(component, '/etc/ovn-agent', {
        external_ids: renderExternalIds(ovn, options.datapathType ?? 'system'),
        bridges: renderBridges(ovn),
      });
      ovnAgentDaemonSet(component, wiring, config);
      return component;
    },
  });
}

function ovnAgentDaemonSet(
  component: Component,
  wiring: OvnAgentWiring,
  config: ReturnType<typeof configFiles>,
): void {
  const datapathType = wiring.options.datapathType ?? 'system';
  const userspaceTso = wiring.options.userspaceTso ?? false;
  const mount = (name: string, mountPath: string, extra: Partial<k8s.VolumeMount> = {}): k8s.VolumeMount => ({
    name,
    mountPath,
    ...extra,
  });
  const ovsMounts = [
    mount('run-openvswitch', '/run/openvswitch'),
    mount('etc-openvswitch', '/etc/openvswitch'),
    mount('var-lib-openvswitch', '/var/lib/openvswitch'),
  ];
  const nodeEnv: k8s.EnvVar[] = [
    { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    { name: 'NODE_IP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
    { name: 'OVN_SB', value: wiring.sbConnection },
  ];
  const containers: k8s.Container[] = [
    {
      name: 'ovsdb-server',
      image: wiring.ovnImage,
      command: [
        '/bin/sh',
        '-ec',
        [
          '[ -e /etc/openvswitch/conf.db ] || ovsdb-tool create /etc/openvswitch/conf.db /usr/share/openvswitch/vswitch.ovsschema',
          'ovsdb-tool needs-conversion /etc/openvswitch/conf.db | grep -q no || ovsdb-tool convert /etc/openvswitch/conf.db /usr/share/openvswitch/vswitch.ovsschema',
          'exec ovsdb-server /etc/openvswitch/conf.db --remote=punix:/run/openvswitch/db.sock --pidfile=/run/openvswitch/ovsdb-server.pid -vconsole:info -vfile:off',
        ].join('\n'),
      ],
      volumeMounts: ovsMounts,
      readinessProbe: shellProbe('ovs-vsctl --timeout=5 show >/dev/null', 5),
      livenessProbe: shellProbe('ovs-vsctl --timeout=5 show >/dev/null', 30, 6),
      resources: resourcesWithMemoryLimit({ cpu: '50m', memory: '128Mi' }, '512Mi'),
    },
    {
      name: 'ovs-vswitchd',
      image: wiring.ovnImage,
      command: [
        '/bin/sh',
        '-ec',
        [
          'until [ -S /run/openvswitch/db.sock ]; do sleep 1; done',
          // Read once at start-up: set (or reset, the database persists on the node) before the daemon starts.
          `ovs-vsctl --no-wait set open . other_config:userspace-tso-enable=${userspaceTso}`,
          'exec ovs-vswitchd unix:/run/openvswitch/db.sock --pidfile=/run/openvswitch/ovs-vswitchd.pid --mlockall -vconsole:info -vfile:off',
        ].join('\n'),
      ],
      volumeMounts: [
        ...ovsMounts,
        mount('lib-modules', '/lib/modules', { readOnly: true }),
        // The userspace datapath's bridge ports are TAP devices.
        ...(datapathType === 'netdev' ? [mount('dev-net-tun', '/dev/net/tun')] : []),
      ],
      readinessProbe: shellProbe('ovs-appctl -t ovs-vswitchd version >/dev/null', 10),
      livenessProbe: shellProbe('ovs-appctl -t ovs-vswitchd version >/dev/null', 30, 6),
      resources: resourcesWithMemoryLimit({ cpu: '100m', memory: '256Mi' }, '2Gi'),
    },
    {
      name: 'ovn-controller',
      image: wiring.ovnImage,
      env: nodeEnv,
      command: [
        '/bin/sh',
        '-ec',
        [
          'until ovs-vsctl --timeout=5 show >/dev/null 2>&1; do sleep 1; done',
          'ovs-vsctl --no-wait set open . external_ids:system-id="$NODE_NAME" external_ids:hostname="$NODE_NAME" ' +
            'external_ids:ovn-remote="$OVN_SB" external_ids:ovn-encap-ip="$NODE_IP"',
          // Settings of this node's configuration class: `key=value` lines, then provider bridges.
          'while IFS= read -r line; do [ -n "$line" ] && ovs-vsctl --no-wait set open . "external_ids:$line"; done < /etc/ovn-agent/external_ids',
          'while IFS=: read -r bridge port; do [ -n "$bridge" ] || continue; ' +
            `ovs-vsctl --may-exist add-br "$bridge" -- set bridge "$bridge" datapath_type=${datapathType}; ` +
            '[ -z "$port" ] || ovs-vsctl --may-exist add-port "$bridge" "$port"; done < /etc/ovn-agent/bridges',
          'exec ovn-controller unix:/run/openvswitch/db.sock --pidfile=/run/ovn/ovn-controller.pid -vconsole:info -vfile:off',
        ].join('\n'),
      ],
      volumeMounts: [
        ...ovsMounts,
        mount('run-ovn', '/run/ovn'),
        { ...config.mount, mountPath: '/etc/ovn-agent' },
      ],
      // Ready once connected to the southbound database: before that the node has no flows.
      readinessProbe: shellProbe('ovn-appctl -t ovn-controller connection-status | grep -q "^connected"', 10),
      livenessProbe: shellProbe('ovn-appctl -t ovn-controller version >/dev/null', 30, 6),
      resources: resourcesWithMemoryLimit({ cpu: '100m', memory: '256Mi' }, '1Gi'),
    },
  ];
  // Open vSwitch programs the host kernel's datapath and network devices and ovn-controller
  // configures the host's bridges: both need the host's network and PID namespaces and privileges.
  // A node's pod restart interrupts its instances' traffic briefly, so nothing of Neutron's own
  // release is in this pod (its metadata agent is a DaemonSet of its own).
  hostAgentDaemonSet(component, {
    annotations: { [CONFIG_CHECKSUM_ANNOTATION]: config.checksum },
    volumes: [
      config.volume,
      hostDirectory('run-openvswitch', '/run/openvswitch'),
      hostDirectory('etc-openvswitch', '/etc/openvswitch'),
      hostDirectory('var-lib-openvswitch', '/var/lib/openvswitch'),
      hostDirectory('run-ovn', '/run/ovn'),
      hostKernelModules(),
      ...(datapathType === 'netdev' ? [hostDirectory('dev-net-tun', '/dev/net/tun', 'CharDevice')] : []),
    ],
    containers,
  });
}

/** `key=value` lines of ovn-controller's external ids: the `[ovn]` options', then the datapath type. */
function renderExternalIds(ovn: Readonly<Record<string, OsloValue>>, datapathType: OvsDatapathType): string {
  const lines = Object.keys(ovn)
    .filter((option) => option in EXTERNAL_IDS)
    .map((option) => {
      const value = ovn[option];
      return `${EXTERNAL_IDS[option]}=${Array.isArray(value) ? value.join(',') : String(value)}`;
    });
  return `${[...lines, `ovn-bridge-datapath-type=${datapathType}`].sort().join('\n')}\n`;
}

/** The problems of the datapath options (`ovnAgent.` in messages). */
export function ovsDatapathProblems(options: NeutronOvnAgentOptions): string[] {
  return options.userspaceTso === true && options.datapathType !== 'netdev'
    ? [
        `ovnAgent.userspaceTso applies to the userspace datapath only, but ovnAgent.datapathType is ` +
          `${JSON.stringify(options.datapathType ?? 'system')}; set ovnAgent.datapathType: 'netdev' or drop userspaceTso`,
      ]
    : [];
}

function renderBridges(ovn: Readonly<Record<string, OsloValue>>): string {
  const bridges = ovn.bridges;
  return Array.isArray(bridges) && bridges.length > 0 ? `${bridges.join('\n')}\n` : '';
}
