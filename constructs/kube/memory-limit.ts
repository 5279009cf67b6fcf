import { k8s } from 'cdk8s-plus-33';

/**
 * A container's CPU and memory requests as given and a memory limit, with no CPU limit. A service's
 * main container takes `containerResources` (a limit of four times its request); this is for the
 * containers whose peak that rule does not fit: node agents, a cache sized by its props, Jobs, the
 * OVSDB servers. (`requests` is a `ResourceRequests`, typed by its shape: pod-template.ts, which
 * declares it, builds `containerResources` on this.)
 */
export function resourcesWithMemoryLimit(
  requests: { readonly cpu: string; readonly memory: string },
  memoryLimit: string,
): k8s.ResourceRequirements {
  return {
    requests: {
      cpu: k8s.Quantity.fromString(requests.cpu),
      memory: k8s.Quantity.fromString(requests.memory),
    },
    limits: { memory: k8s.Quantity.fromString(memoryLimit) },
  };
}
