import { Clock } from '../timing/clock';
import { FailureCause } from '../result';

/**
 * What the DAG runner lends one unit while it runs. Everything a unit action reports goes through
 * it, so the runner (and through it the scheduler) stays the only place that changes a unit's state.
 */
export interface UnitContext {
  readonly name: string;
  readonly clock: Clock;
  /** Aborted the moment the unit ends (done, failed, timed out, run stopped). */
  readonly signal: AbortSignal;
  /** True while the unit holds its slot (it has not ended). */
  isRunning(): boolean;
  /** Its writes are done; what is left is waiting (a component's `applying` -> `verifying`). */
  applied(): void;
  /** The unit reached its goal (`verified`): its dependants may start. */
  done(): void;
  /** The unit failed; its dependants are blocked. A no-op once it has ended. */
  fail(reason: string, cause: FailureCause): void;
  /** Something changed: resets the no-progress clock. */
  progress(): void;
  /** Wakes whoever waits in `changed()`. */
  notify(): void;
  /** Resolves on the next `notify()` of any unit or of the run. */
  changed(): Promise<void>;
  /** Runs `work` off the unit's path; an exception in it fails the running units as internal. */
  track(work: Promise<void>): void;
  /** Calls `fn` after `ms` unless the unit ended first. */
  after(ms: number, fn: () => void): void;
}

/**
 * One of the engine's three unit actions (apply-and-wait, read-and-judge, delete-and-wait-gone):
 * the doing half of a unit. The runner decides when it starts and ends; the action only acts and
 * reports through its `UnitContext`.
 */
export interface UnitAction {
  /** Does the unit's work; ends by calling `done` or `fail` (or is ended by the runner). */
  start(context: UnitContext): Promise<void>;
  /** Why the unit failed when its time limit of `ms` ran out, naming what it waited for. */
  timedOut(ms: number): string;
  /** Appended to the run's stop reason: what the unit was doing (`' while applying …'`). */
  stoppedWhile(): string;
}
