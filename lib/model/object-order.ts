/**
 * Order of kinds inside one component: what others reference comes first, so a plain
 * `kubectl apply -f` of the synthesised file also works.
 */
const KIND_RANK: readonly string[] = [
  'Namespace',
  'CustomResourceDefinition',
  'PriorityClass',
  'ServiceAccount',
  'ClusterRole',
  'ClusterRoleBinding',
  'Role',
  'RoleBinding',
  'Secret',
  'ConfigMap',
  'PersistentVolumeClaim',
  'Service',
  'StatefulSet',
  'Deployment',
  'DaemonSet',
  'Job',
  'CronJob',
  'PodDisruptionBudget',
];

/** The rank of a kind in {@link KIND_RANK}; unknown kinds (custom resources) go last. */
export function kindRank(kind: string): number {
  const rank = KIND_RANK.indexOf(kind);
  return rank === -1 ? KIND_RANK.length : rank;
}

/** Kinds that are not namespaced among those the SDK synthesises. */
export const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set([
  'Namespace',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleBinding',
  'PriorityClass',
  'StorageClass',
]);
