import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { PodPlacement, placement, requiringNoOvnMaintenance, SchedulingKey } from '../../lib/scheduling';
import { NodeConfiguredAgent, NodeConfiguredAgentOptions } from '../openstack-kit/node-config-templates';
import { mergeOslo, OsloSchema, OsloValues, osloProblems, renderOslo } from '../openstack-kit/oslo-config';
import { WorkerService } from '../kube/worker-service';

/**
 * An optional Neutron node agent (L3, DHCP, OVN BGP): options of its configuration file. Giving the
 * options enables the agent.
 */
export type NeutronAgentOptions = NodeConfiguredAgentOptions;

/** l3_agent.ini options Stackwright knows. */
export const L3_AGENT_SCHEMA: OsloSchema = {
  DEFAULT: {
    debug: 'bool',
    interface_driver: 'string',
    agent_mode: 'string',
    ha_vrrp_health_check_interval: 'int',
  },
  agent: { extensions: 'list' },
};

/** dhcp_agent.ini options Stackwright knows. */
export const DHCP_AGENT_SCHEMA: OsloSchema = {
  DEFAULT: {
    debug: 'bool',
    interface_driver: 'string',
    dhcp_driver: 'string',
    enable_isolated_metadata: 'bool',
    force_metadata: 'bool',
    dnsmasq_dns_servers: 'list',
    num_sync_threads: 'int',
  },
};

/** ovn-bgp-agent's bgp-agent.conf options Stackwright knows. */
export const BGP_AGENT_SCHEMA: OsloSchema = {
  DEFAULT: {
    debug: 'bool',
    driver: 'string',
    exposing_method: 'string',
    bgp_AS: 'string',
    bgp_router_id: 'string',
    bgp_vrf: 'string',
    reconcile_interval: 'int',
    expose_tenant_networks: 'bool',
    expose_ipv6_gua_tenant_networks: 'bool',
  },
  ovn: { ovn_sb_connection: 'string', ovn_nb_connection: 'string' },
};

/** The three optional agents. */
export type NeutronAgentKind = 'l3' | 'dhcp' | 'bgp';

interface AgentSpec {
  readonly placement: PodPlacement;
  readonly command: string[];
  readonly file: string;
  readonly schema: OsloSchema;
  readonly defaults: OsloValues;
}

/** What Neutron hands to an agent. */
export interface NeutronAgentWiring {
  readonly kind: NeutronAgentKind;
  readonly options: NeutronAgentOptions;
  /** The Neutron image for L3/DHCP, the ovn-bgp-agent image for BGP. */
  readonly image: string;
  /** Environment (transport URL) of agents that talk RPC. */
  readonly env: k8s.EnvVar[];
  /** Ports the agent must be connected to, for its readiness probe. */
  readonly connectedTo: readonly number[];
  readonly nbConnection: string;
  readonly sbConnection: string;
}

function specOf(wiring: NeutronAgentWiring): AgentSpec {
  switch (wiring.kind) {
    case 'l3':
      return {
        placement: placement(SchedulingKey.NETWORK_NEUTRON_L3_AGENT),
        command: ['neutron-l3-agent'],
        file: 'l3_agent.ini',
        schema: L3_AGENT_SCHEMA,
        defaults: { DEFAULT: { debug: false, interface_driver: 'openvswitch', agent_mode: 'legacy' } },
      };
    case 'dhcp':
      return {
        placement: placement(SchedulingKey.NETWORK_NEUTRON_DHCP_AGENT),
        command: ['neutron-dhcp-agent'],
        file: 'dhcp_agent.ini',
        schema: DHCP_AGENT_SCHEMA,
        defaults: {
          DEFAULT: { debug: false, interface_driver: 'openvswitch', enable_isolated_metadata: true },
        },
      };
    case 'bgp':
      return {
        // The BGP agent exposes routes of the node's OVN chassis, so it needs the OVN agent next to
        // it and follows its maintenance state, like nova-compute.
        placement: requiringNoOvnMaintenance(placement(SchedulingKey.NETWORK_NEUTRON_BGP_AGENT)),
        command: ['ovn-bgp-agent', '--config-dir', '/etc/ovn-bgp-agent'],
        file: 'bgp-agent.conf',
        schema: BGP_AGENT_SCHEMA,
        defaults: {
          DEFAULT: {
            debug: false,
            driver: 'ovn_bgp_driver',
            exposing_method: 'underlay',
            reconcile_interval: 300,
          },
          ovn: { ovn_sb_connection: wiring.sbConnection, ovn_nb_connection: wiring.nbConnection },
        },
      };
  }
}

/** Problems with an agent's `config` (its templates are checked by the agent itself). */
export function neutronAgentConfigProblems(
  wiring: Pick<NeutronAgentWiring, 'kind' | 'options' | 'sbConnection' | 'nbConnection'>,
): string[] {
  const spec = specOf({ ...wiring, image: '', env: [], connectedTo: [] });
  return osloProblems(`${wiring.kind}Agent ${spec.file}`, spec.schema, wiring.options.config ?? {});
}

/**
 * An optional Neutron agent on its own scheduling key, one DaemonSet per class of per-node
 * configuration. Neutron wires its edges.
 */
export function neutronAgent(scope: Construct, id: string, wiring: NeutronAgentWiring): NodeConfiguredAgent {
  const spec = specOf(wiring);
  const base = mergeOslo(spec.defaults, wiring.options.config);
  const configDir = wiring.kind === 'bgp' ? '/etc/ovn-bgp-agent' : '/etc/neutron/neutron.conf.d';
  // oslo.config only reads `*.conf` from a config directory.
  const fileName = spec.file.replace(/\.ini$/, '.conf');
  const hostDirectories: [string, string][] = [
    ['run-openvswitch', '/run/openvswitch'],
    ...(wiring.kind === 'bgp'
      ? ([['run-frr', '/run/frr']] as [string, string][])
      : ([['run-netns', '/run/netns']] as [string, string][])),
  ];
  return new NodeConfiguredAgent(scope, id, {
    placement: spec.placement,
    templates: wiring.options.configTemplates,
    schema: spec.schema,
    file: spec.file,
    build: (classScope, classId, nodeClass) =>
      new WorkerService(classScope, classId, {
        placement: nodeClass.placement,
        image: wiring.image,
        command: spec.command,
        workload: 'DaemonSet',
        // Router, DHCP and BGP agents create network namespaces, devices, routes and firewall rules
        // on the host, so they run privileged in the host's network and PID namespaces.
        hostAgent: true,
        connectedTo: wiring.connectedTo,
        env: wiring.env,
        config: {
          mountPath: configDir,
          files: { [fileName]: renderOslo(mergeOslo(base, nodeClass.config)) },
        },
        volumes: hostDirectories.map(([name, path]) => ({
          name,
          hostPath: { path, type: 'DirectoryOrCreate' },
        })),
        volumeMounts: hostDirectories.map(([name, path]) => ({
          name,
          mountPath: path,
          // Namespaces the agent creates must be visible to the host (and survive the agent's restart).
          ...(name === 'run-netns' ? { mountPropagation: 'Bidirectional' } : {}),
        })),
      }),
  });
}
