import { StuckCause } from '../../ports';
import { Finding } from '../finding';
import { ClusterEvent } from './cluster-event';

/**
 * One pure rule: recognises the Events of one stuck cause and says what is wrong and the fix.
 * Registered in `EVENT_RULES` (`event-rules.ts`); each has a fixture file in
 * `test/runtime/diagnose/events/fixtures/<cause>.yaml`.
 */
export interface EventRule {
  readonly cause: StuckCause;
  /** The Event reasons it looks at, e.g. `FailedCreate`. */
  readonly reasons: readonly string[];
  /** The finding, or undefined when this event is not of its cause. */
  explain(event: ClusterEvent): Finding | undefined;
}
