import { KubeObject } from '../../graph';
import { Clock, ExponentialBackOff, RestartingTask } from '../timing';
import { WatchEventType, WatchListener } from '../ports';
import { KubeApiError } from './errors';

/** A list response reduced to what a reflector needs. */
export interface ListResult {
  readonly items: readonly KubeObject[];
  readonly resourceVersion: string;
}

/** One raw line of a watch stream. */
export interface RawWatchEvent {
  readonly type: WatchEventType | 'BOOKMARK' | 'ERROR';
  readonly object: unknown;
}

/** Where a shared watch gets its data; the real one is HTTP, tests use a scripted one. */
export interface WatchSource {
  list(signal: AbortSignal): Promise<ListResult>;
  /** Streams events from `resourceVersion` until the server ends the stream; rejects on errors. */
  watch(resourceVersion: string, onEvent: (event: RawWatchEvent) => void, signal: AbortSignal): Promise<void>;
}

/** Thrown inside the stream handler when the server says our resourceVersion is too old. */
class GoneError extends Error {}

export interface SharedWatchOptions {
  /** Delays between failed attempts. @default 200 ms doubling to 30 s, jitter 0.5 */
  readonly backOff?: ExponentialBackOff;
  /** Keep streaming this long after the last subscriber left, so the next subscriber skips the LIST. */
  readonly lingerMs?: number;
  /** The clock the back-off sleeps on. @default systemClock */
  readonly clock?: Clock;
  /** Told about every failed list/watch attempt (before the back-off sleep). */
  readonly onError?: (error: unknown) => void;
}

/**
 * One LIST+WATCH for one (apiVersion, kind, namespace), shared by every subscriber: a small
 * reflector. It lists to get a consistent snapshot and its resourceVersion, watches from there,
 * resumes from the last seen resourceVersion (bookmarks keep it fresh) when the server ends or
 * drops the stream, re-lists when the server answers 410 Gone, and backs off with jitter after
 * errors. A subscriber that joins late first receives the current snapshot as ADDED events.
 */
export class SharedWatch {
  private readonly listeners = new Set<WatchListener>();
  private readonly store = new Map<string, KubeObject>();
  private resourceVersion: string | undefined;
  private task: RestartingTask | undefined;
  private lingerTimer: NodeJS.Timeout | undefined;
  private syncedWaiters: (() => void)[] = [];
  private synced = false;
  constructor(
    private readonly source: WatchSource,
    private readonly options: SharedWatchOptions = {},
  ) {}

  /** Adds a listener (starting the watch if needed); returns the function that removes it. */
  subscribe(listener: WatchListener): () => void {
    this.listeners.add(listener);
    if (this.lingerTimer) {
      clearTimeout(this.lingerTimer);
      this.lingerTimer = undefined;
    }
    if (this.synced) {
      // Replay after the caller got its unsubscribe function; no network event can run before a microtask.
      queueMicrotask(() => {
        if (!this.listeners.has(listener)) return;
        for (const object of this.store.values()) safeCall(listener, 'ADDED', object);
      });
    }
    this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.scheduleStop();
    };
  }

  /** Resolves once the first LIST has been applied to the snapshot. */
  whenSynced(): Promise<void> {
    this.start();
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncedWaiters.push(resolve));
  }

  /** The cached object, or undefined if absent; only meaningful after `whenSynced()`. */
  cached(namespace: string | undefined, name: string): KubeObject | undefined {
    return this.store.get(storeKey(namespace, name));
  }

  get isSynced(): boolean {
    return this.synced;
  }

  /** Stops streaming now and forgets the snapshot. */
  stop(): void {
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    this.task?.stop();
    this.task = undefined;
    this.synced = false;
    this.resourceVersion = undefined;
    this.store.clear();
  }

  private scheduleStop(): void {
    const linger = this.options.lingerMs ?? 0;
    if (linger <= 0) {
      this.stop();
      return;
    }
    this.lingerTimer = setTimeout(() => {
      if (this.listeners.size === 0) this.stop();
    }, linger);
    this.lingerTimer.unref();
  }

  private start(): void {
    if (this.task) return;
    // The Yaook pattern: a restarting background task with exponential back-off and jitter.
    this.task = new RestartingTask((signal) => this.run(signal), {
      backOff: this.options.backOff ?? new ExponentialBackOff({ start: 200, max: 30_000, jitter: 0.5 }),
      onCrash: (error) => this.options.onError?.(error),
      clock: this.options.clock,
    });
    this.task.start();
  }

  /** List (when needed) and watch until stopped; throwing hands the restart to the task's back-off. */
  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      if (this.resourceVersion === undefined) {
        await this.relist(signal);
        this.task?.start(); // a successful LIST ends a failure streak: reset the back-off
      }
      try {
        // Returns when the server closes the stream (its timeout): resume from the last version.
        await this.source.watch(this.resourceVersion ?? '', (event) => this.onEvent(event), signal);
        this.task?.start();
      } catch (error) {
        if (!(error instanceof GoneError || (error instanceof KubeApiError && error.status === 410)))
          throw error;
        this.resourceVersion = undefined; // too old to resume: a fresh LIST, right away
      }
    }
  }

  private async relist(signal: AbortSignal): Promise<void> {
    const { items, resourceVersion } = await this.source.list(signal);
    if (signal.aborted) return;
    const seen = new Set<string>();
    for (const item of items) {
      const key = storeKey(item.metadata.namespace, item.metadata.name);
      seen.add(key);
      const previous = this.store.get(key);
      this.store.set(key, item);
      if (!previous) this.emit('ADDED', item);
      else if (rvOf(previous) !== rvOf(item)) this.emit('MODIFIED', item);
    }
    for (const [key, object] of [...this.store]) {
      if (!seen.has(key)) {
        this.store.delete(key);
        this.emit('DELETED', object);
      }
    }
    this.resourceVersion = resourceVersion;
    if (!this.synced) {
      this.synced = true;
      const waiters = this.syncedWaiters;
      this.syncedWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private onEvent(event: RawWatchEvent): void {
    if (event.type === 'ERROR') {
      const status = event.object as { code?: number; message?: string } | undefined;
      if (status?.code === 410) throw new GoneError(status.message ?? 'resource version too old');
      throw new Error(`watch error: ${status?.message ?? JSON.stringify(event.object)}`);
    }
    const object = event.object as KubeObject;
    const rv = rvOf(object);
    if (rv) this.resourceVersion = rv;
    if (event.type === 'BOOKMARK') return;
    const key = storeKey(object.metadata.namespace, object.metadata.name);
    if (event.type === 'DELETED') this.store.delete(key);
    else this.store.set(key, object);
    this.emit(event.type, object);
  }

  private emit(type: WatchEventType, object: KubeObject): void {
    for (const listener of [...this.listeners]) safeCall(listener, type, object);
  }
}

function safeCall(listener: WatchListener, type: WatchEventType, object: KubeObject): void {
  try {
    listener(type, object);
  } catch {
    // A subscriber's bug must not stop the watch every other subscriber depends on.
  }
}

function storeKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}

function rvOf(object: KubeObject): string | undefined {
  const rv = object.metadata.resourceVersion;
  return typeof rv === 'string' ? rv : undefined;
}
