import { KubeObject, objectRef } from '../../graph';
import { ApplyOutcome, ObjectStatus, ReadinessResult, StuckCause, WatchEventType } from '../ports';
import { ObjectResult } from '../result';
import { hashObject } from '../kube/object-diff';
import { goneReadiness } from '../readiness/gone';
import { objectReadiness, ReadinessOptions } from '../readiness/readiness-table';

/**
 * The engine's view of one object during a run: what we applied, the newest live object the watch
 * (or the apply response) showed, and the status computed from them. Pure bookkeeping, no I/O;
 * every `on…` method returns true when the status or message changed.
 */
export class TrackedObject {
  readonly ref: string;
  status: ObjectStatus = 'Unknown';
  message: string;
  /** For Failed: the kind of failure, when its readiness rule knows it. */
  cause?: StuckCause;
  applied?: ApplyOutcome;
  live?: KubeObject;
  appliedAt?: number;
  currentAt?: number;
  /** Set once there is something to judge: after our apply (deploy) or our first read (verify). */
  private observing = false;
  private deleted = false;

  constructor(
    readonly desired: KubeObject,
    readonly component: string | undefined,
    private readonly options: ReadinessOptions,
  ) {
    this.ref = objectRef(desired);
    this.message = 'not applied yet';
  }

  /** A watch event for this object. */
  onWatchEvent(type: WatchEventType, live: KubeObject, now: number): boolean {
    if (type === 'DELETED') {
      // The deletion of an object we did not apply (an older incarnation) says nothing about ours.
      const ourUid = this.applied?.live.metadata.uid;
      if (ourUid !== undefined && live.metadata.uid !== undefined && live.metadata.uid !== ourUid)
        return false;
      this.deleted = true;
      this.live = live;
    } else {
      this.deleted = false;
      this.live = live;
    }
    return this.evaluate(now);
  }

  /** Our apply succeeded. Keeps a watch-delivered object that already reflects the write. */
  onApplied(outcome: ApplyOutcome, now: number): boolean {
    this.applied = outcome;
    this.appliedAt = now;
    this.observing = true;
    const watched = this.live;
    const watchedIsNewer = watched !== undefined && !this.deleted && isAtLeastAsNew(watched, outcome);
    if (!watchedIsNewer) {
      this.live = outcome.live;
      this.deleted = false;
    }
    return this.evaluate(now);
  }

  /** Our read (verify mode): `live` undefined means not found. */
  onRead(live: KubeObject | undefined, now: number): boolean {
    this.observing = true;
    if (live) {
      // A watch event may already have delivered something newer; an older read must not win.
      if (!this.live || this.deleted) this.live = live;
      this.deleted = false;
    } else if (!this.live) {
      this.deleted = true;
    }
    return this.evaluate(now);
  }

  /** Recomputes the status; true when it changed. */
  evaluate(now: number): boolean {
    if (!this.observing) return false;
    const next = this.compute();
    const changed = next.status !== this.status || next.message !== this.message;
    this.status = next.status;
    this.message = next.message;
    this.cause = next.cause;
    if (next.status === 'Current' && this.currentAt === undefined) this.currentAt = now;
    return changed;
  }

  /** The object as the result reports it. */
  toResult(iso: (ms: number) => string): ObjectResult {
    const { apiVersion, kind } = this.desired;
    const { name, namespace } = this.desired.metadata;
    return {
      ref: this.ref,
      apiVersion,
      kind,
      name,
      ...(namespace !== undefined ? { namespace } : {}),
      ...(this.applied ? { action: this.applied.action } : {}),
      status: this.status,
      message: this.message,
      ...(this.appliedAt !== undefined ? { appliedAt: iso(this.appliedAt) } : {}),
      ...(this.currentAt !== undefined ? { currentAt: iso(this.currentAt) } : {}),
    };
  }

  private compute(): ReadinessResult {
    if (this.deleted) {
      const recorded = this.options.recordedHashes?.get(this.ref);
      return goneReadiness({
        desired: this.desired,
        appliedByUs: this.applied !== undefined,
        deployed: recorded !== undefined && recorded === hashObject(this.desired),
      });
    }
    return objectReadiness(this.live, this.applied, this.options);
  }
}

/** True when `watched` is the same object as the apply response and not older than it. */
function isAtLeastAsNew(watched: KubeObject, outcome: ApplyOutcome): boolean {
  const uid = outcome.live.metadata.uid;
  if (uid !== undefined && watched.metadata.uid !== undefined && watched.metadata.uid !== uid) return false;
  const ours = outcome.live.metadata.generation;
  const seen = watched.metadata.generation;
  if (typeof ours === 'number') return typeof seen === 'number' && seen >= ours;
  // Without generations we cannot order them; the apply response is the safer choice unless the
  // watch shows exactly our write.
  return watched.metadata.resourceVersion === outcome.live.metadata.resourceVersion;
}
