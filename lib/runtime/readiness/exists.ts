import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import { current } from './object-fields';

/**
 * Kinds with no status to wait for: once the API server accepted them, they are in effect.
 * (Unknown kinds are not in this list: they go through the `Ready`-condition rule instead.)
 */
export const EXISTS_IS_CURRENT_KINDS: readonly string[] = [
  'ConfigMap',
  'Secret',
  'ServiceAccount',
  'Role',
  'RoleBinding',
  'ClusterRole',
  'ClusterRoleBinding',
  'NetworkPolicy',
  'ResourceQuota',
  'LimitRange',
  'StorageClass',
  'PriorityClass',
  'IngressClass',
  'Ingress',
  'Endpoints',
  'EndpointSlice',
  'CronJob',
  'HorizontalPodAutoscaler',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'RuntimeClass',
  'CSIDriver',
  'PersistentVolume',
];

/** The table fallback for the kinds above: existing is being Current. */
export function existsReadiness(live: KubeObject): ReadinessResult {
  void live;
  return current('exists');
}
