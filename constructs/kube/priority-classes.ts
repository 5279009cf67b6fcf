import { k8s } from 'cdk8s-plus-33';
import { Cloud, JsonApiObject } from '../../lib/model';

/** Which class a long-running pod gets: node agents before the control plane. */
export type PodPriority = 'node-agent' | 'control-plane';

const CLASSES: Readonly<Record<PodPriority, { readonly value: number; readonly description: string }>> = {
  // Both below Kubernetes' own system-cluster-critical (2000000000) and system-node-critical.
  'node-agent': {
    value: 1_000_000,
    description: 'Hypervisor and network agents: without them the node runs no instance.',
  },
  'control-plane': {
    value: 100_000,
    description: 'OpenStack APIs, workers and their databases, message bus and caches.',
  },
};

/**
 * The name of the cloud's PriorityClass for `priority`, `<namespace>-<priority>` (cluster-scoped,
 * so named after the namespace: two clouds in one cluster do not collide), created on first use
 * as a bootstrap object, applied before any pod that names it. Jobs use neither: a one-shot task
 * never pre-empts a running service.
 */
export function priorityClassName(cloud: Cloud, priority: PodPriority): string {
  const name = `${cloud.namespace}-${priority}`;
  const id = `priority-class-${priority}`;
  if (!cloud.node.tryFindChild(id)) {
    const { value, description } = CLASSES[priority];
    // No `globalDefault: false`: the API server omits a false field, and a re-deploy would see a change.
    new JsonApiObject(cloud, id, k8s.KubePriorityClass, { metadata: { name }, value, description });
  }
  return name;
}
