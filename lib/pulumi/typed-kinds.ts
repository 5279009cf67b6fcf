/**
 * Type tokens for which `@pulumi/kubernetes` has a typed resource class that Stackwright registers
 * (see `kube-resource-classes.ts`, which maps each token to its class). Kept as plain strings so the
 * dependency plan stays a pure function that does not load the Pulumi SDK.
 *
 * Typed classes matter for more than types: the provider's await logic is keyed by type token, and
 * the typed `Secret` class marks `data`/`stringData` as Pulumi secrets. Every other kind (custom
 * resources, newer alpha/beta APIs) is registered as an `apiextensions.CustomResource`, whose token is
 * the same `kubernetes:<group>/<version>:<Kind>`. The core group has no such fallback (a
 * CustomResource would register `kubernetes:v1:<Kind>`), so every creatable core/v1 kind is listed.
 */
export const TYPED_KUBERNETES_TYPES: readonly string[] = [
  'kubernetes:admissionregistration.k8s.io/v1:MutatingWebhookConfiguration',
  'kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy',
  'kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding',
  'kubernetes:admissionregistration.k8s.io/v1:ValidatingWebhookConfiguration',
  'kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition',
  'kubernetes:apiregistration.k8s.io/v1:APIService',
  'kubernetes:apps/v1:ControllerRevision',
  'kubernetes:apps/v1:DaemonSet',
  'kubernetes:apps/v1:Deployment',
  'kubernetes:apps/v1:ReplicaSet',
  'kubernetes:apps/v1:StatefulSet',
  'kubernetes:autoscaling/v1:HorizontalPodAutoscaler',
  'kubernetes:autoscaling/v2:HorizontalPodAutoscaler',
  'kubernetes:batch/v1:CronJob',
  'kubernetes:batch/v1:Job',
  'kubernetes:certificates.k8s.io/v1:CertificateSigningRequest',
  'kubernetes:coordination.k8s.io/v1:Lease',
  'kubernetes:core/v1:Binding',
  'kubernetes:core/v1:ConfigMap',
  'kubernetes:core/v1:Endpoints',
  'kubernetes:core/v1:Event',
  'kubernetes:core/v1:LimitRange',
  'kubernetes:core/v1:Namespace',
  'kubernetes:core/v1:Node',
  'kubernetes:core/v1:PersistentVolume',
  'kubernetes:core/v1:PersistentVolumeClaim',
  'kubernetes:core/v1:Pod',
  'kubernetes:core/v1:PodTemplate',
  'kubernetes:core/v1:ReplicationController',
  'kubernetes:core/v1:ResourceQuota',
  'kubernetes:core/v1:Secret',
  'kubernetes:core/v1:Service',
  'kubernetes:core/v1:ServiceAccount',
  'kubernetes:discovery.k8s.io/v1:EndpointSlice',
  'kubernetes:networking.k8s.io/v1:Ingress',
  'kubernetes:networking.k8s.io/v1:IngressClass',
  'kubernetes:networking.k8s.io/v1:NetworkPolicy',
  'kubernetes:node.k8s.io/v1:RuntimeClass',
  'kubernetes:policy/v1:PodDisruptionBudget',
  'kubernetes:rbac.authorization.k8s.io/v1:ClusterRole',
  'kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding',
  'kubernetes:rbac.authorization.k8s.io/v1:Role',
  'kubernetes:rbac.authorization.k8s.io/v1:RoleBinding',
  'kubernetes:scheduling.k8s.io/v1:PriorityClass',
  'kubernetes:storage.k8s.io/v1:CSIDriver',
  'kubernetes:storage.k8s.io/v1:CSINode',
  'kubernetes:storage.k8s.io/v1:CSIStorageCapacity',
  'kubernetes:storage.k8s.io/v1:StorageClass',
  'kubernetes:storage.k8s.io/v1:VolumeAttachment',
];

const TYPED = new Set(TYPED_KUBERNETES_TYPES);

/** True when `@pulumi/kubernetes` has a typed class Stackwright registers for this token. */
export function hasTypedClass(typeToken: string): boolean {
  return TYPED.has(typeToken);
}
