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
  /**
   * For `Failed`: what kind of failure, when the rule knows better than "an object failed" (a Job
   * out of retries is `job-failed`, a crash-looping Pod `crash-loop`). @default 'object-failed'
   */
  readonly cause?: StuckCause;
}

/**
 * Why a workload is stuck, as the cluster says it (its Events, its pods' status). Each has one
 * pure rule in `lib/runtime/diagnose/events/`.
 *
 * - `quota-exceeded`: a ResourceQuota forbids the pods (or demands requests/limits they lack).
 * - `storage-class-missing`: a PersistentVolumeClaim names a StorageClass that does not exist, or
 *   names none and the cluster has no default.
 * - `admission-denied`: a validating or mutating admission webhook denied the pods.
 * - `pod-security`: the namespace's Pod Security level forbids the pods.
 * - `service-account-missing`: the pods' ServiceAccount does not exist.
 * - `unschedulable`: the scheduler finds no node for a pod.
 * - `image-pull`: the kubelet cannot pull a container image.
 * - `crash-loop`: a container keeps exiting and the kubelet backs off restarting it.
 * - `job-failed`: a Job ran out of retries or time.
 */
export type StuckCause =
  | 'quota-exceeded'
  | 'storage-class-missing'
  | 'admission-denied'
  | 'pod-security'
  | 'service-account-missing'
  | 'unschedulable'
  | 'image-pull'
  | 'crash-loop'
  | 'job-failed';

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

/** What a watch event says happened to an object. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** Receives the events of a watch, or of one object (see `WatchRouter`). */
export type WatchListener = (type: WatchEventType, object: KubeObject) => void;

/** How deletes cascade to dependents (ReplicaSets, Pods): see the Kubernetes garbage collection docs. */
export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

/** The propagation policies destroy and prune offer (orphaning would defeat "wait until gone"). */
export type DeletePropagation = Exclude<PropagationPolicy, 'Orphan'>;

/** Settings of one delete. */
export interface DeleteOptions {
  /** @default 'Background' (ports without garbage collection, like the in-memory one, ignore it) */
  readonly propagationPolicy?: PropagationPolicy;
}

/**
 * Everything the runtime asks of a cluster, declared once. The required capabilities are what
 * every operation needs; the optional ones make the Kubernetes port cheaper or correct in cases
 * a simpler port (the in-memory one, a test double) does not have.
 */
export interface ClusterPort {
  /** Server-side apply; used by deploy (and its bootstrap) for every object it writes. */
  apply(object: KubeObject, options: ApplyOptions): Promise<ApplyOutcome>;
  /**
   * Used by destroy and prune. Resolves when the delete was accepted (not when the object is
   * gone: the delete action watches for that).
   */
  delete(object: KubeObject, options?: DeleteOptions): Promise<void>;
  /** One object, undefined when absent; used by verify, plan, the inventory and "is it gone?". */
  get(object: KubeObject): Promise<KubeObject | undefined>;
  /** Used by diagnosis (pods, nodes) and the preflight (nodes). */
  list(key: WatchKey, labelSelector?: string): Promise<KubeObject[]>;
  /**
   * Starts (or joins) the watch for `key` and calls `onEvent` with every ADDED/MODIFIED/DELETED
   * object; used to observe every object a run waits for. The implementation resumes after
   * disconnects and 410 Gone (re-list + re-watch) with exponential back-off and jitter. Returns a
   * function that stops this subscription.
   */
  watch(key: WatchKey, onEvent: WatchListener): () => void;
  /**
   * Optional: the live object from the watch's snapshot instead of a GET. Used by skip-unchanged
   * and "is it gone?" when present (one LIST per kind and namespace instead of a GET per object).
   */
  observed?(object: KubeObject): Promise<KubeObject | undefined>;
  /**
   * Optional: forget cached API discovery. Called when a CRD the run applied becomes established,
   * so its custom resources map; ports without a discovery cache leave it out.
   */
  invalidateDiscovery?(): void;
  /**
   * Optional: the Warning Events (core/v1) of a namespace, as `kubectl describe` shows them. Read by
   * diagnosis to name what is stuck (a quota, a missing StorageClass, an admission webhook, Pod
   * Security); ports without it diagnose from the objects' status alone.
   */
  events?(namespace: string): Promise<KubeObject[]>;
  /**
   * Optional: whether the API server answers. A port that has it detects a lost API server within
   * seconds, holds its requests while waiting for it (for a bounded time) and resumes them when it
   * is back; the engine pauses component timers meanwhile (see `ApiAvailability`).
   */
  readonly availability?: ApiAvailabilitySource;
}

/**
 * Whether the API server answers: `available`, `lost` (not answering; requests wait for it until
 * `deadline`), or `gone` (it stayed away past the loss timeout; requests fail with
 * `ClusterUnreachableError` until it answers again).
 */
export type ApiState =
  | { readonly state: 'available' }
  | { readonly state: 'lost'; readonly since: number; readonly deadline: number; readonly reason: string }
  | { readonly state: 'gone'; readonly since: number; readonly reason: string };

/** What the engine reads of a port's availability. */
export interface ApiAvailabilitySource {
  readonly current: ApiState;
  /** Calls `listener` with every change of state; returns the unsubscribe function. */
  subscribe(listener: (state: ApiState) => void): () => void;
}
