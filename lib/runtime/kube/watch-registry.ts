import { KubeObject } from '../../graph';
import { WatchKey } from '../ports';
import { SharedWatch, SharedWatchOptions, WatchSource } from './shared-watch';

/**
 * ONE shared watch per (apiVersion, kind, namespace), whatever the number of subscribers: created
 * on first use from the source and options the cluster gives for its key, stopped all together.
 */
export class WatchRegistry {
  private readonly watches = new Map<string, SharedWatch>();

  constructor(
    private readonly sourceOf: (key: WatchKey) => WatchSource,
    private readonly optionsOf: (key: WatchKey) => SharedWatchOptions,
  ) {}

  /** The watch of `key`, created (not started: it starts with its first subscriber) if needed. */
  of(key: WatchKey): SharedWatch {
    const id = watchId(key);
    let watch = this.watches.get(id);
    if (!watch) {
      watch = new SharedWatch(this.sourceOf(key), this.optionsOf(key));
      this.watches.set(id, watch);
    }
    return watch;
  }

  /** The object as the watch of its kind and namespace last saw it, if that watch exists and is synced. */
  cachedIfSynced(object: KubeObject): KubeObject | undefined {
    const watch = this.watches.get(watchId({ ...object, namespace: object.metadata.namespace }));
    return watch?.isSynced ? watch.cached(object.metadata.namespace, object.metadata.name) : undefined;
  }

  /** Number of watches (what "one watch per kind and namespace" is checked against). */
  get size(): number {
    return this.watches.size;
  }

  stopAll(): void {
    for (const watch of this.watches.values()) watch.stop();
    this.watches.clear();
  }
}

function watchId(key: WatchKey): string {
  return `${key.apiVersion}/${key.kind}/${key.namespace ?? '*'}`;
}
