import { RunEvent } from '../events';
import { ClusterUnreachableError } from '../cluster-unreachable-error';
import { ApplyConflictError, ClusterPort } from '../ports';
import { FailureCause } from '../result';
import { Clock, isAbortError } from '../timing/clock';
import { ExponentialBackOff } from '../timing/exponential-back-off';
import { TrackedObject } from './tracked-object';
import { WatchRouter } from './watch-router';
import { errorMessage } from '../error-message';

/** Outcome of writing or reading one object. */
export type ObjectAttempt =
  { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly cause: FailureCause };

/** Settings the object-level work of a rollout shares. */
export interface ObjectSessionSettings {
  readonly fieldManager: string;
  readonly forceConflicts: boolean;
  /** Tries of a retryable apply error before the object fails. */
  readonly applyAttempts: number;
  readonly clock: Clock;
  readonly emit: (event: RunEvent) => void;
}

/**
 * The object-level half of apply-and-wait and read-and-judge, shared by the bootstrap and every
 * component of one run: server-side apply with retry, reads, one shared watch per kind and
 * namespace, and the `object-applied` / `object-status` events. After every observed change it
 * calls `onChange` so the owner of the object judges it.
 */
export class ObjectSession {
  readonly hub: WatchRouter;

  constructor(
    private readonly cluster: ClusterPort,
    private readonly settings: ObjectSessionSettings,
    private readonly onChange: (tracked: TrackedObject, changed: boolean) => void,
  ) {
    this.hub = new WatchRouter(cluster);
  }

  /** Listens to the watch events of `tracked` while `matters()` holds. Returns the unsubscribe. */
  observe(tracked: TrackedObject, matters: () => boolean): () => void {
    return this.hub.observe(tracked.desired, (type, live) => {
      if (!matters()) return;
      this.changed(tracked, tracked.onWatchEvent(type, live, this.settings.clock.now()));
    });
  }

  /** Applies one object, retrying errors the port marks `retryable` with jittered back-off. */
  async apply(tracked: TrackedObject, signal: AbortSignal): Promise<ObjectAttempt> {
    const { clock } = this.settings;
    const backOff = new ExponentialBackOff({ start: 500, base: 2, max: 10_000, jitter: 0.2 });
    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await this.cluster.apply(tracked.desired, {
          fieldManager: this.settings.fieldManager,
          force: this.settings.forceConflicts,
          dryRun: false,
        });
        const now = clock.now();
        this.settings.emit({
          type: 'object-applied',
          at: iso(now),
          ...(tracked.component ? { unit: tracked.component } : {}),
          ref: tracked.ref,
          action: outcome.action,
        });
        this.changed(tracked, tracked.onApplied(outcome, now));
        return { ok: true };
      } catch (error) {
        const conflict = error instanceof ApplyConflictError;
        const reason = conflict ? error.message : `${tracked.ref}: apply failed: ${errorMessage(error)}`;
        const cause: FailureCause = conflict
          ? 'conflict'
          : error instanceof ClusterUnreachableError
            ? 'cluster-unreachable'
            : 'apply-rejected';
        if (!isRetryable(error) || attempt >= this.settings.applyAttempts || signal.aborted) {
          return { ok: false, reason: attempt > 1 ? `${reason} (after ${attempt} attempts)` : reason, cause };
        }
        try {
          await clock.sleep(backOff.next(), signal);
        } catch (sleepError) {
          if (isAbortError(sleepError)) return { ok: false, reason, cause };
          throw sleepError;
        }
      }
    }
  }

  /** Reads one object (verify): a refused read fails it, a missing object is judged NotFound. */
  async read(tracked: TrackedObject): Promise<ObjectAttempt> {
    try {
      const live = await this.cluster.get(tracked.desired);
      this.changed(tracked, tracked.onRead(live, this.settings.clock.now()));
      return { ok: true };
    } catch (error) {
      return {
        ok: false,
        reason: `${tracked.ref}: could not read it: ${errorMessage(error)}`,
        cause: error instanceof ClusterUnreachableError ? 'cluster-unreachable' : 'apply-rejected',
      };
    }
  }

  close(): void {
    this.hub.close();
  }

  private changed(tracked: TrackedObject, changed: boolean): void {
    if (changed) {
      this.settings.emit({
        type: 'object-status',
        at: iso(this.settings.clock.now()),
        ...(tracked.component ? { unit: tracked.component } : {}),
        ref: tracked.ref,
        status: tracked.status,
        message: tracked.message,
      });
      // The real port caches discovery; a CRD that just became established must become visible.
      if (tracked.desired.kind === 'CustomResourceDefinition' && tracked.status === 'Current')
        this.cluster.invalidateDiscovery?.();
    }
    this.onChange(tracked, changed);
  }
}

function isRetryable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
}

/** ISO 8601 of a clock reading. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
