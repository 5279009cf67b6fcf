/**
 * What the node's OVN agent knows of one port, for a guest that got no address from OVN's DHCP:
 * the southbound binding, the Open vSwitch interface libvirt added, the flows matching the port's
 * MAC, a trace of a DHCP discover through br-int from that interface, ovn-controller's connection,
 * the agents' restarts and the logs' tails. Every probe is best effort: one that fails reports its
 * error in its place, so the report is complete whatever state the node is in.
 */
import { kubectl, realNodeName } from './cli';

/** The port a server's guest sits on, as Neutron reports it. */
export interface GuestPort {
  readonly id: string;
  readonly mac: string;
}

const OVN_AGENT_SELECTOR = 'app.kubernetes.io/component=ovn-agent,app.kubernetes.io/instance=neutron';

/**
 * Runs in the ovn-controller container ($1 the port's id, $2 its MAC); sections start with `## `.
 * The trace is of the DHCPDISCOVER the guest's udhcpc broadcasts from its interface's OpenFlow port.
 */
const PORT_SCRIPT = String.raw`
section() { printf '## %s\n' "$1"; shift; "$@" 2>&1 || printf '(exit %s)\n' "$?"; }
section 'ovn-controller connection' ovn-appctl -t ovn-controller connection-status
section 'southbound binding' ovn-sbctl --db="$OVN_SB" --timeout=10 \
  --columns=logical_port,chassis,up,tunnel_key,options find Port_Binding logical_port="$1"
section 'interface' ovs-vsctl --timeout=10 --columns=name,ofport,error,link_state,external_ids \
  find Interface external_ids:iface-id="$1"
ofport="$(ovs-vsctl --timeout=10 --bare --columns=ofport find Interface external_ids:iface-id="$1")"
section "br-int flows matching $2" sh -c 'ovs-ofctl dump-flows br-int | grep -ci "$0"' "$2"
section 'DHCP discover traced from the interface' ovs-appctl ofproto/trace br-int \
  "in_port=$ofport,udp,dl_src=$2,dl_dst=ff:ff:ff:ff:ff:ff,nw_src=0.0.0.0,nw_dst=255.255.255.255,udp_src=68,udp_dst=67"
`;

function attempt(what: string, probe: () => string): string[] {
  try {
    return [`## ${what}`, ...probe().trimEnd().split('\n')];
  } catch (error) {
    // kubectl's failure without the command line, which for an exec holds the whole script.
    const message = (error as Error).message;
    const failure = message.lastIndexOf('failed (exit');
    return [`## ${what}`, `(${failure >= 0 ? message.slice(failure) : message})`];
  }
}

/** The containers of `namespaces` that restarted, as `ns/pod/container: N restarts (last: reason)`. */
function restarts(namespaces: readonly string[]): string {
  const lines = namespaces.flatMap((ns) => {
    const pods = JSON.parse(kubectl('-n', ns, 'get', 'pods', '-o', 'json')) as {
      items: {
        metadata: { name: string };
        status: {
          containerStatuses?: {
            name: string;
            restartCount: number;
            lastState?: { terminated?: { reason?: string; exitCode?: number } };
          }[];
        };
      }[];
    };
    return pods.items.flatMap((pod) =>
      (pod.status.containerStatuses ?? [])
        .filter((c) => c.restartCount > 0)
        .map((c) => {
          const last = c.lastState?.terminated;
          const why = last ? ` (last: ${last.reason ?? 'terminated'}, exit ${last.exitCode ?? '?'})` : '';
          return `${ns}/${pod.metadata.name}/${c.name}: ${c.restartCount} restarts${why}`;
        }),
    );
  });
  return lines.length > 0 ? lines.join('\n') : 'none';
}

/** The report's lines, for a guest on `port` in the cloud of `namespace` (agents in `<namespace>-agents`). */
export function ovnPortDiagnosis(namespace: string, port: GuestPort): string[] {
  const agents = `${namespace}-agents`;
  // The DaemonSet runs on the kwok nodes too; only the real node's pod has containers to ask.
  const pod = (): string =>
    kubectl(
      '-n',
      agents,
      'get',
      'pods',
      '-l',
      OVN_AGENT_SELECTOR,
      '--field-selector',
      `spec.nodeName=${realNodeName()}`,
      '-o',
      'name',
    ).trim();
  return [
    ...attempt('restarted containers', () => restarts([namespace, agents])),
    ...attempt(`OVN agent on port ${port.id} (${port.mac})`, () =>
      kubectl(
        '-n',
        agents,
        'exec',
        pod(),
        '-c',
        'ovn-controller',
        '--',
        'sh',
        '-c',
        PORT_SCRIPT,
        'sh',
        port.id,
        port.mac,
      ),
    ),
    ...attempt('ovn-controller log', () =>
      kubectl('-n', agents, 'logs', pod(), '-c', 'ovn-controller', '--tail=60'),
    ),
    ...attempt('ovs-vswitchd log', () =>
      kubectl('-n', agents, 'logs', pod(), '-c', 'ovs-vswitchd', '--tail=40'),
    ),
  ];
}
