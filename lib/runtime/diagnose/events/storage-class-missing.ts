import { ClusterEvent } from './cluster-event';
import { EventRule, eventRule, EventWording } from './event-rule';

const NOT_FOUND = /storageclass\.storage\.k8s\.io "([^"]+)" not found/;
const NO_CLASS = /no storage class is set/;

/**
 * A PersistentVolumeClaim that can never bind: the StorageClass it names does not exist
 * (`ProvisioningFailed`), or it names none and the cluster has no default (`FailedBinding`).
 */
export const storageClassMissing: EventRule = eventRule({
  cause: 'storage-class-missing',
  reasons: ['ProvisioningFailed', 'FailedBinding'],
  blocking: true,
  word(event: ClusterEvent): EventWording | undefined {
    const claim = `PersistentVolumeClaim ${event.involved.name}`;
    const missing = NOT_FOUND.exec(event.message);
    if (missing)
      return (
        `${claim} asks for StorageClass ${missing[1]}, which does not exist; ` +
        `fix: create StorageClass ${missing[1]}, or set the claim's storageClassName to one that exists (kubectl get storageclass)`
      );
    if (NO_CLASS.test(event.message))
      return (
        `${claim} names no StorageClass and the cluster has no default one; ` +
        `fix: set its storageClassName, or mark a StorageClass default (annotation storageclass.kubernetes.io/is-default-class=true)`
      );
    return undefined;
  },
});
