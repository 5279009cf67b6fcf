import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { Component } from '../../lib/model';
import { placement, PodPlacement, requiringNoOvnMaintenance, SchedulingKey } from '../../lib/scheduling';
import {
  NodeConfiguredAgent,
  NodeConfiguredAgentOptions,
  NodeScope,
} from '../openstack-kit/node-config-templates';
import { mergeOslo, OsloSchema, OsloValues, osloEnvName, renderOslo } from '../openstack-kit/oslo-config';
import { CONFIG_CHECKSUM_ANNOTATION, configFiles } from '../kube/config-files';
import { hostAgentDaemonSet, hostDirectory, hostKernelModules } from '../kube/host-agent-daemon-set';
import { resourcesWithMemoryLimit } from '../kube/memory-limit';
import { WorkerService } from '../kube/worker-service';

/**
 * How libvirt runs instances: `kvm` with hardware virtualisation (`/dev/kvm`), `qemu` with QEMU's
 * binary translation (TCG), for hosts without usable virtualisation (nested test clouds).
 */
export type VirtType = 'kvm' | 'qemu';

/**
 * nova-compute and libvirt on the hypervisors. `config` holds the nova.conf options of every
 * nova-compute, merged over Stackwright's defaults and Nova's `config`; `configTemplates` the
 * per-node ones (CPU allocation ratios, virt type, PCI devices), one nova-compute DaemonSet per
 * class of nodes.
 */
export interface NovaComputeOptions extends NodeConfiguredAgentOptions {
  /**
   * The hypervisor type of every nova-compute (`[libvirt] virt_type`). `qemu` also sets
   * `[libvirt] cpu_mode = none` (TCG emulates a generic CPU) and does not require `/dev/kvm` on the
   * node; `kvm` makes the libvirt pod require `/dev/kvm`, so a node without it shows the cause in
   * the pod's events instead of failing each instance.
   * @default 'kvm'
   */
  readonly virtType?: VirtType;
  /** Remove every nova-compute and libvirt pod (cold upgrades) with the reserved downscale selector. @default false */
  readonly forcedDownscale?: boolean;
  /**
   * libvirtd's and virtlogd's image. Its tag is libvirt's version, not the release: a release
   * upgrade leaves the libvirt pods alone, and changing this image is a libvirt upgrade of its own
   * (running instances survive the roll: docs/upgrades.md, "libvirt").
   * @default the cloud's registry `libvirt:` {@link LIBVIRT_IMAGE_TAG}
   */
  readonly libvirtImage?: string;
  /**
   * The image of nova-compute, when it is not Nova's: one with the libvirt Python binding and
   * qemu-img, which the control plane does not need.
   * @default Nova's image
   */
  readonly image?: string;
}

/** The libvirt version whose image libvirtd and virtlogd use by default (Debian 12's, QEMU 7.2). */
export const LIBVIRT_IMAGE_TAG = '9.0';

/**
 * Where hypervisor workloads run: the hypervisor key, and only where no OVN maintenance is
 * pending, since nova-compute needs the node's OVN agent.
 */
export function hypervisorPlacement(): PodPlacement {
  return requiringNoOvnMaintenance(placement(SchedulingKey.COMPUTE_HYPERVISOR));
}

/** Host directories nova-compute and libvirt share: instances, libvirt's state and sockets. */
const SHARED_HOST_DIRECTORIES: readonly [string, string][] = [
  ['var-lib-nova', '/var/lib/nova'],
  // `instances_path`, which nova-compute statvfs()s for its disk inventory before it creates
  // anything there: a fresh node has no such directory and reported no resources at all.
  ['var-lib-nova-instances', '/var/lib/nova/instances'],
  ['var-lib-libvirt', '/var/lib/libvirt'],
  ['run-libvirt', '/run/libvirt'],
];

/**
 * libvirt's `qemu.conf` for libvirtd in a container that shares the host's PID namespace and `/dev`:
 * - `namespaces = [ ]`: QEMU runs in libvirtd's mount namespace. With its own (the default) QEMU
 *   gets a private `/dev` built from the container's view and fails to open the console's
 *   pseudo-terminal (`-chardev pty,...: Failed to create PTY`).
 * - `security_driver = "none"`: the container cannot load AppArmor or SELinux profiles for guests;
 *   the pod's own confinement applies.
 * - `stdio_handler = "logd"`: QEMU's console and log output go through virtlogd (the pod's second
 *   container), which Nova's console log (`openstack console log show`) reads.
 */
export const LIBVIRT_QEMU_CONF = [
  'namespaces = [ ]',
  'security_driver = "none"',
  'stdio_handler = "logd"',
  '',
].join('\n');

