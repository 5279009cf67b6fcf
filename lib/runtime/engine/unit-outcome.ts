import { FailureCause } from '../result';
import { EndState } from './scheduler';

/**
 * How one unit ended a run, whatever its action: read once, by the runner, from the scheduler's
 * states and its own times. Operations only rename `done` (a rollout's `verified`, a deletion's
 * `deleted`) and format the times.
 */
export interface UnitOutcome {
  readonly name: string;
  readonly state: EndState;
  /** Why it failed, was blocked, skipped or did not start; absent when done. */
  readonly reason?: string;
  /**
   * The kind of failure behind `reason`: the action's for `failed`, `blocked` for `blocked`, the
   * run's stop cause for `not-started` (`blocked` when it ended without stopping: a failed
   * bootstrap); absent when done or skipped.
   */
  readonly cause?: FailureCause;
  /** For `blocked`: the failed unit at the root. */
  readonly blockedBy?: string;
  /** Epoch milliseconds of what happened to it; absent when it did not happen. */
  readonly startedAt?: number;
  readonly appliedAt?: number;
  readonly doneAt?: number;
  readonly failedAt?: number;
}

/** The state an operation reports for `state`, with `done` named by the operation. */
export function endStateAs<D extends string>(state: EndState, done: D): Exclude<EndState, 'done'> | D {
  return state === 'done' ? done : state;
}
