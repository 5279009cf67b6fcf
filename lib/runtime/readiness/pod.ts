import { KubeObject } from '../../graph';
import { ReadinessResult, StuckCause } from '../ports';
import {
  asArray,
  asNumber,
  asRecord,
  asString,
  condition,
  current,
  describeCondition,
  failed,
  inProgress,
  isTrue,
  status,
} from './object-fields';

/** Container waiting reasons that mean the pod will not come up without a change. */
const CRASHING = new Set([
  'CrashLoopBackOff',
  'CreateContainerConfigError',
  'CreateContainerError',
  'InvalidImageName',
]);

/** The typed cause of the waiting reasons that have one. */
const CAUSE_OF_WAITING: Readonly<Record<string, StuckCause | undefined>> = {
  CrashLoopBackOff: 'crash-loop',
  InvalidImageName: 'image-pull',
};

/**
 * Pod: Succeeded, or Running with `Ready=True`, is Current. Phase Failed and crash-looping
 * containers are failures (kstatus maps phase Failed to Current; for pods we created that hides
 * the failure). An unschedulable pod stays InProgress with the scheduler's message; the engine's
 * diagnosis explains it once the component is slow.
 */
export function podReadiness(live: KubeObject): ReadinessResult {
  const s = status(live);
  const phase = asString(s.phase);
  if (phase === 'Succeeded') return current('completed');
  if (phase === 'Failed') {
    const why = [asString(s.reason), asString(s.message)].filter(Boolean).join(': ');
    return failed(`pod failed${why ? `: ${why}` : ''}`);
  }
  for (const raw of [...asArray(s.initContainerStatuses), ...asArray(s.containerStatuses)]) {
    const cs = asRecord(raw);
    const waiting = asRecord(asRecord(cs.state).waiting);
    const reason = asString(waiting.reason);
    if (reason && CRASHING.has(reason)) {
      const restarts = asNumber(cs.restartCount) ?? 0;
      const message = asString(waiting.message);
      return failed(
        `container ${asString(cs.name) ?? '?'} is in ${reason} (${restarts} restarts)${message ? `: ${message}` : ''}`,
        CAUSE_OF_WAITING[reason],
      );
    }
  }
  const scheduled = condition(live, 'PodScheduled');
  if (scheduled && scheduled.status === 'False')
    return inProgress(`not scheduled: ${describeCondition(scheduled)}`);
  if (phase === 'Running' && isTrue(live, 'Ready')) return current('running and ready');
  const waitingReasons = [...asArray(s.initContainerStatuses), ...asArray(s.containerStatuses)].flatMap(
    (raw) => {
      const cs = asRecord(raw);
      const reason = asString(asRecord(asRecord(cs.state).waiting).reason);
      return reason ? [`${asString(cs.name) ?? '?'}: ${reason}`] : [];
    },
  );
  const detail = waitingReasons.length > 0 ? ` (${waitingReasons.join(', ')})` : '';
  if (phase === 'Running') return inProgress(`running, not ready${detail}`);
  return inProgress(`${phase ?? 'no phase yet'}${detail}`);
}