/**
 * libvirtd's start: it first leaves the pod's cgroups for a `libvirtd` cgroup at the root of every
 * hierarchy of the node (`/sys/fs/cgroup`, mounted from the host), then runs libvirtd. The QEMU
 * processes it starts inherit its cgroups, and libvirt moves them into `machine` only for the
 * controllers it manages (cpu, memory, …; not devices, pids, cpuacct or systemd's): in the pod's cgroups,
 * they were killed with the pod, so a libvirt roll stopped every instance (`virsh list`: `shut
 * off`, the compute suite). Out of them, they outlive it and the next libvirtd adopts them.
 * A new cpuset cgroup holds no CPU and no memory node: they are copied from the root's. On a
 * cgroup v2 node the root is the one hierarchy.
 */
export const LIBVIRTD_START = [
  // The shell's pid, read by the shell itself (a builtin's redirection): `$$` cannot be written,
  // Kubernetes turns `$$` in a command into `$`.
  'read -r pid _ < /proc/self/stat',
  'if [ -f /sys/fs/cgroup/cgroup.controllers ]; then hierarchies=/sys/fs/cgroup; else hierarchies=$(ls -d /sys/fs/cgroup/*/); fi',
  'for hierarchy in $hierarchies; do',
  '  [ -f "$hierarchy/cgroup.procs" ] || continue',
  '  mkdir -p "$hierarchy/libvirtd"',
  '  if [ -f "$hierarchy/cpuset.cpus" ]; then',
  '    cat "$hierarchy/cpuset.cpus" > "$hierarchy/libvirtd/cpuset.cpus"',
  '    cat "$hierarchy/cpuset.mems" > "$hierarchy/libvirtd/cpuset.mems"',
  '  fi',
  '  echo "$pid" > "$hierarchy/libvirtd/cgroup.procs"',
  'done',
  'exec libvirtd',
].join('\n');

/** A character device of the node, required to exist (the pod does not start without it). */
function hostDevice(name: string, path: string): k8s.Volume {
  return hostDirectory(name, path, 'CharDevice');
}

/** The node's devices libvirtd needs: TAP devices for instance ports, and KVM when it is used. */
function libvirtDevices(virtType: VirtType): [k8s.Volume, k8s.VolumeMount][] {
  const devices: [string, string][] = [
    ['dev-net-tun', '/dev/net/tun'],
    ...(virtType === 'kvm' ? [['dev-kvm', '/dev/kvm'] as [string, string]] : []),
  ];
  return devices.map(([name, path]) => [hostDevice(name, path), { name, mountPath: path }]);
}

/**
 * libvirtd and virtlogd on every hypervisor (`<nova>-libvirt`), one DaemonSet whatever the
 * per-node configuration.
 */
export function libvirtDaemon(
  scope: Construct,
  id: string,
  props: { image: string; forcedDownscale: boolean; virtType: VirtType },
): Component {
  const component = new Component(scope, id, { placement: hypervisorPlacement() });
  // virsh's first connection to a fresh libvirtd waits for its probe of QEMU's capabilities (it
  // starts QEMU), which took over 5 s on a loaded two-core node: with a 5 s timeout the liveness
  // probe restarted libvirtd, whose capability cache went with the container, again and again.
  const exec = (command: string[], initialDelaySeconds: number): k8s.Probe => ({
    exec: { command },
    initialDelaySeconds,
    periodSeconds: 10,
    timeoutSeconds: 30,
    failureThreshold: 6,
  });
  const virsh = ['virsh', '-c', 'qemu:///system', 'version'];
  const virtlogdSocket = ['test', '-S', '/run/libvirt/virtlogd-sock'];
  const config = configFiles(component, '/etc/libvirt', { 'qemu.conf': LIBVIRT_QEMU_CONF });
  const devices = libvirtDevices(props.virtType);
  const shared = SHARED_HOST_DIRECTORIES.map(([name, mountPath]) => ({ name, mountPath }));
  // libvirtd starts QEMU processes that must outlive the pod, uses /dev/kvm, cgroups and the host's
  // network devices: it needs the host's PID and network namespaces and privileges. Running
  // instances survive a libvirt roll: libvirtd leaves the pod's cgroups first (LIBVIRTD_START).
  // virtlogd keeps the instances' console logs open across libvirtd restarts, so it is a container
  // of its own.
  hostAgentDaemonSet(component, {
    forcedDownscale: props.forcedDownscale,
    annotations: { [CONFIG_CHECKSUM_ANNOTATION]: config.checksum },
    volumes: [
      config.volume,
      ...SHARED_HOST_DIRECTORIES.map(([name, path]) => hostDirectory(name, path)),
      hostDirectory('etc-libvirt-qemu', '/etc/libvirt/qemu'),
      hostDirectory('run-openvswitch', '/run/openvswitch'),
      hostDirectory('dev', '/dev', 'Directory'),
      ...devices.map(([volume]) => volume),
      hostDirectory('sys-fs-cgroup', '/sys/fs/cgroup', 'Directory'),
      hostKernelModules(),
    ],
    containers: [
      {
        name: 'libvirtd',
        image: props.image,
        // Unix sockets only (nova-compute's qemu:///system). `--listen` opens TLS on 16514 by default
        // and libvirtd refuses to start without its certificates (`Cannot read CA certificate
        // '/etc/pki/CA/cacert.pem'`); live migration between hypervisors needs that transport
        // designed (certificates, or SSH), which no prop offers yet.
        command: ['/bin/sh', '-ec', LIBVIRTD_START],
        volumeMounts: [
          ...shared,
          ...config.mounts,
          { name: 'etc-libvirt-qemu', mountPath: '/etc/libvirt/qemu' },
          // libvirt plugs an instance's tap into br-int itself (`ovs-vsctl`, the interface XML Nova
          // writes for Open vSwitch ports), through the node's Open vSwitch database socket.
          { name: 'run-openvswitch', mountPath: '/run/openvswitch' },
          { name: 'dev', mountPath: '/dev' },
          ...devices.map(([, mount]) => mount),
          { name: 'sys-fs-cgroup', mountPath: '/sys/fs/cgroup' },
          { name: 'lib-modules', mountPath: '/lib/modules', readOnly: true },
        ],
        readinessProbe: exec(virsh, 10),
        livenessProbe: exec(virsh, 60),
        resources: resourcesWithMemoryLimit({ cpu: '100m', memory: '256Mi' }, '2Gi'),
      },
      {
        name: 'virtlogd',
        image: props.image,
        command: ['virtlogd'],
        volumeMounts: shared,
        readinessProbe: exec(virtlogdSocket, 5),
        livenessProbe: exec(virtlogdSocket, 30),
        resources: resourcesWithMemoryLimit({ cpu: '10m', memory: '32Mi' }, '256Mi'),
      },
    ],
  });
  return component;
}

