import { KubeObject, objectRef } from '../../graph';
import { DagRunner } from '../engine/dag-runner';
import { DeleteAndWaitGone, waitUntilGone } from '../engine/delete-and-wait-gone';
import { ClusterPort, DeletePropagation } from '../ports';
import { countStates, DELETION_STATES, DeletionResult, DeletionUnitResult } from '../result';
import { RunEvent } from '../events';
import { unitEvents } from '../engine/unit-events';
import { iso } from '../engine/object-session';
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
  /** Run events as they happen (the same vocabulary as deploy's; the CLI renders them). */
  readonly onEvent?: (event: RunEvent) => void;
  /** What the deletion is, for its events and result. @default 'destroy' */
  readonly mode?: DeletionResult['mode'];
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
  const mode = options.mode ?? 'destroy';
  const emit = (event: RunEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // A broken renderer must not break the deletion.
    }
  };
  const at = () => iso(clock.now());
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
    unitEvents(emit, (unit) => runner.times.get(unit)),
    {
      clock,
      signal: options.signal,
      abortReason: 'aborted',
      unitTimeoutMs: options.unitTimeoutMs ?? 300_000,
      availability: cluster.availability,
    },
  );
  emit({ type: 'run-started', at: at(), mode, units: units.map((u) => u.name), bootstrapObjects: 0 });
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
  const counts = countStates(ordered, DELETION_STATES);
  const ok = counts.deleted === ordered.length;
  const finished = clock.now();
  const result: DeletionResult = {
    mode,
    ok,
    outcome: ok
      ? 'succeeded'
      : options.signal?.aborted
        ? 'aborted'
        : runner.stopped?.outcome === 'unreachable'
          ? 'unreachable'
          : 'failed',
    startedAt: iso(started),
    finishedAt: iso(finished),
    durationMs: finished - started,
    units: ordered,
    counts,
  };
  emit({ type: 'run-finished', at: result.finishedAt, result });
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
