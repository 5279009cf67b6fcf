import { KubeObject, objectRef } from '../../graph';
import { DagRunner } from '../engine/dag-runner';
import { DeleteAndWaitGone, waitUntilGone } from '../engine/delete-and-wait-gone';
import { ClusterPort, DeletePropagation } from '../ports';
import { FailureCause } from '../result';
import { UnitScheduler } from '../engine/scheduler';
import { UnitGraph } from '../engine/unit-graph';
import { endStateAs, UnitOutcome } from '../engine/unit-outcome';
import { Clock, systemClock } from '../timing/clock';
import { DEFAULT_CONCURRENCY } from '../defaults';

/**
 * Deleting in reverse dependency order, shared by `prune` and `destroy`: a unit (a component, or
 * the bootstrap objects) is deleted only once every unit that depends on it is gone, and "gone"
 * means the API server no longer has its objects (finalizers and foreground cascades done), not
 * that the delete was accepted. Independent units are deleted concurrently. A unit that cannot be
 * deleted blocks the units it depends on (they stay, so nothing is left without its dependency).
 */

/** A group of objects deleted together. */
export interface DeletionUnit {
  /** Component name, or a bootstrap unit (`bootstrap`, `bootstrap namespaces`, …). */
  readonly name: string;
  /** Units this one depends on: they are deleted after it. */
  readonly dependsOn: readonly string[];
  readonly objects: readonly KubeObject[];
}

export type DeletionState = 'deleted' | 'failed' | 'blocked' | 'not-started';

export interface DeletionUnitResult {
  readonly name: string;
  readonly state: DeletionState;
  readonly reason?: string;
  /** The kind of failure behind `reason` (for `not-started`: why the run stopped); absent when deleted. */
  readonly cause?: FailureCause;
  /** For `blocked`: the unit at the root that could not be deleted. */
  readonly blockedBy?: string;
  readonly objects: readonly string[];
  readonly durationMs?: number;
}

export interface DeletionResult {
  readonly ok: boolean;
  /** `unreachable`: the API server stopped answering and did not come back within the API-loss timeout. */
  readonly outcome: 'succeeded' | 'failed' | 'aborted' | 'unreachable';
  readonly units: readonly DeletionUnitResult[];
  readonly counts: Readonly<Record<DeletionState, number>>;
  readonly durationMs: number;
}

/** What a deletion run reports while it runs (the CLI renders these like rollout events). */
export type DeletionEvent =
  | { readonly type: 'delete-started'; readonly at: string; readonly units: readonly string[] }
  | { readonly type: 'unit-deleting'; readonly at: string; readonly unit: string }
  | { readonly type: 'object-deleted'; readonly at: string; readonly unit: string; readonly ref: string }
  | { readonly type: 'object-gone'; readonly at: string; readonly unit: string; readonly ref: string }
  | { readonly type: 'unit-deleted'; readonly at: string; readonly unit: string; readonly durationMs: number }
  | {
      readonly type: 'unit-delete-failed';
      readonly at: string;
      readonly unit: string;
      readonly reason: string;
    }
  | {
      readonly type: 'unit-delete-blocked';
      readonly at: string;
      readonly unit: string;
      readonly blockedBy: string;
      readonly reason: string;
    }
  | { readonly type: 'delete-finished'; readonly at: string; readonly result: DeletionResult };

export interface DeletionOptions {
  /** Most units deleting at once. @default 8 */
  readonly concurrency?: number;
  /**
   * `Foreground` keeps a Deployment until its ReplicaSets and Pods are gone, so "gone" means the
   * whole workload is. @default 'Foreground'
   */
  readonly propagationPolicy?: DeletePropagation;
  /** How long one unit may take to disappear. @default 300000 */
  readonly unitTimeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: DeletionEvent) => void;
  readonly clock?: Clock;
}

/**
 * Deletes `units` dependants-first on the DAG runner, with the scheduler over reversed edges (a
 * unit "needs" its dependants gone): the same concurrency, stop and blocked reasons as deploy.
 * Never throws for a failed unit (see the result).
 */
