import { ClusterEvent, involvedNamespace } from './cluster-event';
import { EventRule, eventRule, EventWording } from './event-rule';

/** A Job ran out of retries (`BackoffLimitExceeded`) or time (`DeadlineExceeded`). Blocking. */
export const jobFailed: EventRule = eventRule({
  cause: 'job-failed',
  reasons: ['BackoffLimitExceeded', 'DeadlineExceeded'],
  blocking: true,
  word(event: ClusterEvent): EventWording | undefined {
    if (event.involved.kind !== 'Job') return undefined;
    const namespace = involvedNamespace(event);
    return (
      `Job ${event.involved.name} failed: ${event.reason}: ${event.message}; ` +
      `see kubectl -n ${namespace} logs job/${event.involved.name}, fix the cause, then delete the Job so the next deploy runs it again`
    );
  },
});
