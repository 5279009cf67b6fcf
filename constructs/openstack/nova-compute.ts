import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { Component } from '../../lib/model';
import { placement, PodPlacement, requiringNoOvnMaintenance, SchedulingKey } from '../../lib/scheduling';
import { NodeConfiguredAgent, NodeConfigTemplate, NodeScope } from '../common/node-config-templates';
import { mergeOslo, OsloSchema, OsloValues, osloEnvName, renderOslo } from '../common/oslo-config';
import { hostAgentDaemonSet, hostDirectory } from '../common/host-agent-daemon-set';
import { WorkerService } from '../common/worker-service';

/** nova-compute and libvirt on the hypervisors. */
export interface NovaComputeOptions {
  /** nova.conf options of every nova-compute, merged over Stackwright's defaults and Nova's `config`. @default - none */
  readonly config?: OsloValues;
  /**
   * Per-node nova.conf options (CPU allocation ratios, virt type, PCI devices): one nova-compute
   * DaemonSet per class of nodes, see `NodeConfiguredAgent`.
   * @default - none
   */
  readonly configTemplates?: readonly NodeConfigTemplate[];
  /** Remove every nova-compute and libvirt pod (cold upgrades) with the reserved downscale selector. @default false */
  readonly forcedDownscale?: boolean;
  /** @default the cloud's registry `libvirt:<release>` */
  readonly libvirtImage?: string;
}

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
  ['var-lib-libvirt', '/var/lib/libvirt'],
  ['run-libvirt', '/run/libvirt'],
];

/** libvirtd on every hypervisor (`<nova>-libvirt`), one DaemonSet whatever the per-node configuration. */
export function libvirtDaemon(
  scope: Construct,
  id: string,
  props: { image: string; forcedDownscale: boolean },
): Component {
  const component = new Component(scope, id, { placement: hypervisorPlacement() });
  const probe = (initialDelaySeconds: number): k8s.Probe => ({
    exec: { command: ['virsh', '-c', 'qemu:///system', 'version'] },
    initialDelaySeconds,
    periodSeconds: 10,
    timeoutSeconds: 5,
    failureThreshold: 6,
  });
  // libvirtd starts QEMU processes that must outlive the pod, uses /dev/kvm, cgroups and the host's
  // network devices: it needs the host's PID and network namespaces and privileges. Running
  // instances survive a libvirtd restart.
  hostAgentDaemonSet(component, {
    forcedDownscale: props.forcedDownscale,
    volumes: [
      ...SHARED_HOST_DIRECTORIES.map(([name, path]) => hostDirectory(name, path)),
      hostDirectory('etc-libvirt-qemu', '/etc/libvirt/qemu'),
      hostDirectory('dev', '/dev', 'Directory'),
      hostDirectory('sys-fs-cgroup', '/sys/fs/cgroup', 'Directory'),
      hostDirectory('lib-modules', '/lib/modules', 'Directory'),
    ],
    containers: [
      {
        name: 'libvirtd',
        image: props.image,
        command: ['libvirtd', '--listen'],
        volumeMounts: [
          ...SHARED_HOST_DIRECTORIES.map(([name, mountPath]) => ({ name, mountPath })),
          { name: 'etc-libvirt-qemu', mountPath: '/etc/libvirt/qemu' },
          { name: 'dev', mountPath: '/dev' },
          { name: 'sys-fs-cgroup', mountPath: '/sys/fs/cgroup' },
          { name: 'lib-modules', mountPath: '/lib/modules', readOnly: true },
        ],
        readinessProbe: probe(10),
        livenessProbe: probe(60),
        resources: {
          requests: { cpu: k8s.Quantity.fromString('100m'), memory: k8s.Quantity.fromString('256Mi') },
          limits: { memory: k8s.Quantity.fromString('2Gi') },
        },
      },
    ],
  });
  return component;
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
        env: [
          { name: osloEnvName('DEFAULT', 'my_ip'), valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
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
          hostDirectory('lib-modules', '/lib/modules', 'Directory'),
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
