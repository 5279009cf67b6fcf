import { KubeObject, objectRef } from '../../graph';
import { ApplyOptions, ApplyOutcome, ClusterPort, DeleteOptions, WatchKey, WatchListener } from '../ports';
import { containsDesired, hashObject } from './object-diff';

/**
 * Wraps a port so that re-applying an unchanged object sends no write at all. An apply is skipped
 * when (1) the manifest's hash equals the hash the inventory recorded for the last successful
 * apply — so no field was added, changed or *removed* since — and (2) the live object still holds
 * every field of the manifest with the same value — so nobody changed or took our fields. Then
 * server-side apply would be a no-op; the live object is returned as `unchanged`. Forced applies
 * and dry runs always go through.
 *
 * Why not just send the apply (the API server does not persist a no-op)? It is still a write
 * request per object: with 200 objects, 200 PATCHes, admission, and a long no-op re-run. The
 * check costs one LIST per (kind, namespace) through the shared watches the rollout opens anyway.
 */
export class SkipUnchanged implements ClusterPort {
  /** Refs whose apply was skipped. */
  readonly skipped: string[] = [];
  /** ref -> hash of the manifest known to be applied: the inventory's, then this run's own applies. */
  private readonly applied: Map<string, string>;

  constructor(
    private readonly inner: ClusterPort,
    /** ref -> manifest hash recorded by the last deploy (the inventory). */
    recordedHashes: ReadonlyMap<string, string>,
  ) {
    this.applied = new Map(recordedHashes);
  }

  async apply(object: KubeObject, options: ApplyOptions): Promise<ApplyOutcome> {
    const ref = objectRef(object);
    const hash = hashObject(object);
    const recorded = this.applied.get(ref);
    if (!options.dryRun && !options.force && recorded && recorded === hash) {
      const live = this.inner.observed ? await this.inner.observed(object) : await this.inner.get(object);
      if (live && live.metadata.deletionTimestamp === undefined && containsDesired(object, live)) {
        this.skipped.push(ref);
        return { ref, action: 'unchanged', live };
      }
    }
    const outcome = await this.inner.apply(object, options);
    if (!options.dryRun) this.applied.set(ref, hash);
    return outcome;
  }

  delete(object: KubeObject, options?: DeleteOptions): Promise<void> {
    return this.inner.delete(object, options);
  }

  get(object: KubeObject): Promise<KubeObject | undefined> {
    return this.inner.get(object);
  }

  list(key: WatchKey, labelSelector?: string): Promise<KubeObject[]> {
    return this.inner.list(key, labelSelector);
  }

  watch(key: WatchKey, onEvent: WatchListener): () => void {
    return this.inner.watch(key, onEvent);
  }

  /** Passed through so the engine can refresh discovery after a CRD is established. */
  invalidateDiscovery(): void {
    this.inner.invalidateDiscovery?.();
  }

  /** Passed through (when the inner port has it) so diagnosis reads the Events. */
  get events(): ClusterPort['events'] {
    return this.inner.events?.bind(this.inner);
  }

  /** Passed through so the engine sees a lost API server. */
  get availability(): ClusterPort['availability'] {
    return this.inner.availability;
  }
}
