import { Construct } from 'constructs';
import { Component } from '../../lib/model';
import { ovnAgentPlacement, requiringNoOvnMaintenance, SchedulingKey } from '../../lib/scheduling';
import { CONFIG_CHECKSUM_ANNOTATION, configFiles } from '../kube/config-files';
import { hostAgentDaemonSet, hostDirectory } from '../kube/host-agent-daemon-set';
import { resourcesWithMemoryLimit } from '../kube/memory-limit';
import { envFromSecret, SecretRef } from '../kube/secret-ref';
import { shellProbe } from '../kube/shell-probe';
import { completeServiceHost } from '../kube/service-host';
import { osloEnvName, OsloValues, renderOslo } from '../openstack-kit/oslo-config';

/** What the Neutron service hands to the metadata agent. */
export interface OvnMetadataAgentWiring {
  /** The Neutron image: the agent is Neutron's code, and rolls with Neutron's release. */
  readonly image: string;
  /** Where the OVN agent runs: the metadata agent runs on the same nodes. */
  readonly dependantKeys: readonly SchedulingKey[];
  readonly sbConnection: string;
  /** Host name of Nova's metadata API (completed with its namespace here). */
  readonly novaMetadataHost: string;
  readonly metadataProxySecret: SecretRef;
}

const METADATA_PORT = 8775;
/** Where neutron-ovn-metadata-agent listens for its haproxies (`[DEFAULT] state_path` + `metadata_proxy`). */
const METADATA_PROXY_SOCKET = '/var/lib/neutron/metadata_proxy';

/**
 * neutron-ovn-metadata-agent, a DaemonSet of its own on the OVN agent's nodes (the canonical edge
 * `neutron-ovn-metadata-agent → ovn-controller`, same node): it serves instance metadata through
 * Nova's metadata API, from a network namespace and a haproxy per network it creates on the host,
 * and reads the node's Open vSwitch and the southbound database.
 *
 * Apart from the OVN agent because it is Neutron's code while Open vSwitch and ovn-controller are
 * OVN's: a Neutron release upgrade rolls this DaemonSet and leaves the node's datapath running.
 */
export function neutronOvnMetadataAgent(
  scope: Construct,
  id: string,
  wiring: OvnMetadataAgentWiring,
): Component {
  // Like every agent that needs the OVN agent, it keeps off nodes whose OVN is under maintenance.
  const component = new Component(scope, id, {
    placement: requiringNoOvnMaintenance(ovnAgentPlacement(wiring.dependantKeys)),
  });
  const config = configFiles(component, '/etc/neutron/neutron.conf.d', {
    // The agent runs in the agents' namespace: the metadata API's name must say its namespace.
    'metadata-agent.conf': renderOslo(
      metadataAgentConf(wiring.sbConnection, completeServiceHost(scope, wiring.novaMetadataHost)),
    ),
  });
  // It creates a network namespace per network on the host and talks to the host's Open vSwitch:
  // it needs the host's network and PID namespaces and privileges.
  hostAgentDaemonSet(component, {
    annotations: { [CONFIG_CHECKSUM_ANNOTATION]: config.checksum },
    volumes: [
      config.volume,
      hostDirectory('run-openvswitch', '/run/openvswitch'),
      hostDirectory('run-netns', '/run/netns'),
      hostDirectory('var-lib-neutron', '/var/lib/neutron'),
    ],
    containers: [
      {
        name: 'metadata-agent',
        image: wiring.image,
        command: ['neutron-ovn-metadata-agent'],
        env: [
          envFromSecret(osloEnvName('DEFAULT', 'metadata_proxy_shared_secret'), wiring.metadataProxySecret),
        ],
        volumeMounts: [
          { name: 'run-openvswitch', mountPath: '/run/openvswitch' },
          // Instances' metadata is served from a namespace per network; the host must see them.
          { name: 'run-netns', mountPath: '/run/netns', mountPropagation: 'Bidirectional' },
          { name: 'var-lib-neutron', mountPath: '/var/lib/neutron' },
          config.mount,
        ],
        // Ready once it serves the unix socket every network's haproxy forwards to (no process
        // listing: the image needs no procps).
        readinessProbe: shellProbe(`test -S ${METADATA_PROXY_SOCKET}`, 10),
        livenessProbe: shellProbe(`test -S ${METADATA_PROXY_SOCKET}`, 60, 6),
        resources: resourcesWithMemoryLimit({ cpu: '50m', memory: '256Mi' }, '1Gi'),
      },
    ],
  });
  return component;
}

function metadataAgentConf(sbConnection: string, novaMetadataHost: string): OsloValues {
  return {
    DEFAULT: {
      nova_metadata_host: novaMetadataHost,
      nova_metadata_port: METADATA_PORT,
      nova_metadata_protocol: 'http',
      metadata_proxy_socket: METADATA_PROXY_SOCKET,
      metadata_workers: 2,
      use_stderr: true,
    },
    ovn: { ovn_sb_connection: sbConnection },
    ovs: { ovsdb_connection: 'unix:/run/openvswitch/db.sock' },
  };
}
