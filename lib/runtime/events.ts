import type { Finding } from './diagnose/finding';
import { ApplyOutcome, ObjectStatus } from './ports';
import { RunMode, RunResult } from './result';

/** Fields every event carries. */
interface EventBase {
  /** ISO 8601 time the event happened. */
  readonly at: string;
}

/**
 * The run began. `units` lists every unit, sorted: the components of a deploy or verify, the
 * deletion units of a destroy or prune (components, then the bootstrap phases).
 */
export interface RunStartedEvent extends EventBase {
  readonly type: 'run-started';
  readonly mode: RunMode;
  readonly units: readonly string[];
  /** How many bootstrap objects a deploy or verify applies or reads first; 0 for a deletion. */
  readonly bootstrapObjects: number;
}

/** A unit left `pending`: what it needs is done and it holds a concurrency slot. */
export interface UnitStartedEvent extends EventBase {
  readonly type: 'unit-started';
  readonly unit: string;
}

/** One object was accepted by server-side apply. `unit` is absent for bootstrap objects. */
export interface ObjectAppliedEvent extends EventBase {
  readonly type: 'object-applied';
  readonly unit?: string;
  readonly ref: string;
  readonly action: ApplyOutcome['action'];
}

/** The computed status of an object changed (status or message). */
export interface ObjectStatusEvent extends EventBase {
  readonly type: 'object-status';
  readonly unit?: string;
  readonly ref: string;
  readonly status: ObjectStatus;
  readonly message: string;
}

/** The API server accepted the delete of an object; the unit waits until it is gone. */
export interface ObjectDeletedEvent extends EventBase {
  readonly type: 'object-deleted';
  readonly unit: string;
  readonly ref: string;
}

/** The API server no longer has the object (finalizers and cascades done). */
export interface ObjectGoneEvent extends EventBase {
  readonly type: 'object-gone';
  readonly unit: string;
  readonly ref: string;
}

/** All objects of a component are applied; it now waits for them to become Current (deploy). */
export interface UnitAppliedEvent extends EventBase {
  readonly type: 'unit-applied';
  readonly unit: string;
  readonly durationMs: number;
}

/**
 * The unit reached its goal — a component verified (every object Current), a deletion unit deleted
 * (its objects gone) — and the units that need it may start.
 */
export interface UnitDoneEvent extends EventBase {
  readonly type: 'unit-done';
  readonly unit: string;
  readonly durationMs: number;
}

/** The unit failed (rejected, object Failed, timeout, abort) — `reason` says which object and why. */
export interface UnitFailedEvent extends EventBase {
  readonly type: 'unit-failed';
  readonly unit: string;
  readonly reason: string;
  readonly diagnosis?: readonly string[];
}

/** The unit will not start because `blockedBy` failed (a deletion keeps its objects). */
export interface UnitBlockedEvent extends EventBase {
  readonly type: 'unit-blocked';
  readonly unit: string;
  readonly blockedBy: string;
  readonly reason: string;
}

/**
 * A running component is slow (or stuck); this is what the cluster says about its pods and their
 * Events. Emitted off the hot path, after a diagnosis round whose words differ from the last one.
 */
export interface UnitDiagnosisEvent extends EventBase {
  readonly type: 'unit-diagnosis';
  readonly unit: string;
  readonly diagnosis: readonly string[];
  /** The typed causes in `diagnosis`. */
  readonly findings: readonly Finding[];
}

/**
 * The API server stopped answering: the run waits for it until `waitingUntil` (the API-loss
 * timeout), with unit timers paused; it then either comes back (`api-restored`) or the run ends
 * with outcome `unreachable`.
 */
export interface ApiLostEvent extends EventBase {
  readonly type: 'api-lost';
  /** How it was noticed, e.g. `no answer to GET /readyz within 3000 ms`, `connect ECONNREFUSED …`. */
  readonly reason: string;
  /** ISO 8601 time the run gives up waiting. */
  readonly waitingUntil: string;
}

/** The API server answers again; the run goes on where it was. */
export interface ApiRestoredEvent extends EventBase {
  readonly type: 'api-restored';
  /** How long it was away. */
  readonly lostForMs: number;
}

/** The run ended; `result` is the complete outcome (a deletion's for destroy and prune). */
export interface RunFinishedEvent extends EventBase {
  readonly type: 'run-finished';
  readonly result: RunResult;
}

/**
 * Everything a run reports while it runs — deploy, verify, destroy and prune alike — as a
 * discriminated union on `type`. The CLI renders these (one line per event in CI, a live tree on a
 * terminal) and `--json` streams them one per line.
 */
export type RunEvent =
  | RunStartedEvent
  | UnitStartedEvent
  | ObjectAppliedEvent
  | ObjectStatusEvent
  | ObjectDeletedEvent
  | ObjectGoneEvent
  | UnitAppliedEvent
  | UnitDoneEvent
  | UnitFailedEvent
  | UnitBlockedEvent
  | UnitDiagnosisEvent
  | ApiLostEvent
  | ApiRestoredEvent
  | RunFinishedEvent;

/** Every event type, for exhaustive renderers. */
export type RunEventType = RunEvent['type'];
