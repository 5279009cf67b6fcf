import { KubeObject } from '../graph';

/**
 * The seam between deciding and doing. The rollout engine (scheduler, readiness, diagnostics) is
 * pure and talks to the cluster only through a `ClusterPort`; `lib/runtime/kube/` implements it with
 * @kubernetes/client-node (server-side apply + one watch per kind and namespace). Tests of the
 * engine use an in-memory port; end-to-end tests use the real one against a live control plane.
 */

/** kstatus-compatible status of one object. */
export type ObjectStatus = 'Current' | 'InProgress' | 'Failed' | 'NotFound' | 'Unknown' | 'Terminating';

export interface ReadinessResult {
  readonly status: ObjectStatus;
  /** One sentence a person can act on, e.g. "2/3 replicas available". */
  readonly message: string;
}

/** A readiness rule: a pure function of the live object. No I/O. */
export type ReadinessRule = (live: KubeObject) => ReadinessResult;

/** What server-side apply did to one object. */
export interface ApplyOutcome {
  readonly ref: string;
  /** `created`, `configured` (changed), `unchanged` (our fields already as desired). */
  readonly action: 'created' | 'configured' | 'unchanged';
  /** The object as the server returned it (carries metadata.generation / resourceVersion). */
  readonly live: KubeObject;
}

/** A field-manager conflict reported by server-side apply. */
export class ApplyConflictError extends Error {
  constructor(
    readonly ref: string,
    /** The other managers and the fields they own, as the API server named them. */
    readonly conflicts: readonly { readonly manager: string; readonly field: string }[],
  ) {
    super(
      `${ref}: server-side apply conflict with ${conflicts.map((c) => `${c.manager} (${c.field})`).join(', ')}; ` +
        'rerun with --force-conflicts to take ownership, or remove the field from the stack',
    );
  }
}

export interface ApplyOptions {
  readonly fieldManager: string;
  readonly force: boolean;
  readonly dryRun: boolean;
}

/** Identifies what to observe: one watch per (apiVersion, kind, namespace). */
export interface WatchKey {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
}

export interface ClusterPort {
  apply(object: KubeObject, options: ApplyOptions): Promise<ApplyOutcome>;
  /** Deletes; resolves when the delete was accepted (not when the object is gone: observe that). */
  delete(object: KubeObject): Promise<void>;
  get(object: KubeObject): Promise<KubeObject | undefined>;
  list(key: WatchKey, labelSelector?: string): Promise<KubeObject[]>;
  /**
   * Starts (or joins) the watch for `key` and calls `onEvent` with every ADDED/MODIFIED/DELETED
   * object. The implementation resumes after disconnects and 410 Gone (re-list + re-watch) with
   * exponential back-off and jitter. Returns a function that stops this subscription.
   */
  watch(
    key: WatchKey,
    onEvent: (type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObject) => void,
  ): () => void;
}
