import { KubeObject, objectRef } from '../graph';
import {
  ApplyOptions,
  ApplyOutcome,
  ClusterPort,
  WatchEventType,
  WatchKey,
  WatchListener,
} from '../runtime/ports';
import { asNumber, asRecord } from '../runtime/readiness/object-fields';
import { ApiAvailability } from '../runtime/availability/api-availability';
import { Clock, systemClock } from '../runtime/timing/clock';

/**
 * A FAKE `ClusterPort`, for the rollout engine's unit tests ONLY — never for deploying anything.
 * End-to-end tests use the real port against a real control plane.
 *
 * It simulates what the engine depends on in an API server: server-side apply that assigns uid,
 * resourceVersion and `metadata.generation` (bumped when anything but metadata/status changes),
 * `created`/`configured`/`unchanged` outcomes, watch events (ADDED for existing objects on
 * subscribe, then ADDED/MODIFIED/DELETED), label-selector lists, and deletes with finalizers.
 *
 * Controllers are simulated by `SimulatedController`s; the default ones read these annotations
 * from the applied object so a test states each object's behaviour in the object itself:
 *
 * - `sim.stackwright.io/ready-after-ms`: delay (on the injected clock) before the object becomes
 *   ready/complete. The controller observes the new generation at once, so the engine sees an
 *   "observed but not ready" state first, as from a real controller.
 * - `sim.stackwright.io/never-ready: "true"`: the controller observes it but it never becomes ready.
 * - `sim.stackwright.io/fail: "<reason>: <message>"`: Jobs fail (Failed=True), Deployments exceed
 *   their progress deadline, Pods crash-loop.
 * - `sim.stackwright.io/nodes`: how many nodes a DaemonSet targets (default 1; 0 = none).
 */
export class InMemoryCluster implements ClusterPort {
  /** Every call the engine made, in order, with the clock time: what order tests assert on. */
  readonly log: InMemoryCall[] = [];
  /** How many `watch()` subscriptions were opened, per watch key. */
  readonly watchSubscriptions = new Map<string, number>();
  /** Most applies that were in flight at once. */
  maxConcurrentApplies = 0;
  /** Whether the simulated API server answers; `loseApi()` and `restoreApi()` drive it. */
  readonly availability: ApiAvailability;

  private readonly clock: Clock;
  private readonly controllers: readonly SimulatedController[];
  private readonly eventDelivery: 'before-apply-returns' | 'after-apply-returns';
  private readonly objects = new Map<string, KubeObject>();
  private readonly subscribers = new Map<string, Set<WatchSubscriber>>();
  private readonly applyFailures = new Map<string, (attempt: number) => Error | undefined>();
  private readonly applyAttempts = new Map<string, number>();
  private readonly recordedEvents: KubeObject[] = [];
  private resourceVersion = 1000;
  private uidCounter = 0;
  private appliesInFlight = 0;

  constructor(options: InMemoryClusterOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.controllers = options.controllers ?? DEFAULT_CONTROLLERS;
    this.eventDelivery = options.eventDelivery ?? 'before-apply-returns';
    this.availability = new ApiAvailability({ clock: this.clock, lossTimeoutMs: options.apiLossTimeoutMs });
  }

  /** The clock simulated controllers wait on. */
  get time(): Clock {
    return this.clock;
  }

  // ---- ClusterPort --------------------------------------------------------------------------

