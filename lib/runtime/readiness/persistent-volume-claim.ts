import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import { asString, current, failed, inProgress, status } from './object-fields';

/**
 * PersistentVolumeClaim: Bound is Current, Lost is a failure. A claim whose StorageClass binds on
 * first consumer stays Pending until its pod is scheduled, so put it in the same component as the
 * pod that mounts it (the engine never gates objects of one component on each other).
 */
export function persistentVolumeClaimReadiness(live: KubeObject): ReadinessResult {
  const phase = asString(status(live).phase);
  if (phase === 'Bound')
    return current(
      `bound to ${asString((live.spec as Record<string, unknown> | undefined)?.volumeName) ?? 'a volume'}`,
    );
  if (phase === 'Lost') return failed('claim lost: its volume no longer exists');
  const selectedNode = live.metadata.annotations?.['volume.kubernetes.io/selected-node'];
  return inProgress(
    `${phase ?? 'Pending'}${selectedNode ? `: provisioning on node ${selectedNode}` : ': waiting for a volume (or for the first consumer pod)'}`,
  );
}
