import type { Finding } from './diagnose/finding';
import { ApplyOutcome, ObjectStatus, StuckCause } from './ports';

/** What a run does: a rollout's `deploy` or `verify`, a deletion's `destroy` or `prune`. */
export type RunMode = 'deploy' | 'verify' | 'destroy' | 'prune';

/**
 * Where a component stands in a run.
 *
 * - `pending`: waiting for its gating dependencies (or for a concurrency slot).
 * - `applying`: its objects are being written (server-side apply).
 * - `verifying`: all objects written; waiting for every one of them to be Current.
 * - `verified`: every object Current (for a Job: completed) — dependants may start.
 * - `failed`: an apply was rejected, an object reported Failed, or it timed out.
 * - `blocked`: a (transitive) gating dependency failed; never started.
 * - `not-started`: the run ended (abort, run timeout, no progress, bootstrap failure) before it could start.
 * - `skipped`: excluded by the caller (`RolloutOptions.skip`); its dependants do not wait for it.
 */
export type ComponentState =
  'pending' | 'applying' | 'verifying' | 'verified' | 'failed' | 'blocked' | 'not-started' | 'skipped';

/** Every component state, in the order summaries list them. */
export const COMPONENT_STATES: readonly ComponentState[] = [
  'verified',
  'failed',
  'blocked',
  'not-started',
  'skipped',
  'pending',
  'applying',
  'verifying',
];

/** What a run did to, and last saw of, one object. */
export interface ObjectResult {
  /** `Kind/namespace/name` (see `objectRef`). */
  readonly ref: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  /** What server-side apply did; absent when the object was never applied (verify, or not reached). */
  readonly action?: ApplyOutcome['action'];
  /** The last status computed from the live object. */
  readonly status: ObjectStatus;
  /** The last status message, e.g. "2/3 replicas available". */
  readonly message: string;
  /** ISO 8601 time of the successful apply. */
  readonly appliedAt?: string;
  /** ISO 8601 time the object was first seen Current after our write. */
  readonly currentAt?: string;
}

/**
 * Why a component (or deletion unit) did not reach its goal, as data: the CLI maps it to an exit
 * code and a hint, never by reading `reason`.
 *
 * - `conflict`: server-side apply found fields another manager owns.
 * - `apply-rejected`: the API server refused a request for the object (apply, read, delete).
 * - `object-failed`: an object reported Failed (a Deployment past its progress deadline, …).
 * - a `StuckCause` (`quota-exceeded`, `storage-class-missing`, `admission-denied`, `pod-security`,
 *   `service-account-missing`, `image-pull`, `crash-loop`, `job-failed`, `unschedulable`): the
 *   cluster said why it is stuck, and it stayed so (see `StuckDetector`), or the failed object's
 *   own status said so (a Job out of retries).
 * - `timeout`: its time ran out (the component's, the run's, or no progress).
 * - `cluster-unreachable`: the API server stopped answering and did not come back within the
 *   API-loss timeout.
 * - `blocked`: something it depends on failed, so it never started.
 * - `aborted`: the caller stopped the run.
 * - `internal`: a bug in the engine, caught so the run still reports.
 */
export type FailureCause =
  | 'conflict'
  | 'apply-rejected'
  | 'object-failed'
  | StuckCause
  | 'timeout'
  | 'cluster-unreachable'
  | 'blocked'
  | 'aborted'
  | 'internal';

/**
 * What every unit of a run reports, whatever the run did to it: a deploy's or verify's
 * {@link ComponentResult}, a destroy's or prune's {@link DeletionUnitResult}. The CLI's summary and
 * hints read runs through it.
 */
export interface UnitResult<State extends string = ComponentState | DeletionState> {
  /** The component's name, or a bootstrap unit's (`bootstrap`, `bootstrap namespaces`, …). */
  readonly name: string;
  readonly state: State;
  /** Why it failed, was blocked or did not start; absent when it reached its goal. */
  readonly reason?: string;
  /** The kind of failure behind `reason` (for `not-started`: why the run stopped); absent when it reached its goal or was skipped. */
  readonly cause?: FailureCause;
  /** For `blocked`: the unit at the root of the block (a failed component; for a deletion, the unit that could not be deleted). */
  readonly blockedBy?: string;
}

