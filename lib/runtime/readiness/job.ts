import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import {
  asNumber,
  condition,
  current,
  describeCondition,
  failed,
  inProgress,
  isTrue,
  spec,
  status,
} from './object-fields';

/**
 * Job: Current only once `Complete=True` — for ordering, "the migration must finish" is the point
 * (kstatus calls a running Job Current; we deliberately do not). `Failed=True` is a failure with
 * the Job's reason, message and failed pod count. A suspended Job is Current: nothing will run it.
 */
export function jobReadiness(live: KubeObject): ReadinessResult {
  const s = status(live);
  const succeeded = asNumber(s.succeeded) ?? 0;
  const failedPods = asNumber(s.failed) ?? 0;
  const active = asNumber(s.active) ?? 0;
  const completions = asNumber(spec(live).completions) ?? 1;

  if (isTrue(live, 'Failed')) {
    const c = condition(live, 'Failed');
    return failed(
      `Job failed: ${describeCondition(c) || 'no reason given'} (${failedPods} failed pod(s))`,
      'job-failed',
    );
  }
  if (isTrue(live, 'Complete')) return current(`completed: ${succeeded}/${completions} succeeded`);
  if (spec(live).suspend === true) return current('suspended: not waiting for completion');
  if (isTrue(live, 'FailureTarget')) {
    return inProgress(
      `failing: ${describeCondition(condition(live, 'FailureTarget'))}; waiting for its pods to terminate`,
    );
  }
  if (isTrue(live, 'SuccessCriteriaMet')) return inProgress(`succeeded; waiting for its pods to terminate`);
  if (s.startTime === undefined) return inProgress('not started yet');
  const retries = failedPods > 0 ? `, ${failedPods} failed attempt(s)` : '';
  return inProgress(`running: ${succeeded}/${completions} succeeded, ${active} active${retries}`);
}
