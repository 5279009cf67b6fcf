import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { JsonApiObject } from '../../lib/model';

/** One volume a claim asks for: its size, how pods may mount it, and the class that provisions it. */
export interface VolumeClaimRequest {
  /** e.g. `'10Gi'`. */
  readonly size: string;
  readonly accessMode: 'ReadWriteOnce' | 'ReadWriteMany';
  /** @default - the cluster's default StorageClass */
  readonly storageClassName?: string;
}

/** The spec of a PersistentVolumeClaim for one volume, for a claim of its own or a StatefulSet's claim template. */
export function volumeClaimSpec(request: VolumeClaimRequest): k8s.PersistentVolumeClaimSpec {
  return {
    accessModes: [request.accessMode],
    storageClassName: request.storageClassName,
    resources: { requests: { storage: k8s.Quantity.fromString(request.size) } },
  };
}

/**
 * A PersistentVolumeClaim named `name`, owned by `scope` (the component that first mounts it, so
 * the claim is applied with that component).
 */
export function volumeClaim(
  scope: Construct,
  id: string,
  claim: VolumeClaimRequest & {
    readonly name: string;
    /** @default - none */
    readonly annotations?: Readonly<Record<string, string>>;
  },
): JsonApiObject<k8s.KubePersistentVolumeClaimProps> {
  const { name, annotations, ...request } = claim;
  return new JsonApiObject(scope, id, k8s.KubePersistentVolumeClaim, {
    metadata: { name, annotations },
    spec: volumeClaimSpec(request),
  });
}
