import { FORCED_DOWNSCALE_LABEL, KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import { asNumber, asRecord, current, inProgress, observedGeneration, spec, status } from './object-fields';

/**
 * DaemonSet: the controller observed it and every node it targets runs an updated, available pod.
 * Zero desired pods is Current — nothing can be waited for — but the message says no node matches
 * (or that the forced-downscale selector is set) so a person notices the empty placement.
 */
export function daemonSetReadiness(live: KubeObject): ReadinessResult {
  if (observedGeneration(live) === undefined)
    return inProgress('waiting for the daemonset controller to observe it');
  const s = status(live);
  const desired = asNumber(s.desiredNumberScheduled);
  if (desired === undefined) return inProgress('waiting for the daemonset controller to count the nodes');
  if (desired === 0) {
    const nodeSelector = asRecord(asRecord(asRecord(asRecord(spec(live).template).spec)).nodeSelector);
    if (FORCED_DOWNSCALE_LABEL in nodeSelector) {
      return current(
        `downscaled to zero: the pod template selects ${FORCED_DOWNSCALE_LABEL}, which no node carries`,
      );
    }
    return current('0 pods desired: no node matches the node selector/affinity or tolerates its taints');
  }
  const scheduled = asNumber(s.currentNumberScheduled) ?? 0;
  const updated = asNumber(s.updatedNumberScheduled) ?? 0;
  const available = asNumber(s.numberAvailable) ?? 0;
  const ready = asNumber(s.numberReady) ?? 0;
  if (scheduled < desired) return inProgress(`${scheduled}/${desired} nodes have a pod scheduled`);
  if (updated < desired) return inProgress(`${updated}/${desired} pods updated`);
  if (available < desired) return inProgress(`${available}/${desired} pods available`);
  if (ready < desired) return inProgress(`${ready}/${desired} pods ready`);
  return current(`${available}/${desired} pods available`);
}
