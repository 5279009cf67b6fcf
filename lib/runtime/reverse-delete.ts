import { KubeObject, objectRef } from '../graph';
import { ClusterPort, WatchKey } from './ports';
import { Clock, ExponentialBackOff, isAbortError, systemClock } from './tasks';

/**
 * Deleting in reverse dependency order, shared by `prune` and `destroy`: a unit (a component, or
 * the bootstrap objects) is deleted only once every unit that depends on it is gone, and "gone"
 * means the API server no longer has its objects (finalizers and foreground cascades done), not
 * that the delete was accepted. Independent units are deleted concurrently. A unit that cannot be
 * deleted blocks the units it depends on (they stay, so nothing is left without its dependency).
 */

/** A group of objects deleted together. */
export interface DeletionUnit {
  /** Component name, or e.g. `(bootstrap)`. */
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
  /** For `blocked`: the dependant that could not be deleted. */
  readonly blockedBy?: string;
  readonly objects: readonly string[];
  readonly durationMs?: number;
}

export interface DeletionResult {
  readonly ok: boolean;
  readonly outcome: 'succeeded' | 'failed' | 'aborted';
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

/** How deletes cascade to owned objects. */
export type DeletePropagation = 'Foreground' | 'Background';

/**
 * The cluster operations deletion needs. Any `ClusterPort` fits; the Kubernetes port also takes a
 * propagation policy and can answer "is it gone?" from its watch cache (`observed`).
 */
export type DeletionPort = Pick<ClusterPort, 'get' | 'watch'> & {
  delete(object: KubeObject, options?: { readonly propagationPolicy?: DeletePropagation }): Promise<void>;
  observed?(object: KubeObject): Promise<KubeObject | undefined>;
};

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

/** Deletes `units` dependants-first; never throws for a failed unit (see the result). */
export async function deleteInReverseOrder(
  units: readonly DeletionUnit[],
  cluster: DeletionPort,
  options: DeletionOptions = {},
): Promise<DeletionResult> {
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const emit = (event: DeletionEvent) => options.onEvent?.(event);
  const at = () => new Date(clock.now()).toISOString();
  const known = new Set(units.map((u) => u.name));
  // dependants[x] = units that depend on x: they must be gone before x is deleted.
  const dependants = new Map<string, string[]>(units.map((u) => [u.name, []]));
  for (const unit of units)
    for (const dep of unit.dependsOn)
      if (known.has(dep) && dep !== unit.name) dependants.get(dep)?.push(unit.name);

  const results = new Map<string, DeletionUnitResult>();
  const running = new Set<string>();
  const concurrency = Math.max(1, options.concurrency ?? 8);
  emit({ type: 'delete-started', at: at(), units: units.map((u) => u.name) });

  await new Promise<void>((resolve) => {
    const pump = () => {
      for (const unit of units) {
        if (results.has(unit.name) || running.has(unit.name)) continue;
        const waitingFor = dependants.get(unit.name) ?? [];
        const blocker = waitingFor.find((d) => results.get(d) && results.get(d)?.state !== 'deleted');
        if (blocker) {
          const root = results.get(blocker)?.blockedBy ?? blocker;
          const reason = `not deleted: ${blocker} depends on it and is still there`;
          results.set(unit.name, {
            name: unit.name,
            state: 'blocked',
            blockedBy: root,
            reason,
            objects: unit.objects.map(objectRef),
          });
          emit({ type: 'unit-delete-blocked', at: at(), unit: unit.name, blockedBy: root, reason });
          continue;
        }
        if (options.signal?.aborted) {
          results.set(unit.name, {
            name: unit.name,
            state: 'not-started',
            reason: 'aborted',
            objects: unit.objects.map(objectRef),
          });
          continue;
        }
        if (running.size >= concurrency || !waitingFor.every((d) => results.get(d)?.state === 'deleted'))
          continue;
        running.add(unit.name);
        void deleteUnit(unit).then((result) => {
          running.delete(unit.name);
          results.set(unit.name, result);
          pump();
        });
      }
      if (running.size === 0) {
        // Anything left waits on a cycle among dependants; report it rather than hang.
        for (const unit of units) {
          if (!results.has(unit.name)) {
            results.set(unit.name, {
              name: unit.name,
              state: 'not-started',
              reason: 'waits on a dependency cycle',
              objects: unit.objects.map(objectRef),
            });
          }
        }
        resolve();
      }
    };
    pump();
  });

  async function deleteUnit(unit: DeletionUnit): Promise<DeletionUnitResult> {
    const begin = clock.now();
    const refs = unit.objects.map(objectRef);
    emit({ type: 'unit-deleting', at: at(), unit: unit.name });
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), options.unitTimeoutMs ?? 300_000);
    timer.unref();
    const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
    const pending = new Map<string, string>(); // ref -> last known state, for the timeout message
    try {
      // Reverse synthesis order: what was created last goes first.
      await Promise.all(
        [...unit.objects].reverse().map(async (object) => {
          const ref = objectRef(object);
          pending.set(ref, 'deleting');
          await cluster.delete(object, { propagationPolicy: options.propagationPolicy ?? 'Foreground' });
          emit({ type: 'object-deleted', at: at(), unit: unit.name, ref });
          await waitUntilGone(cluster, object, signal, clock, (state) => pending.set(ref, state));
          pending.delete(ref);
          emit({ type: 'object-gone', at: at(), unit: unit.name, ref });
        }),
      );
      const durationMs = clock.now() - begin;
      emit({ type: 'unit-deleted', at: at(), unit: unit.name, durationMs });
      return { name: unit.name, state: 'deleted', objects: refs, durationMs };
    } catch (error) {
      const aborted = options.signal?.aborted === true;
      const reason = aborted
        ? 'aborted while deleting'
        : timeout.signal.aborted
          ? `timed out waiting for ${[...pending].map(([ref, state]) => `${ref} (${state})`).join(', ')} to disappear`
          : errorMessage(error);
      emit({ type: 'unit-delete-failed', at: at(), unit: unit.name, reason });
      return { name: unit.name, state: 'failed', reason, objects: refs, durationMs: clock.now() - begin };
    } finally {
      clearTimeout(timer);
    }
  }

  const ordered = units.map((u) => results.get(u.name) as DeletionUnitResult);
  const counts: Record<DeletionState, number> = { deleted: 0, failed: 0, blocked: 0, 'not-started': 0 };
  for (const r of ordered) counts[r.state] += 1;
  const ok = counts.deleted === ordered.length;
  const result: DeletionResult = {
    ok,
    outcome: ok ? 'succeeded' : options.signal?.aborted ? 'aborted' : 'failed',
    units: ordered,
    counts,
    durationMs: clock.now() - started,
  };
  emit({ type: 'delete-finished', at: at(), result });
  return result;
}

