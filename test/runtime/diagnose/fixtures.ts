import { KubeObject } from '../../../lib/graph';

/**
 * Realistic node and pod shapes for diagnosis tests: Yaook scheduling as the SDK synthesises it
 * (one nodeSelectorTerm per key with `Exists`, NoSchedule+NoExecute tolerations per key, the OVN
 * maintenance requirement for agents that need OVN), and nodes as a kwok/kubeadm cluster has them.
 */

export const HYPERVISOR = 'compute.yaook.cloud/hypervisor';
export const OVN_MAINTENANCE = 'maintenance.yaook.cloud/ovn-maintenance';

export function node(
  name: string,
  labels: Record<string, string> = {},
  options: { taints?: { key: string; value?: string; effect: string }[]; cordoned?: boolean } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: `node-${name}`,
      labels: {
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        'kubernetes.io/hostname': name,
        type: 'kwok',
        ...labels,
      },
      annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: {
      ...(options.taints ? { taints: options.taints } : {}),
      ...(options.cordoned ? { unschedulable: true } : {}),
    },
    status: {
      allocatable: { cpu: '32', memory: '256Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
    },
  };
}

/** An unlabelled fresh cluster: a tainted control-plane node and two bare workers. */
export function freshCluster(): KubeObject[] {
  return [
    node(
      'control-plane-1',
      { 'node-role.kubernetes.io/control-plane': '' },
      { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
    ),
    node('worker-1'),
    node('worker-2'),
  ];
}

/** Yaook scheduling for `keys` (own key first, then group keys), optionally needing OVN. */
export function yaookScheduling(keys: string[], needsOvn = false): Record<string, unknown> {
  return {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: keys.map((key) => ({
            matchExpressions: [
              { key, operator: 'Exists' },
              ...(needsOvn ? [{ key: OVN_MAINTENANCE, operator: 'In', values: ['not-required'] }] : []),
            ],
          })),
        },
      },
    },
    tolerations: keys.flatMap((key) => [
      { key, operator: 'Exists', effect: 'NoSchedule' },
      { key, operator: 'Exists', effect: 'NoExecute' },
    ]),
  };
}

export function pendingPod(
  name: string,
  app: string,
  scheduling: Record<string, unknown>,
  schedulerMessage: string,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'openstack',
      labels: { 'app.kubernetes.io/name': app },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: app, uid: 'x', controller: true }],
    },
    spec: {
      ...scheduling,
      containers: [{ name: app, image: `registry.yaook.cloud/yaook/${app}:2024.1` }],
      schedulerName: 'default-scheduler',
    },
    status: {
      phase: 'Pending',
      qosClass: 'BestEffort',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: schedulerMessage,
          lastTransitionTime: '2025-03-04T10:00:00Z',
        },
      ],
    },
  };
}

export function runningPod(
  name: string,
  app: string,
  containerStatus: Record<string, unknown>,
  phase = 'Running',
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'openstack', labels: { 'app.kubernetes.io/name': app } },
    spec: {
      nodeName: 'worker-1',
      containers: [{ name: app, image: `registry.yaook.cloud/yaook/${app}:2024.1` }],
    },
    status: {
      phase,
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
      ],
      containerStatuses: [
        {
          name: app,
          image: `registry.yaook.cloud/yaook/${app}:2024.1`,
          ready: false,
          restartCount: 0,
          ...containerStatus,
        },
      ],
    },
  };
}