  async apply(object: KubeObject, options: ApplyOptions): Promise<ApplyOutcome> {
    await this.reachable();
    const ref = objectRef(object);
    this.appliesInFlight += 1;
    this.maxConcurrentApplies = Math.max(this.maxConcurrentApplies, this.appliesInFlight);
    this.record('apply-start', ref);
    try {
      // Let other callers interleave, as real requests do.
      await Promise.resolve();
      const attempt = (this.applyAttempts.get(ref) ?? 0) + 1;
      this.applyAttempts.set(ref, attempt);
      const failure = this.applyFailures.get(ref)?.(attempt);
      if (failure) {
        this.record('apply-error', ref, failure.message);
        throw failure;
      }
      const key = storeKey(object);
      const existing = this.objects.get(key);
      const merged = this.merge(existing, object);
      const action: ApplyOutcome['action'] = !existing
        ? 'created'
        : merged === existing
          ? 'unchanged'
          : 'configured';
      if (options.dryRun) return { ref, action, live: clone(merged) };
      if (action !== 'unchanged') {
        this.objects.set(key, merged);
        if (this.eventDelivery === 'before-apply-returns') this.emit(existing ? 'MODIFIED' : 'ADDED', merged);
        // Controllers react after the write is answered, as in a real cluster.
        const written = clone(merged);
        for (const controller of this.controllers)
          setImmediate(() => void Promise.resolve(controller(written, this)).catch(() => undefined));
      }
      const outcome = { ref, action, live: clone(merged) };
      if (action !== 'unchanged' && this.eventDelivery === 'after-apply-returns') {
        setImmediate(() => this.emit(existing ? 'MODIFIED' : 'ADDED', merged));
      }
      this.record('apply', ref, action);
      return outcome;
    } finally {
      this.appliesInFlight -= 1;
    }
  }

  async delete(object: KubeObject): Promise<void> {
    await this.reachable();
    this.record('delete', objectRef(object));
    const key = storeKey(object);
    const existing = this.objects.get(key);
    if (!existing) return;
    const finalizers = Array.isArray(existing.metadata.finalizers) ? existing.metadata.finalizers : [];
    if (finalizers.length > 0) {
      this.write({
        ...existing,
        metadata: { ...existing.metadata, deletionTimestamp: new Date(this.clock.now()).toISOString() },
      });
      return;
    }
    this.objects.delete(key);
    this.emit('DELETED', existing);
  }

  async get(object: KubeObject): Promise<KubeObject | undefined> {
    await this.reachable();
    this.record('get', objectRef(object));
    const found = this.objects.get(storeKey(object));
    return found ? clone(found) : undefined;
  }

  async list(key: WatchKey, labelSelector?: string): Promise<KubeObject[]> {
    await this.reachable();
    this.record('list', watchKeyId(key), labelSelector);
    return [...this.objects.values()]
      .filter((o) => matchesKey(key, o) && matchesSelector(o.metadata.labels ?? {}, labelSelector))
      .sort((a, b) => objectRef(a).localeCompare(objectRef(b)))
      .map(clone);
  }

  watch(key: WatchKey, onEvent: WatchListener): () => void {
    const id = watchKeyId(key);
    this.record('watch', id);
    this.watchSubscriptions.set(id, (this.watchSubscriptions.get(id) ?? 0) + 1);
    const subscriber: WatchSubscriber = { key, onEvent, active: true };
    const set = this.subscribers.get(id) ?? new Set<WatchSubscriber>();
    set.add(subscriber);
    this.subscribers.set(id, set);
    // Like an informer: the objects that already exist arrive as ADDED, asynchronously.
    const existing = [...this.objects.values()].filter((o) => matchesKey(key, o)).map(clone);
    queueMicrotask(() => {
      for (const o of existing) if (subscriber.active) onEvent('ADDED', o);
    });
    return () => {
      subscriber.active = false;
      set.delete(subscriber);
      this.record('unwatch', id);
    };
  }

  /** The Events recorded with `recordEvent` in `namespace`, as core/v1 Event objects. */
  async events(namespace: string): Promise<KubeObject[]> {
    await this.reachable();
    this.record('events', namespace);
    return this.recordedEvents.filter((e) => e.metadata.namespace === namespace).map(clone);
  }

  // ---- test controls ------------------------------------------------------------------------

  /** The API server stops answering: requests wait (and fail once the loss timeout passes). */
  loseApi(reason = 'connect ECONNREFUSED'): void {
    this.availability.lost(reason);
  }

  /** The API server answers again: waiting requests go on. */
  restoreApi(): void {
    this.availability.restored();
  }

