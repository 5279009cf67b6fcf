import { GroupKind, KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import { current } from './object-fields';

/**
 * Kinds (by `group/Kind`) with no status to wait for: once the API server accepted them, they are in effect.
 * (Unknown kinds are not in this list: they go through the `Ready`-condition rule instead.)
 */
export const EXISTS_IS_CURRENT_KINDS: readonly GroupKind[] = [
  'ConfigMap',
  'Secret',
  'ServiceAccount',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/RoleBinding',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'networking.k8s.io/NetworkPolicy',
  'ResourceQuota',
  'LimitRange',
  'storage.k8s.io/StorageClass',
  'scheduling.k8s.io/PriorityClass',
  'networking.k8s.io/IngressClass',
  'networking.k8s.io/Ingress',
  'Endpoints',
  'discovery.k8s.io/EndpointSlice',
  'batch/CronJob',
  'autoscaling/HorizontalPodAutoscaler',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'node.k8s.io/RuntimeClass',
  'storage.k8s.io/CSIDriver',
  'PersistentVolume',
];

/** The table fallback for the kinds above: existing is being Current. */
export function existsReadiness(live: KubeObject): ReadinessResult {
  void live;
  return current('exists');
}
