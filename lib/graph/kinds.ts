import { GroupKind, groupKindOf } from './group-kind';

/**
 * What every floor needs to know about a kind, in one table keyed by `group/Kind` (as kstatus
 * keys its rules): the model orders a component's objects and strips namespaces by it, the runtime
 * orders bootstrap objects and a component's prerequisites, the Pulumi plan adds pod
 * prerequisites, the diagnosis finds the pods to look at. A kind missing from the table is a custom
 * resource to all of them: namespaced, applied after the known kinds, no special role — so a
 * custom `serving.knative.dev/Service` never gets the core Service's treatment.
 */
export interface KindFacts {
  /** `Cluster` for kinds that live outside namespaces (a namespace on them is removed). */
  readonly scope: 'Cluster' | 'Namespaced';
  /**
   * Apply order: lower goes first, so what others refer to exists before them (a namespace before
   * what lives in it, a CRD before its resources, RBAC before the pods that use it). Also the
   * order of a component's objects in the synthesised file, so a plain `kubectl apply -f` works.
   */
  readonly rank: number;
  /**
   * - `definition`: must be established before the rest of its component is applied (Namespace, CRD);
   * - `pod-prerequisite`: a pod fails to start (or to be admitted) without it;
   * - `workload`: runs pods; `pods` says how they are found;
   * - `late`: applied after everything else, because an early one blocks every later write
   *   (admission webhooks and aggregated APIs whose backend is not up yet).
   */
  readonly role?: 'definition' | 'pod-prerequisite' | 'workload' | 'late';
  /** For workloads: `selector` (pods carry its `spec.selector`), `itself` (a Pod), `via-jobs` (a CronJob). */
  readonly pods?: 'selector' | 'itself' | 'via-jobs';
  /**
   * May stand outside every component as a bootstrap object shared by the cloud (namespaces,
   * classes, RBAC, shared Secrets and ConfigMaps, namespace-wide policy). Anything that runs or
   * serves belongs to a component.
   */
  readonly bootstrap?: true;
}

const RBAC = 'rbac.authorization.k8s.io';
const ADMISSION = 'admissionregistration.k8s.io';

/** The known kinds, in apply order. */
const KINDS: Readonly<Record<GroupKind, KindFacts>> = {
  Namespace: { scope: 'Cluster', rank: 0, role: 'definition', bootstrap: true },
  'apiextensions.k8s.io/CustomResourceDefinition': {
    scope: 'Cluster',
    rank: 1,
    role: 'definition',
    bootstrap: true,
  },
  'scheduling.k8s.io/PriorityClass': { scope: 'Cluster', rank: 2, role: 'pod-prerequisite', bootstrap: true },
  'storage.k8s.io/StorageClass': { scope: 'Cluster', rank: 2, bootstrap: true },
  'networking.k8s.io/IngressClass': { scope: 'Cluster', rank: 2, bootstrap: true },
  'node.k8s.io/RuntimeClass': { scope: 'Cluster', rank: 2, role: 'pod-prerequisite', bootstrap: true },
  ServiceAccount: { scope: 'Namespaced', rank: 3, role: 'pod-prerequisite', bootstrap: true },
  [`${RBAC}/ClusterRole`]: { scope: 'Cluster', rank: 4, role: 'pod-prerequisite', bootstrap: true },
  [`${RBAC}/ClusterRoleBinding`]: { scope: 'Cluster', rank: 5, role: 'pod-prerequisite', bootstrap: true },
  [`${RBAC}/Role`]: { scope: 'Namespaced', rank: 6, role: 'pod-prerequisite', bootstrap: true },
  [`${RBAC}/RoleBinding`]: { scope: 'Namespaced', rank: 7, role: 'pod-prerequisite', bootstrap: true },
  Secret: { scope: 'Namespaced', rank: 8, role: 'pod-prerequisite', bootstrap: true },
  ConfigMap: { scope: 'Namespaced', rank: 9, role: 'pod-prerequisite', bootstrap: true },
  PersistentVolumeClaim: { scope: 'Namespaced', rank: 10 },
  Service: { scope: 'Namespaced', rank: 11 },
  'apps/StatefulSet': { scope: 'Namespaced', rank: 12, role: 'workload', pods: 'selector' },
  'apps/Deployment': { scope: 'Namespaced', rank: 13, role: 'workload', pods: 'selector' },
  'apps/DaemonSet': { scope: 'Namespaced', rank: 14, role: 'workload', pods: 'selector' },
  'apps/ReplicaSet': { scope: 'Namespaced', rank: 14, role: 'workload', pods: 'selector' },
  'batch/Job': { scope: 'Namespaced', rank: 15, role: 'workload', pods: 'selector' },
  'batch/CronJob': { scope: 'Namespaced', rank: 16, role: 'workload', pods: 'via-jobs' },
  Pod: { scope: 'Namespaced', rank: 16, role: 'workload', pods: 'itself' },
  'policy/PodDisruptionBudget': { scope: 'Namespaced', rank: 17 },
  'networking.k8s.io/NetworkPolicy': { scope: 'Namespaced', rank: 18, bootstrap: true },
  [`${ADMISSION}/ValidatingWebhookConfiguration`]: { scope: 'Cluster', rank: 100, role: 'late' },
  [`${ADMISSION}/MutatingWebhookConfiguration`]: { scope: 'Cluster', rank: 100, role: 'late' },
  'apiregistration.k8s.io/APIService': { scope: 'Cluster', rank: 100, role: 'late' },
};

/** What the table says of a custom resource or any kind it does not list. */
const UNKNOWN_KIND: KindFacts = { scope: 'Namespaced', rank: 50 };

/** The facts of an object's (or a type's) kind; a kind the table does not list is a custom resource. */
export function kindFacts(type: { readonly apiVersion: string; readonly kind: string }): KindFacts {
  return KINDS[groupKindOf(type)] ?? UNKNOWN_KIND;
}

/** The kinds that may be bootstrap objects (outside every component), as `Kind` names for messages. */
export const BOOTSTRAP_KIND_NAMES: readonly string[] = Object.entries(KINDS)
  .filter(([, facts]) => facts.bootstrap)
  .map(([groupKind]) => groupKind.slice(groupKind.indexOf('/') + 1));

/** True for the kinds the table knows to live outside namespaces. */
export function isClusterScoped(type: { readonly apiVersion: string; readonly kind: string }): boolean {
  return kindFacts(type).scope === 'Cluster';
}

/** `items` sorted by {@link KindFacts.rank}, keeping their order within a rank. */
export function sortByKindRank<T extends { readonly apiVersion: string; readonly kind: string }>(
  items: readonly T[],
): T[] {
  return items
    .map((item, index) => ({ item, index, rank: kindFacts(item).rank }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((x) => x.item);
}
