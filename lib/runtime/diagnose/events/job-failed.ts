import { Finding } from '../finding';
import { ClusterEvent, involvedRef } from './cluster-event';
import { EventRule } from './event-rule';

/** A Job ran out of retries (`BackoffLimitExceeded`) or time (`DeadlineExceeded`). Blocking. */
export const jobFailed: EventRule = {
  cause: 'job-failed',
  reasons: ['BackoffLimitExceeded', 'DeadlineExceeded'],
  explain(event: ClusterEvent): Finding | undefined {
    if (event.involved.kind !== 'Job') return undefined;
    const namespace = event.involved.namespace ?? 'default';
    return {
      cause: 'job-failed',
      ref: involvedRef(event),
      message:
        `Job ${event.involved.name} failed: ${event.reason}: ${event.message}; ` +
        `see kubectl -n ${namespace} logs job/${event.involved.name}, fix the cause, then delete the Job so the next deploy runs it again`,
      blocking: true,
    };
  },
};