/** `[libvirt]` options of nova-compute for `virtType`. */
export function libvirtOptions(virtType: VirtType): OsloValues {
  return { libvirt: virtType === 'qemu' ? { virt_type: 'qemu', cpu_mode: 'none' } : { virt_type: 'kvm' } };
}

/** What Nova hands to the compute agent of one cell. */
export interface NovaComputeWiring {
  readonly options: NovaComputeOptions;
  readonly image: string;
  /** The cell's nodes among the hypervisors. */
  readonly nodes: NodeScope;
  readonly schema: OsloSchema;
  /** nova.conf of the cell's compute nodes before per-node templates. */
  readonly config: OsloValues;
  readonly env: k8s.EnvVar[];
  readonly messagingPort: number;
}

/** nova-compute of one cell: one privileged DaemonSet per class of per-node configuration. */
export function novaCompute(scope: Construct, id: string, wiring: NovaComputeWiring): NodeConfiguredAgent {
  return new NodeConfiguredAgent(scope, id, {
    placement: hypervisorPlacement(),
    templates: wiring.options.configTemplates,
    nodes: wiring.nodes,
    schema: wiring.schema,
    file: 'nova.conf',
    build: (classScope, classId, nodeClass) => {
      const service = new WorkerService(classScope, classId, {
        placement: nodeClass.placement,
        image: wiring.image,
        command: ['nova-compute'],
        workload: 'DaemonSet',
        // nova-compute plugs instance ports into the host's Open vSwitch, attaches volumes (iSCSI,
        // RBD) and manages instance files next to libvirt: host namespaces and privileges.
        hostAgent: true,
        forcedDownscale: wiring.options.forcedDownscale,
        connectedTo: [wiring.messagingPort],
        // The address instances' consoles and migrations use: the node's, read when the pod starts.
        // The service's host name is the node's name, which the OVN agent also gives the node's
        // chassis (`external_ids:hostname`): Neutron binds an instance's port to the chassis whose
        // name is the instance's host, and a host network's own host name need not be the node's.
        env: [
          { name: osloEnvName('DEFAULT', 'my_ip'), valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
          { name: osloEnvName('DEFAULT', 'host'), valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
          ...wiring.env,
        ],
        config: {
          mountPath: '/etc/nova',
          files: { 'nova.conf': renderOslo(mergeOslo(wiring.config, nodeClass.config), wiring.schema) },
        },
        volumes: [
          ...SHARED_HOST_DIRECTORIES.map(([name, path]) => hostDirectory(name, path)),
          hostDirectory('run-openvswitch', '/run/openvswitch'),
          hostDirectory('dev', '/dev', 'Directory'),
          hostKernelModules(),
        ],
        volumeMounts: [
          ...SHARED_HOST_DIRECTORIES.map(([name, mountPath]) => ({ name, mountPath })),
          { name: 'run-openvswitch', mountPath: '/run/openvswitch' },
          { name: 'dev', mountPath: '/dev' },
          { name: 'lib-modules', mountPath: '/lib/modules', readOnly: true },
        ],
        requests: { cpu: '200m', memory: '512Mi' },
      });
      return service;
    },
  });
}
