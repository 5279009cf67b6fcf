import { KubeObject } from '../../graph';
import { ClusterPort, WatchEventType, WatchKey, WatchListener } from '../ports';

/** Receives the events of one object. */
export type ObjectListener = WatchListener;

/**
 * Routes the events of the port's watches to the listeners of single objects (the port's
 * `SharedWatch` is the one watch per kind and namespace; this is the run's fan-out by object
 * name): it opens one `cluster.watch` per (apiVersion, kind, namespace) among every object of a
 * run and routes each event to the listeners of that object, so observing N objects of one kind costs one
 * watch, not N, and nothing polls. Listeners run synchronously and must be cheap (no I/O): a slow
 * handler would delay every later event of the watch (cli-utils #677).
 */
export class WatchRouter {
  private readonly watches = new Map<string, () => void>();
  private readonly listeners = new Map<string, Set<ObjectListener>>();
  private closed = false;

  constructor(private readonly cluster: ClusterPort) {}

  /** The watch key that observes `object`. */
  static keyOf(object: KubeObject): WatchKey {
    return { apiVersion: object.apiVersion, kind: object.kind, namespace: object.metadata.namespace };
  }

  /** Number of watches opened (one per key). */
  get watchCount(): number {
    return this.watches.size;
  }

  /**
   * Listens to the events of `object` (starting the watch of its key if needed). Returns the
   * function that stops listening; the watch itself stays until `close()`.
   */
  observe(object: KubeObject, listener: ObjectListener): () => void {
    if (this.closed) return () => undefined;
    const key = WatchRouter.keyOf(object);
    const id = keyId(key);
    if (!this.watches.has(id)) {
      this.watches.set(
        id,
        this.cluster.watch(key, (type, live) => this.dispatch(type, live)),
      );
    }
    const objectId = objectKey(object.kind, object.metadata.namespace, object.metadata.name);
    const set = this.listeners.get(objectId) ?? new Set<ObjectListener>();
    set.add(listener);
    this.listeners.set(objectId, set);
    return () => set.delete(listener);
  }

  /** Stops every watch. Idempotent. */
  close(): void {
    this.closed = true;
    for (const stop of this.watches.values()) stop();
    this.watches.clear();
    this.listeners.clear();
  }

  private dispatch(type: WatchEventType, live: KubeObject): void {
    if (this.closed) return;
    const exact = this.listeners.get(objectKey(live.kind, live.metadata.namespace, live.metadata.name));
    // A manifest without a namespace is matched by kind and name alone.
    const loose = live.metadata.namespace
      ? this.listeners.get(objectKey(live.kind, undefined, live.metadata.name))
      : undefined;
    for (const listener of [...(exact ?? []), ...(loose ?? [])]) listener(type, live);
  }
}

function keyId(key: WatchKey): string {
  return `${key.apiVersion}/${key.kind}/${key.namespace ?? '*'}`;
}

function objectKey(kind: string, namespace: string | undefined, name: string): string {
  return `${kind}/${namespace ?? ''}/${name}`;
}