/**
 * Resolves once `object` no longer exists: its DELETED watch event, or the watch's snapshot (the
 * Kubernetes port) or a GET (any port) saying it is absent. Without a snapshot, a slow GET
 * back-off covers the window in which the watch may have started after the object went.
 */
export async function waitUntilGone(
  cluster: DeletionPort,
  object: KubeObject,
  signal: AbortSignal,
  clock: Clock = systemClock,
  onState: (state: string) => void = () => undefined,
): Promise<void> {
  const key: WatchKey = {
    apiVersion: object.apiVersion,
    kind: object.kind,
    namespace: object.metadata.namespace,
  };
  const name = object.metadata.name;
  let gone = false;
  let wake: () => void = () => undefined;
  const stop = cluster.watch(key, (type, live) => {
    if (live.metadata.name !== name || live.metadata.namespace !== object.metadata.namespace) return;
    if (type === 'DELETED') {
      gone = true;
      wake();
    } else {
      onState(describe(live));
    }
  });
  try {
    const first = cluster.observed ? await cluster.observed(object) : await cluster.get(object);
    if (!first) return;
    onState(describe(first));
    const backOff = new ExponentialBackOff({ start: 500, max: 5_000, jitter: 0.2 });
    while (!gone) {
      const tick = new AbortController();
      wake = () => tick.abort();
      const both = AbortSignal.any([signal, tick.signal]);
      try {
        // With a watch snapshot the DELETED event is enough; the GET is a safety net for other ports.
        await clock.sleep(cluster.observed ? 60_000 : backOff.next(), both);
      } catch (error) {
        if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
        if (!isAbortError(error)) throw error;
      }
      if (gone) return;
      const live = await cluster.get(object);
      if (!live) return;
      onState(describe(live));
    }
  } finally {
    stop();
  }
}

function describe(live: KubeObject): string {
  const finalizers = Array.isArray(live.metadata.finalizers) ? (live.metadata.finalizers as string[]) : [];
  if (live.metadata.deletionTimestamp) {
    return finalizers.length > 0 ? `terminating, finalizers ${finalizers.join(', ')}` : 'terminating';
  }
  return 'still present';
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