/** The outcome of one component, oper8's completion state per node. */
export interface ComponentResult extends UnitResult<ComponentState> {
  readonly service: string;
  readonly constructPath: string;
  /** What the cluster says about the pods behind a failed or slow component, in actionable words. */
  readonly diagnosis?: readonly string[];
  /** The typed causes in `diagnosis` (a quota, a missing StorageClass, a crash loop, …). */
  readonly findings?: readonly Finding[];
  readonly startedAt?: string;
  /** When the last object was applied (the component entered `verifying`). */
  readonly appliedAt?: string;
  readonly verifiedAt?: string;
  readonly failedAt?: string;
  readonly durations: {
    /** started -> last object applied. */
    readonly applyMs?: number;
    /** last object applied -> verified (or failed). */
    readonly verifyMs?: number;
    /** started -> verified (or failed). */
    readonly totalMs?: number;
  };
  readonly objects: readonly ObjectResult[];
}

/**
 * How the run as a whole ended; `unreachable` when the API server stopped answering and did not
 * come back within the API-loss timeout.
 */
export type RunOutcome = 'succeeded' | 'failed' | 'aborted' | 'timed-out' | 'no-progress' | 'unreachable';

/** The bootstrap phase: namespaces, CRDs and shared RBAC applied before any component. */
export interface BootstrapResult {
  readonly state: 'verified' | 'failed' | 'not-started';
  readonly reason?: string;
  /** The kind of failure behind `reason`. */
  readonly cause?: FailureCause;
  readonly objects: readonly ObjectResult[];
}

/**
 * What every run reports, whatever it does: how it ended, when, and how many units ended in each
 * of the states `State` (every state present, zeros included). {@link RunResult} is the union of
 * the two shapes built on it.
 */
export interface RunResultBase<Mode extends RunMode, State extends string> {
  readonly mode: Mode;
  readonly outcome: RunOutcome;
  /** True when every unit reached its goal (or was skipped). */
  readonly ok: boolean;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly counts: Readonly<Record<State, number>>;
}

/** The data a deploy or verify produces; the CLI only renders it (`--json` prints it as is). */
export interface RolloutResult extends RunResultBase<'deploy' | 'verify', ComponentState> {
  /** `deploy` writes and verifies; `verify` only observes. */
  readonly mode: 'deploy' | 'verify';
  readonly bootstrap: BootstrapResult;
  /** One entry per component, sorted by name. */
  readonly components: readonly ComponentResult[];
}

/** Where a deletion unit ended: `deleted` is its objects gone from the API server. */
export type DeletionState = 'deleted' | 'failed' | 'blocked' | 'not-started';

/** Every deletion state, in the order summaries list them. */
export const DELETION_STATES: readonly DeletionState[] = ['deleted', 'failed', 'blocked', 'not-started'];

/** How one deletion unit ended. */
export interface DeletionUnitResult extends UnitResult<DeletionState> {
  /** `Kind/namespace/name` of each of its objects. */
  readonly objects: readonly string[];
  readonly durationMs?: number;
}

/** The data a destroy or prune produces; the CLI only renders it (`--json` prints it as is). */
export interface DeletionResult extends RunResultBase<'destroy' | 'prune', DeletionState> {
  /** `destroy` deletes a whole cloud; `prune` what left the manifests. */
  readonly mode: 'destroy' | 'prune';
  /** `unreachable`: the API server stopped answering and did not come back within the API-loss timeout. */
  readonly outcome: Extract<RunOutcome, 'succeeded' | 'failed' | 'aborted' | 'unreachable'>;
  /** One entry per unit, in the order they were given (a destroy's bootstrap units last). */
  readonly units: readonly DeletionUnitResult[];
}

/** What any run produces, told apart by `mode`; the `run-finished` event carries it. */
export type RunResult = RolloutResult | DeletionResult;

/** Every unit of a run, whatever its action: a rollout's components, a deletion's units. */
export function unitResults(result: RunResult): readonly UnitResult[] {
  return 'units' in result ? result.units : result.components;
}

/** Every failure cause a run reports, a rollout's bootstrap first, in unit order (repeats kept). */
export function failureCauses(result: RunResult): FailureCause[] {
  const bootstrap = 'bootstrap' in result ? [result.bootstrap.cause] : [];
  return [...bootstrap, ...unitResults(result).map((unit) => unit.cause)].filter(
    (cause): cause is FailureCause => cause !== undefined,
  );
}

/**
 * Counts units per state, with every one of `states` present (zeros included); without `states`,
 * a rollout's component states.
 */
export function countStates(
  units: readonly Pick<UnitResult<ComponentState>, 'state'>[],
): Record<ComponentState, number>;
export function countStates<State extends string>(
  units: readonly Pick<UnitResult<State>, 'state'>[],
  states: readonly State[],
): Record<State, number>;
export function countStates(
  units: readonly Pick<UnitResult<string>, 'state'>[],
  states: readonly string[] = COMPONENT_STATES,
): Record<string, number> {
  const counts = Object.fromEntries(states.map((s) => [s, 0]));
  for (const unit of units) counts[unit.state] += 1;
  return counts;
}
