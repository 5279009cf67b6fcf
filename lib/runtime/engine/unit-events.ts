import { RunEvent } from '../events';
import { iso } from './object-session';
import { RunnerListener } from './runner-listener';
import { UnitTimes } from './unit-times';

/** What an operation adds to the unit events it shares with every other. */
export interface UnitEventHooks {
  /** What the cluster said about a failed unit, carried on its `unit-failed` event. */
  diagnosisOf?(unit: string): readonly string[] | undefined;
  /** After a unit failed and its dependants were reported blocked (deploy diagnoses it). */
  afterFailure?(unit: string, at: number, diagnose: boolean): void;
}

/**
 * The runner's unit lifecycle as run events, the same for deploy, verify, destroy and prune:
 * `unit-started`, `unit-applied`, `unit-done`, `unit-failed` with a `unit-blocked` per dependant it
 * blocked, `api-lost`, `api-restored`.
 */
export function unitEvents(
  emit: (event: RunEvent) => void,
  timesOf: (unit: string) => UnitTimes | undefined,
  hooks: UnitEventHooks = {},
): RunnerListener {
  const since = (unit: string, at: number) => at - (timesOf(unit)?.startedAt ?? at);
  return {
    started: (unit, at) => emit({ type: 'unit-started', at: iso(at), unit }),
    applied: (unit, at) => emit({ type: 'unit-applied', at: iso(at), unit, durationMs: since(unit, at) }),
    done: (unit, at) => emit({ type: 'unit-done', at: iso(at), unit, durationMs: since(unit, at) }),
    failed: (unit, at, reason, blocked, diagnose) => {
      const diagnosis = hooks.diagnosisOf?.(unit);
      emit({ type: 'unit-failed', at: iso(at), unit, reason, ...(diagnosis ? { diagnosis } : {}) });
      for (const b of blocked)
        emit({ type: 'unit-blocked', at: iso(at), unit: b.name, blockedBy: b.blockedBy, reason: b.reason });
      hooks.afterFailure?.(unit, at, diagnose);
    },
    apiLost: (at, state) =>
      emit({ type: 'api-lost', at: iso(at), reason: state.reason, waitingUntil: iso(state.deadline) }),
    apiRestored: (at, lostForMs) => emit({ type: 'api-restored', at: iso(at), lostForMs }),
  };
}
