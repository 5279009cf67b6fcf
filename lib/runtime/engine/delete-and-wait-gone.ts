import { KubeObject, objectRef } from '../../graph';
import { ClusterPort, DeletePropagation, WatchKey } from '../ports';
import { Clock, isAbortError, systemClock } from '../timing/clock';
import { ExponentialBackOff } from '../timing/exponential-back-off';
import { errorMessage } from '../error-message';
import { UnitAction, UnitContext } from './unit-action';

/** What delete-and-wait-gone reports about single objects. */
export interface DeleteReporter {
  deleted(ref: string): void;
  gone(ref: string): void;
}

/**
 * Destroy's and prune's unit action: deletes a unit's objects (in reverse synthesis order: what
 * was created last goes first) and waits until the API server no longer has them — finalizers and
 * foreground cascades done, not just the delete accepted.
 */
export class DeleteAndWaitGone implements UnitAction {
  /** ref -> what it was last seen doing, for the timeout message. */
  private readonly pending = new Map<string, string>();

  constructor(
    private readonly objects: readonly KubeObject[],
    private readonly cluster: ClusterPort,
    private readonly propagationPolicy: DeletePropagation,
    private readonly report: DeleteReporter,
  ) {}

  async start(context: UnitContext): Promise<void> {
    try {
      await Promise.all(
        [...this.objects].reverse().map(async (object) => {
          const ref = objectRef(object);
          this.pending.set(ref, 'deleting');
          await this.cluster.delete(object, { propagationPolicy: this.propagationPolicy });
          this.report.deleted(ref);
          await waitUntilGone(this.cluster, object, context.signal, context.clock, (state) =>
            this.pending.set(ref, state),
          );
          this.pending.delete(ref);
          this.report.gone(ref);
        }),
      );
      context.done();
    } catch (error) {
      // After a timeout or a stop the runner has ended the unit already, with its own reason.
      context.fail(errorMessage(error), 'apply-rejected');
    }
  }

  timedOut(): string {
    const what = [...this.pending].map(([ref, state]) => `${ref} (${state})`).join(', ');
    return `timed out waiting for ${what} to disappear`;
  }

  stoppedWhile(): string {
    return ' while deleting';
  }
}

/**
 * Resolves once `object` no longer exists: its DELETED watch event, or the watch's snapshot (a
 * port with `observed`) or a GET (any port) saying it is absent. Without a snapshot, a slow GET
 * back-off covers the window in which the watch may have started after the object went.
 */
export async function waitUntilGone(
  cluster: Pick<ClusterPort, 'get' | 'watch' | 'observed'>,
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
