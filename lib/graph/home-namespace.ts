import { KubeObject } from './manifest';

/**
 * The namespace of a cloud's control plane, read from its manifests: the only namespace the
 * manifests create, or, of several (the control plane's and the node agents'), the one most of
 * their objects live in; when they create none, the namespace most objects live in. The runtime
 * keeps the inventory there, and the Pulumi adapter puts a credential given without a namespace
 * there. Undefined when no object has a namespace, or two namespaces hold as many objects.
 */
export function homeNamespace(objects: readonly KubeObject[]): string | undefined {
  const created = objects
    .filter((o) => o.kind === 'Namespace' && o.apiVersion === 'v1')
    .map((o) => o.metadata.name);
  if (created.length === 1) return created[0];
  const counts = new Map<string, number>();
  for (const o of objects) {
    const namespace = o.metadata.namespace;
    if (namespace && (created.length === 0 || created.includes(namespace)))
      counts.set(namespace, (counts.get(namespace) ?? 0) + 1);
  }
  const [top, next] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  // Two namespaces holding as many objects: no guess.
  return top && (next === undefined || next[1] < top[1]) ? top[0] : undefined;
}