export async function deleteInReverseOrder(
  units: readonly DeletionUnit[],
  cluster: ClusterPort,
  options: DeletionOptions = {},
): Promise<DeletionResult> {
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const emit = (event: DeletionEvent) => options.onEvent?.(event);
  const at = (ms = clock.now()) => new Date(ms).toISOString();
  const scheduler = new UnitScheduler(reversedGraph(units), {
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
  });
  const actions = new Map(
    units.map((unit) => [
      unit.name,
      new DeleteAndWaitGone(unit.objects, cluster, options.propagationPolicy ?? 'Foreground', {
        deleted: (ref) => emit({ type: 'object-deleted', at: at(), unit: unit.name, ref }),
        gone: (ref) => emit({ type: 'object-gone', at: at(), unit: unit.name, ref }),
      }),
    ]),
  );
  const runner: DagRunner = new DagRunner(
    scheduler,
    (name) => actions.get(name) as DeleteAndWaitGone,
    {
      started: (unit, ms) => emit({ type: 'unit-deleting', at: at(ms), unit }),
      applied: () => undefined,
      done: (unit, ms) =>
        emit({
          type: 'unit-deleted',
          at: at(ms),
          unit,
          durationMs: ms - (runner.times.get(unit)?.startedAt ?? ms),
        }),
      failed: (unit, ms, reason, blocked) => {
        emit({ type: 'unit-delete-failed', at: at(ms), unit, reason });
        for (const b of blocked)
          emit({
            type: 'unit-delete-blocked',
            at: at(ms),
            unit: b.name,
            blockedBy: b.blockedBy,
            reason: b.reason,
          });
      },
    },
    {
      clock,
      signal: options.signal,
      abortReason: 'aborted',
      unitTimeoutMs: options.unitTimeoutMs ?? 300_000,
      availability: cluster.availability,
    },
  );
  emit({ type: 'delete-started', at: at(), units: units.map((u) => u.name) });
  await runner.execute();

  // In the order of `units` (a destroy's bootstrap phases come last).
  const outcomes = new Map(runner.outcomes().map((outcome) => [outcome.name, outcome]));
  const ordered: DeletionUnitResult[] = units.map((unit) => {
    const outcome = outcomes.get(unit.name) as UnitOutcome;
    const { startedAt, doneAt, failedAt } = outcome;
    const endedAt = doneAt ?? failedAt;
    const state = endStateAs(outcome.state, 'deleted');
    // The scheduler is given no units to skip.
    if (state === 'skipped') throw new Error(`internal error: deletion unit ${outcome.name} was skipped`);
    return {
      name: outcome.name,
      state,
      ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
      ...(outcome.cause !== undefined ? { cause: outcome.cause } : {}),
      ...(outcome.blockedBy !== undefined ? { blockedBy: outcome.blockedBy } : {}),
      objects: unit.objects.map(objectRef),
      ...(startedAt !== undefined && endedAt !== undefined ? { durationMs: endedAt - startedAt } : {}),
    };
  });
  const counts: Record<DeletionState, number> = { deleted: 0, failed: 0, blocked: 0, 'not-started': 0 };
  for (const r of ordered) counts[r.state] += 1;
  const ok = counts.deleted === ordered.length;
  const result: DeletionResult = {
    ok,
    outcome: ok
      ? 'succeeded'
      : options.signal?.aborted
        ? 'aborted'
        : runner.stopped?.outcome === 'unreachable'
          ? 'unreachable'
          : 'failed',
    units: ordered,
    counts,
    durationMs: clock.now() - started,
  };
  emit({ type: 'delete-finished', at: at(), result });
  return result;
}

/**
 * The units for the scheduler, needs reversed: a unit needs every unit that depends on it to be
 * gone first (unknown and self references are dropped).
 */
function reversedGraph(units: readonly DeletionUnit[]): UnitGraph {
  const known = new Set(units.map((u) => u.name));
  return {
    units: units.map((unit) => unit.name),
    needs: units.flatMap((unit) =>
      unit.dependsOn
        .filter((dep) => known.has(dep) && dep !== unit.name)
        .map((dep) => ({ from: dep, to: unit.name })),
    ),
  };
}

export { waitUntilGone };
