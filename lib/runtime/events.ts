import type { Finding } from './diagnose/finding';
import { ApplyOutcome, ObjectStatus } from './ports';
import { RolloutResult } from './result';

/** Fields every event carries. */
interface EventBase {
  /** ISO 8601 time the event happened. */
  readonly at: string;
}

/** The run began; `components` lists every component in the graph, sorted. */
export interface RunStartedEvent extends EventBase {
  readonly type: 'run-started';
  readonly mode: 'deploy' | 'verify';
  readonly components: readonly string[];
  readonly bootstrapObjects: number;
}

/** A component left `pending`: its gating edges are satisfied and it holds a concurrency slot. */
export interface ComponentStartedEvent extends EventBase {
  readonly type: 'component-started';
  readonly component: string;
}

/** One object was accepted by server-side apply. `component` is absent for bootstrap objects. */
export interface ObjectAppliedEvent extends EventBase {
  readonly type: 'object-applied';
  readonly component?: string;
  readonly ref: string;
  readonly action: ApplyOutcome['action'];
}

/** The computed status of an object changed (status or message). */
export interface ObjectStatusEvent extends EventBase {
  readonly type: 'object-status';
  readonly component?: string;
  readonly ref: string;
  readonly status: ObjectStatus;
  readonly message: string;
}

/** All objects of a component are applied; it now waits for them to become Current. */
export interface ComponentAppliedEvent extends EventBase {
  readonly type: 'component-applied';
  readonly component: string;
  readonly durationMs: number;
}

/** Every object of the component is Current; its dependants may start. */
export interface ComponentVerifiedEvent extends EventBase {
  readonly type: 'component-verified';
  readonly component: string;
  readonly durationMs: number;
}

/** The component failed (apply rejected, object Failed, timeout, abort) — `reason` says which object and why. */
export interface ComponentFailedEvent extends EventBase {
  readonly type: 'component-failed';
  readonly component: string;
  readonly reason: string;
  readonly diagnosis?: readonly string[];
}

/** The component will not start because `blockedBy` failed. */
export interface ComponentBlockedEvent extends EventBase {
  readonly type: 'component-blocked';
  readonly component: string;
  readonly blockedBy: string;
  readonly reason: string;
}

/**
 * A running component is slow (or stuck); this is what the cluster says about its pods and their
 * Events. Emitted off the hot path, after a diagnosis round whose words differ from the last one.
 */
export interface ComponentDiagnosisEvent extends EventBase {
  readonly type: 'component-diagnosis';
  readonly component: string;
  readonly diagnosis: readonly string[];
  /** The typed causes in `diagnosis`. */
  readonly findings: readonly Finding[];
}

/**
 * The API server stopped answering: the run waits for it until `waitingUntil` (the API-loss
 * timeout), with component timers paused; it then either comes back (`api-restored`) or the run
 * ends with outcome `unreachable`.
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

/** The run ended; `result` is the complete outcome. */
export interface RunFinishedEvent extends EventBase {
  readonly type: 'run-finished';
  readonly result: RolloutResult;
}

/**
 * Everything a run reports while it runs, as a discriminated union on `type`. The CLI renders these
 * (one line per event in CI, a live tree on a terminal) and `--json` streams them one per line.
 */
export type RolloutEvent =
  | RunStartedEvent
  | ComponentStartedEvent
  | ObjectAppliedEvent
  | ObjectStatusEvent
  | ComponentAppliedEvent
  | ComponentVerifiedEvent
  | ComponentFailedEvent
  | ComponentBlockedEvent
  | ComponentDiagnosisEvent
  | ApiLostEvent
  | ApiRestoredEvent
  | RunFinishedEvent;

/** Every event type, for exhaustive renderers. */
export type RolloutEventType = RolloutEvent['type'];
