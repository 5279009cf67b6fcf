import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import { asString, current, inProgress, status } from './object-fields';

/**
 * PersistentVolumeClaim: Bound is Current, anything else is InProgress, as in kstatus. `Lost` is not
 * final: the persistent-volume controller reports it while a claim names a volume its informer has
 * not seen yet (a provisioner racing the controller) and clears it once the volume appears; a claim
 * that stays Lost ends at the component timeout with this message. A claim whose StorageClass binds on
 * first consumer stays Pending until its pod is scheduled, so put it in the same component as the
 * pod that mounts it (the engine never gates objects of one component on each other).
 */
export function persistentVolumeClaimReadiness(live: KubeObject): ReadinessResult {
  const phase = asString(status(live).phase);
  if (phase === 'Bound')
    return current(
      `bound to ${asString((live.spec as Record<string, unknown> | undefined)?.volumeName) ?? 'a volume'}`,
    );
  if (phase === 'Lost') {
    const volume = asString((live.spec as Record<string, unknown> | undefined)?.volumeName) ?? 'its volume';
    return inProgress(
      `Lost: ${volume} is not known to the cluster (yet); if it stays so, the volume was deleted`,
    );
  }
  const selectedNode = live.metadata.annotations?.['volume.kubernetes.io/selected-node'];
  return inProgress(
    `${phase ?? 'Pending'}${selectedNode ? `: provisioning on node ${selectedNode}` : ': waiting for a volume (or for the first consumer pod)'}`,
  );
}