  /**
   * Records a core/v1 Event about `involved`, as a controller or the kubelet would (stamped with
   * the clock's time); `events()` returns it.
   */
  recordEvent(
    involved: KubeObject,
    event: {
      readonly type?: 'Normal' | 'Warning';
      readonly reason: string;
      readonly message: string;
      readonly count?: number;
    },
  ): void {
    const at = new Date(this.clock.now()).toISOString();
    const namespace = involved.metadata.namespace ?? 'default';
    this.recordedEvents.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${involved.metadata.name}.${this.recordedEvents.length + 1}`, namespace },
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        name: involved.metadata.name,
        namespace,
        ...(involved.metadata.uid !== undefined ? { uid: involved.metadata.uid } : {}),
      },
      type: event.type ?? 'Warning',
      reason: event.reason,
      message: event.message,
      count: event.count ?? 1,
      firstTimestamp: at,
      lastTimestamp: at,
    } as KubeObject);
  }

  /** Puts objects in the cluster as if they had been there before the run (no log entries). */
  seed(...objects: KubeObject[]): void {
    for (const object of objects) {
      const merged = this.merge(undefined, object);
      this.objects.set(storeKey(merged), { ...merged, status: object.status ?? merged.status });
    }
  }

  /** Makes `apply` of `ref` fail: with `error` on every attempt, or per attempt (return undefined to succeed). */
  failApply(ref: string, error: Error | ((attempt: number) => Error | undefined)): void {
    this.applyFailures.set(ref, typeof error === 'function' ? error : () => error);
  }

  /** The stored object, as a copy. */
  peek(ref: string): KubeObject | undefined {
    const found = [...this.objects.values()].find((o) => objectRef(o) === ref);
    return found ? clone(found) : undefined;
  }

  /** Every stored object (copies), sorted by ref. */
  all(): KubeObject[] {
    return [...this.objects.values()].map(clone).sort((a, b) => objectRef(a).localeCompare(objectRef(b)));
  }

  /** Replaces the status of a stored object, as its controller would, and emits MODIFIED. */
  setStatus(
    ref: string,
    status: Record<string, unknown> | ((current: KubeObject) => Record<string, unknown>),
  ): void {
    const current = this.requireObject(ref);
    const next = typeof status === 'function' ? status(clone(current)) : status;
    this.write({ ...current, status: next });
  }

  /** Writes a stored object with a change to metadata (labels, deletionTimestamp, …), emitting MODIFIED. */
  updateMetadata(ref: string, metadata: Record<string, unknown>): void {
    const current = this.requireObject(ref);
    this.write({ ...current, metadata: { ...current.metadata, ...metadata } });
  }

  /** Removes a stored object at once (a TTL controller, a person with kubectl), emitting DELETED. */
  remove(ref: string): void {
    const current = this.requireObject(ref);
    this.objects.delete(storeKey(current));
    this.emit('DELETED', current);
  }

  /** Adds a Pod (e.g. one a simulated ReplicaSet would have created), emitting ADDED. */
  addObject(object: KubeObject): void {
    const merged = this.merge(undefined, object);
    this.write({ ...merged, status: object.status ?? merged.status });
  }

  /** Number of open watch subscriptions right now. */
  get openWatches(): number {
    return [...this.subscribers.values()].reduce((n, s) => n + s.size, 0);
  }

  /** The log entries of one operation. */
  calls(op: InMemoryCall['op']): InMemoryCall[] {
    return this.log.filter((c) => c.op === op);
  }

  // ---- internals ----------------------------------------------------------------------------

  /** Waits while the simulated API server is lost; throws `ClusterUnreachableError` once it is gone. */
  private async reachable(): Promise<void> {
    if (this.availability.current.state !== 'available') await this.availability.whenAvailable();
  }

  private requireObject(ref: string): KubeObject {
    const found = [...this.objects.values()].find((o) => objectRef(o) === ref);
    if (!found) throw new Error(`InMemoryCluster: no object ${ref}`);
    return found;
  }

  /** Stores a controller's write: bumps resourceVersion, emits MODIFIED (or ADDED). */
  private write(object: KubeObject): void {
    const key = storeKey(object);
    const existed = this.objects.has(key);
    const written = {
      ...object,
      metadata: { ...object.metadata, resourceVersion: String(++this.resourceVersion) },
    };
    this.objects.set(key, written);
    this.emit(existed ? 'MODIFIED' : 'ADDED', written);
  }

  /** Server-side apply, simplified: our fields replace theirs; generation counts spec changes. */
  private merge(existing: KubeObject | undefined, desired: KubeObject): KubeObject {
    const tracksGeneration = desired.spec !== undefined || desired.kind === 'CustomResourceDefinition';
    if (existing) {
      // Our fields replace theirs; fields we do not set (server defaults such as a Service's
      // clusterIP, other managers' fields) stay, as with server-side apply.
      desired = {
        ...desired,
        ...(deepMerge(withoutMeta(existing), withoutMeta(desired)) as Record<string, unknown>),
        metadata: desired.metadata,
      };
      const specChanged = JSON.stringify(withoutMeta(existing)) !== JSON.stringify(withoutMeta(desired));
      const metaChanged =
        JSON.stringify(existing.metadata.labels ?? {}) !== JSON.stringify(desired.metadata.labels ?? {}) ||
        JSON.stringify(existing.metadata.annotations ?? {}) !==
          JSON.stringify(desired.metadata.annotations ?? {});
      if (!specChanged && !metaChanged) return existing;
      const gen = asNumber(existing.metadata.generation);
      return {
        ...existing,
        ...withoutMeta(desired),
        metadata: {
          ...existing.metadata,
          labels: desired.metadata.labels,
          annotations: desired.metadata.annotations,
          resourceVersion: String(++this.resourceVersion),
          ...(gen !== undefined ? { generation: specChanged ? gen + 1 : gen } : {}),
        },
        status: existing.status,
      };
    }
    const created: KubeObject = {
      ...desired,
      metadata: {
        ...desired.metadata,
        uid: `uid-${++this.uidCounter}`,
        resourceVersion: String(++this.resourceVersion),
        creationTimestamp: new Date(this.clock.now()).toISOString(),
        ...(tracksGeneration ? { generation: 1 } : {}),
      },
    };
    return withServerDefaults(created);
  }

  private emit(type: WatchEventType, object: KubeObject): void {
    this.record('event', objectRef(object), type);
    for (const set of this.subscribers.values()) {
      for (const s of [...set]) {
        if (s.active && matchesKey(s.key, object)) s.onEvent(type, clone(object));
      }
    }
  }

  private record(op: InMemoryCall['op'], ref: string, detail?: string): void {
    this.log.push({ op, ref, detail, at: this.clock.now() });
  }

  /** Used by simulated controllers: writes a status if the object still exists. */
  simulateStatus(object: KubeObject, status: (current: KubeObject) => Record<string, unknown>): void {
    const current = this.objects.get(storeKey(object));
    if (!current) return;
    this.write({ ...current, status: status(clone(current)) });
  }
}

/** One recorded call or event of the fake. */
export interface InMemoryCall {
  readonly op:
    | 'apply-start'
    | 'apply'
    | 'apply-error'
    | 'delete'
    | 'get'
    | 'list'
    | 'events'
    | 'watch'
    | 'unwatch'
    | 'event';
  /** The object ref, the watch key for list/watch, or the namespace for events. */
  readonly ref: string;
  /** The apply action, event type, error message or label selector. */
  readonly detail?: string;
  /** Clock time of the call. */
  readonly at: number;
}

/** A simulated controller: reacts to a write (create or change) of any object. */
export type SimulatedController = (written: KubeObject, cluster: InMemoryCluster) => void | Promise<void>;

export interface InMemoryClusterOptions {
  /** The clock simulated controllers wait on; share it with the engine. @default systemClock */
  readonly clock?: Clock;
  /** @default DEFAULT_CONTROLLERS */
  readonly controllers?: readonly SimulatedController[];
  /**
   * Whether the watch event of a write reaches subscribers before or after `apply` resolves;
   * both happen with a real API server, and the engine must handle both.
   * @default 'before-apply-returns'
   */
  readonly eventDelivery?: 'before-apply-returns' | 'after-apply-returns';
  /** How long requests wait for a lost API server (see `loseApi`). @default 120000 */
  readonly apiLossTimeoutMs?: number;
}

interface WatchSubscriber {
  readonly key: WatchKey;
  readonly onEvent: WatchListener;
  active: boolean;
}

export const SIM_READY_AFTER_MS = 'sim.stackwright.io/ready-after-ms';
export const SIM_NEVER_READY = 'sim.stackwright.io/never-ready';
export const SIM_FAIL = 'sim.stackwright.io/fail';
export const SIM_NODES = 'sim.stackwright.io/nodes';

/**
 * Controllers for the workload kinds, driven by the `sim.stackwright.io/*` annotations (see the
 * class comment). Each observes the new generation at once, then becomes ready after the delay.
 */
export const DEFAULT_CONTROLLERS: readonly SimulatedController[] = [simulateWorkload];

async function simulateWorkload(written: KubeObject, cluster: InMemoryCluster): Promise<void> {
  const annotations = written.metadata.annotations ?? {};
  const delay = Number(annotations[SIM_READY_AFTER_MS] ?? 0);
  const neverReady = annotations[SIM_NEVER_READY] === 'true';
  const failure = annotations[SIM_FAIL];
  const gen = asNumber(written.metadata.generation) ?? 1;
  const replicas = asNumber(asRecord(written.spec).replicas) ?? 1;
  const now = () => new Date(cluster.time.now()).toISOString();
  const later = async (apply: () => void) => {
    if (neverReady) return;
    if (delay > 0) await cluster.time.sleep(delay);
    else await Promise.resolve();
    // A newer write restarted the simulation; this one is stale.
    const current = cluster.peek(objectRef(written));
    if (!current || asNumber(current.metadata.generation) !== asNumber(written.metadata.generation)) return;
    apply();
  };
  const [failReason, ...failRest] = (failure ?? '').split(':');
  const failMessage = failRest.join(':').trim() || 'simulated failure';

  switch (written.kind) {
    case 'Deployment': {
      cluster.simulateStatus(written, (c) => ({
        ...asRecord(c.status),
        observedGeneration: gen,
        replicas,
        updatedReplicas: 0,
        readyReplicas: 0,
        availableReplicas: 0,
      }));
      await later(() =>
        cluster.simulateStatus(written, () =>
          failure
            ? {
                observedGeneration: gen,
                replicas,
                updatedReplicas: replicas,
                readyReplicas: 0,
                availableReplicas: 0,
                conditions: [
                  {
                    type: 'Progressing',
                    status: 'False',
                    reason: 'ProgressDeadlineExceeded',
                    message: failMessage,
                  },
                ],
              }
            : {
                observedGeneration: gen,
                replicas,
                updatedReplicas: replicas,
                readyReplicas: replicas,
                availableReplicas: replicas,
                conditions: [
                  { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
                  { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
                ],
              },
        ),
      );
      return;
    }
    case 'StatefulSet': {
      const revision = `${written.metadata.name}-${gen}`;
      cluster.simulateStatus(written, (c) => ({
        ...asRecord(c.status),
        observedGeneration: gen,
        replicas: 0,
        readyReplicas: 0,
        updateRevision: revision,
      }));
      await later(() =>
        cluster.simulateStatus(written, () => ({
          observedGeneration: gen,
          replicas,
          readyReplicas: replicas,
          currentReplicas: replicas,
          updatedReplicas: replicas,
          currentRevision: revision,
          updateRevision: revision,
        })),
      );
      return;
    }
    case 'DaemonSet': {
      const nodes = Number(annotations[SIM_NODES] ?? 1);
      cluster.simulateStatus(written, () => ({
        observedGeneration: gen,
        desiredNumberScheduled: nodes,
        currentNumberScheduled: 0,
        numberReady: 0,
        numberAvailable: 0,
        updatedNumberScheduled: 0,
      }));
      await later(() =>
        cluster.simulateStatus(written, () => ({
          observedGeneration: gen,
          desiredNumberScheduled: nodes,
          currentNumberScheduled: nodes,
          updatedNumberScheduled: nodes,
          numberReady: nodes,
          numberAvailable: nodes,
        })),
      );
      return;
    }
    case 'Job': {
      cluster.simulateStatus(written, () => ({ startTime: now(), active: 1 }));
      await later(() =>
        cluster.simulateStatus(written, () =>
          failure
            ? {
                startTime: now(),
                failed: Number(asRecord(written.spec).backoffLimit ?? 6) + 1,
                conditions: [
                  {
                    type: 'Failed',
                    status: 'True',
                    reason: failReason.trim() || 'BackoffLimitExceeded',
                    message: failMessage,
                  },
                ],
              }
            : {
                startTime: now(),
                completionTime: now(),
                succeeded: 1,
                conditions: [{ type: 'Complete', status: 'True' }],
              },
        ),
      );
      return;
    }
    case 'CustomResourceDefinition':
      await later(() =>
        cluster.simulateStatus(written, () => ({
          conditions: [
            { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts' },
            { type: 'Established', status: 'True', reason: 'InitialNamesAccepted' },
          ],
        })),
      );
      return;
    case 'PersistentVolumeClaim':
      await later(() => cluster.simulateStatus(written, () => ({ phase: 'Bound' })));
      return;
    case 'Pod':
      cluster.simulateStatus(written, () => ({ phase: 'Pending' }));
      await later(() =>
        cluster.simulateStatus(written, () =>
          failure
            ? {
                phase: 'Running',
                containerStatuses: [
                  {
                    name: 'main',
                    ready: false,
                    restartCount: 5,
                    state: { waiting: { reason: 'CrashLoopBackOff', message: failMessage } },
                  },
                ],
              }
            : { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
        ),
      );
      return;
    default:
      return;
  }
}

function withServerDefaults(object: KubeObject): KubeObject {
  if (object.kind === 'Namespace') return { ...object, status: { phase: 'Active' } };
  if (object.kind === 'Service') {
    const sp = asRecord(object.spec);
    if (sp.clusterIP === undefined && sp.type !== 'ExternalName')
      return { ...object, spec: { ...sp, clusterIP: '10.96.0.10' } };
  }
  return object;
}

function deepMerge(base: unknown, overlay: unknown): unknown {
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return overlay;
  if (typeof overlay !== 'object' || overlay === null || Array.isArray(overlay)) return overlay;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(overlay as Record<string, unknown>)) out[k] = deepMerge(out[k], v);
  return out;
}

function withoutMeta(object: KubeObject): Record<string, unknown> {
  const { metadata, status, ...rest } = object;
  void metadata;
  void status;
  return rest;
}

function storeKey(object: KubeObject): string {
  return `${object.kind}|${object.metadata.namespace ?? ''}|${object.metadata.name}`;
}

function watchKeyId(key: WatchKey): string {
  return `${key.apiVersion}/${key.kind}/${key.namespace ?? '*'}`;
}

function matchesKey(key: WatchKey, object: KubeObject): boolean {
  return (
    object.kind === key.kind && (key.namespace === undefined || object.metadata.namespace === key.namespace)
  );
}

/** Equality-, set- and existence-based label selectors (`a=b,c!=d,e in (f,g),h notin (i),j,!k`). */
export function matchesSelector(
  labels: Readonly<Record<string, string>>,
  selector: string | undefined,
): boolean {
  if (!selector || selector.trim() === '') return true;
  const requirements = selector.match(/[^,(]+(\([^)]*\))?/g) ?? [];
  return requirements.every((raw) => {
    const r = raw.trim();
    let m: RegExpMatchArray | null;
    if ((m = r.match(/^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/))) {
      const values = m[3].split(',').map((v) => v.trim());
      const has = labels[m[1]] !== undefined && values.includes(labels[m[1]]);
      return m[2] === 'in' ? has : !has;
    }
    if ((m = r.match(/^(\S+?)\s*!=\s*(\S*)$/))) return labels[m[1]] !== m[2];
    if ((m = r.match(/^(\S+?)\s*==?\s*(\S*)$/))) return labels[m[1]] === m[2];
    if (r.startsWith('!')) return labels[r.slice(1)] === undefined;
    return labels[r] !== undefined;
  });
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
