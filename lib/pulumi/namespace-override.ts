import { KubeObject, objectRef } from '../graph';

/**
 * Moves every namespaced object of a cloud into `namespace`: `metadata.namespace`, the cloud's
 * Namespace object and the ServiceAccount subjects of (Cluster)RoleBindings that pointed at the old
 * namespace. Meant for manifests synthesised elsewhere (a `dist/` directory); when you build the
 * cloud in the program, give the Cloud its namespace instead.
 *
 * Refuses when the objects span several namespaces (they would be merged) or when a string in any
 * object names the old namespace in a cluster DNS name (`keystone.openstack.svc`): such references
 * live inside rendered config files, which a rewrite here cannot fix reliably, so a silent override
 * would deploy services that cannot find each other.
 */
export function overrideNamespace(objects: readonly KubeObject[], namespace: string): KubeObject[] {
  const original = new Set<string>();
  for (const o of objects) {
    if (o.metadata.namespace) original.add(o.metadata.namespace);
    if (isNamespace(o)) original.add(o.metadata.name);
  }
  if (original.size === 0) return [...objects];
  if (original.size > 1) {
    throw new Error(
      `cannot override the namespace: the manifests span the namespaces ${[...original].sort().join(', ')}, which would be merged into ${namespace}`,
    );
  }
  const [from] = [...original];
  if (from === namespace) return [...objects];
  const dnsName = new RegExp(`\\.${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.svc\\b`);
  for (const o of objects) {
    const hit = findString(o, (s) => dnsName.test(s));
    if (hit !== undefined) {
      throw new Error(
        `cannot override the namespace ${from} with ${namespace}: ${objectRef(o)} names it in a DNS name at ${hit}; set the namespace when building the cloud instead`,
      );
    }
  }
  return objects.map((o) => moveObject(o, from, namespace));
}

function isNamespace(o: KubeObject): boolean {
  return o.apiVersion === 'v1' && o.kind === 'Namespace';
}

function moveObject(o: KubeObject, from: string, to: string): KubeObject {
  const metadata = { ...o.metadata };
  if (metadata.namespace) metadata.namespace = to;
  if (isNamespace(o)) metadata.name = to;
  const moved: Record<string, unknown> = { ...o, metadata };
  if ((o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding') && Array.isArray(o.subjects)) {
    moved.subjects = o.subjects.map((s: unknown) => {
      const subject = s as Record<string, unknown>;
      return subject.kind === 'ServiceAccount' && subject.namespace === from
        ? { ...subject, namespace: to }
        : subject;
    });
  }
  return moved as KubeObject;
}

/** The JSON path of the first string value (not key) that matches, or undefined. */
function findString(value: unknown, matches: (s: string) => boolean, path = ''): string | undefined {
  if (typeof value === 'string') return matches(value) ? path || '.' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findString(value[i], matches, `${path}[${i}]`);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      const hit = findString(child, matches, `${path}.${key}`);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}
