import { KubeObject } from '../../graph';

/**
 * Kinds other objects need to exist first: a namespace before what lives in it, a CRD before its
 * custom resources, cluster RBAC and classes before what refers to them. Lower ranks go first.
 */
const RANK: Readonly<Record<string, number>> = {
  Namespace: 0,
  CustomResourceDefinition: 1,
  PriorityClass: 2,
  StorageClass: 2,
  IngressClass: 2,
  RuntimeClass: 2,
  ClusterRole: 3,
  ClusterRoleBinding: 4,
  ServiceAccount: 5,
  Role: 5,
  RoleBinding: 6,
};

/** Webhook configurations go last: an early webhook whose backend is not up fails every later write. */
const LAST = new Set(['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'APIService']);

/** The bootstrap objects in apply order (stable within a rank). */
export function bootstrapOrder(objects: readonly KubeObject[]): KubeObject[] {
  return stableSortBy(objects, (o) => (LAST.has(o.kind) ? 100 : (RANK[o.kind] ?? 50)));
}

/** True for the kinds a component applies and waits for before its other objects. */
export function isPrerequisiteKind(kind: string): boolean {
  return kind === 'Namespace' || kind === 'CustomResourceDefinition';
}

/**
 * A component's objects split into what must be established first (its Namespaces and CRDs,
 * applied and waited for) and the rest (in synthesis order).
 */
export function componentPhases(objects: readonly KubeObject[]): {
  prerequisites: KubeObject[];
  rest: KubeObject[];
} {
  return {
    prerequisites: stableSortBy(
      objects.filter((o) => isPrerequisiteKind(o.kind)),
      (o) => RANK[o.kind] ?? 50,
    ),
    rest: objects.filter((o) => !isPrerequisiteKind(o.kind)),
  };
}

function stableSortBy<T>(items: readonly T[], rank: (item: T) => number): T[] {
  return items
    .map((item, index) => ({ item, index, r: rank(item) }))
    .sort((a, b) => a.r - b.r || a.index - b.index)
    .map((x) => x.item);
}
