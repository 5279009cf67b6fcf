import { k8s } from 'cdk8s-plus-33';
import { Component, JsonApiObject } from '../../lib/model';

/**
 * A PodDisruptionBudget for a component's pods that lets a drain take one at a time, named after
 * the component; none for a single replica, where it could only block the drain. Every workload
 * with more than one replica gets one: an API stays up, a quorum cluster keeps its majority.
 */
export function disruptionBudget(component: Component, replicas: number): void {
  if (replicas <= 1) return;
  new JsonApiObject(component, 'pdb', k8s.KubePodDisruptionBudget, {
    metadata: { name: component.componentName },
    spec: {
      maxUnavailable: k8s.IntOrString.fromNumber(1),
      selector: { matchLabels: component.selectorLabels },
    },
  });
}
