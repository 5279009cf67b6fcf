import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { hasTypedClass } from './typed-kinds';

/** The plain-JSON body of a Kubernetes object, passed to a `@pulumi/kubernetes` resource as its args. */
export type KubeResourceArgs = Record<string, pulumi.Input<unknown>>;

/** The constructor shape shared by every typed `@pulumi/kubernetes` resource class. */
export type KubeResourceClass = new (
  name: string,
  args: KubeResourceArgs,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.CustomResource;

/**
 * Erases a typed class's argument type. The objects come from synthesised manifests (plain JSON the
 * API server validates), not from TypeScript literals, so the per-kind `XxxArgs` types add nothing
 * here; what matters is that the class registers the right token with the right options.
 */
function typed<A>(
  cls: new (name: string, args: A, opts?: pulumi.CustomResourceOptions) => pulumi.CustomResource,
): KubeResourceClass {
  return cls as unknown as KubeResourceClass;
}

/**
 * Typed `@pulumi/kubernetes` classes by type token; the keys are exactly `TYPED_KUBERNETES_TYPES`
 * (a unit test holds the two lists and the SDK's own tokens together).
 */
const CLASSES: Readonly<Record<string, KubeResourceClass>> = {
  'kubernetes:admissionregistration.k8s.io/v1:MutatingWebhookConfiguration': typed(
    k8s.admissionregistration.v1.MutatingWebhookConfiguration,
  ),
  'kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy': typed(
    k8s.admissionregistration.v1.ValidatingAdmissionPolicy,
  ),
  'kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding': typed(
    k8s.admissionregistration.v1.ValidatingAdmissionPolicyBinding,
  ),
  'kubernetes:admissionregistration.k8s.io/v1:ValidatingWebhookConfiguration': typed(
    k8s.admissionregistration.v1.ValidatingWebhookConfiguration,
  ),
  'kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition': typed(
    k8s.apiextensions.v1.CustomResourceDefinition,
  ),
  'kubernetes:apiregistration.k8s.io/v1:APIService': typed(k8s.apiregistration.v1.APIService),
  'kubernetes:apps/v1:ControllerRevision': typed(k8s.apps.v1.ControllerRevision),
  'kubernetes:apps/v1:DaemonSet': typed(k8s.apps.v1.DaemonSet),
  'kubernetes:apps/v1:Deployment': typed(k8s.apps.v1.Deployment),
  'kubernetes:apps/v1:ReplicaSet': typed(k8s.apps.v1.ReplicaSet),
  'kubernetes:apps/v1:StatefulSet': typed(k8s.apps.v1.StatefulSet),
  'kubernetes:autoscaling/v1:HorizontalPodAutoscaler': typed(k8s.autoscaling.v1.HorizontalPodAutoscaler),
  'kubernetes:autoscaling/v2:HorizontalPodAutoscaler': typed(k8s.autoscaling.v2.HorizontalPodAutoscaler),
  'kubernetes:batch/v1:CronJob': typed(k8s.batch.v1.CronJob),
  'kubernetes:batch/v1:Job': typed(k8s.batch.v1.Job),
  'kubernetes:certificates.k8s.io/v1:CertificateSigningRequest': typed(
    k8s.certificates.v1.CertificateSigningRequest,
  ),
  'kubernetes:coordination.k8s.io/v1:Lease': typed(k8s.coordination.v1.Lease),
  'kubernetes:core/v1:Binding': typed(k8s.core.v1.Binding),
  'kubernetes:core/v1:ConfigMap': typed(k8s.core.v1.ConfigMap),
  'kubernetes:core/v1:Endpoints': typed(k8s.core.v1.Endpoints),
  'kubernetes:core/v1:Event': typed(k8s.core.v1.Event),
  'kubernetes:core/v1:LimitRange': typed(k8s.core.v1.LimitRange),
  'kubernetes:core/v1:Namespace': typed(k8s.core.v1.Namespace),
  'kubernetes:core/v1:Node': typed(k8s.core.v1.Node),
  'kubernetes:core/v1:PersistentVolume': typed(k8s.core.v1.PersistentVolume),
  'kubernetes:core/v1:PersistentVolumeClaim': typed(k8s.core.v1.PersistentVolumeClaim),
  'kubernetes:core/v1:Pod': typed(k8s.core.v1.Pod),
  'kubernetes:core/v1:PodTemplate': typed(k8s.core.v1.PodTemplate),
  'kubernetes:core/v1:ReplicationController': typed(k8s.core.v1.ReplicationController),
  'kubernetes:core/v1:ResourceQuota': typed(k8s.core.v1.ResourceQuota),
  'kubernetes:core/v1:Secret': typed(k8s.core.v1.Secret),
  'kubernetes:core/v1:Service': typed(k8s.core.v1.Service),
  'kubernetes:core/v1:ServiceAccount': typed(k8s.core.v1.ServiceAccount),
  'kubernetes:discovery.k8s.io/v1:EndpointSlice': typed(k8s.discovery.v1.EndpointSlice),
  'kubernetes:networking.k8s.io/v1:Ingress': typed(k8s.networking.v1.Ingress),
  'kubernetes:networking.k8s.io/v1:IngressClass': typed(k8s.networking.v1.IngressClass),
  'kubernetes:networking.k8s.io/v1:NetworkPolicy': typed(k8s.networking.v1.NetworkPolicy),
  'kubernetes:node.k8s.io/v1:RuntimeClass': typed(k8s.node.v1.RuntimeClass),
  'kubernetes:policy/v1:PodDisruptionBudget': typed(k8s.policy.v1.PodDisruptionBudget),
  'kubernetes:rbac.authorization.k8s.io/v1:ClusterRole': typed(k8s.rbac.v1.ClusterRole),
  'kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding': typed(k8s.rbac.v1.ClusterRoleBinding),
  'kubernetes:rbac.authorization.k8s.io/v1:Role': typed(k8s.rbac.v1.Role),
  'kubernetes:rbac.authorization.k8s.io/v1:RoleBinding': typed(k8s.rbac.v1.RoleBinding),
  'kubernetes:scheduling.k8s.io/v1:PriorityClass': typed(k8s.scheduling.v1.PriorityClass),
  'kubernetes:storage.k8s.io/v1:CSIDriver': typed(k8s.storage.v1.CSIDriver),
  'kubernetes:storage.k8s.io/v1:CSINode': typed(k8s.storage.v1.CSINode),
  'kubernetes:storage.k8s.io/v1:CSIStorageCapacity': typed(k8s.storage.v1.CSIStorageCapacity),
  'kubernetes:storage.k8s.io/v1:StorageClass': typed(k8s.storage.v1.StorageClass),
  'kubernetes:storage.k8s.io/v1:VolumeAttachment': typed(k8s.storage.v1.VolumeAttachment),
};

const CUSTOM_RESOURCE = typed(k8s.apiextensions.CustomResource);

/**
 * The class that registers an object with this type token: its typed class when Stackwright knows
 * one, otherwise `apiextensions.CustomResource` (custom resources and kinds newer than this table),
 * which registers under the same token for any non-core group.
 */
export function kubeResourceClass(typeToken: string): KubeResourceClass {
  const typed = hasTypedClass(typeToken) ? CLASSES[typeToken] : undefined;
  return typed ?? CUSTOM_RESOURCE;
}

/** The tokens of the typed class table, for the test that keeps it in step with `TYPED_KUBERNETES_TYPES`. */
export function typedClassTokens(): string[] {
  return Object.keys(CLASSES).sort();
}
