import { ComponentGraph, GraphComponent, KubeObject, objectRef } from '../../graph';
import { hashObject } from '../kube/object-diff';
import { ClusterPort } from '../ports';
import { RolloutResult } from '../result';
import {
  Inventory,
  inventoryFromGraph,
  InventoryLocation,
  InventoryObject,
  inventoryRef,
  mergeInventories,
  readInventory,
  withoutObjects,
  writeInventory,
} from './inventory';

/**
 * The inventory's life through one deploy: read what an earlier deploy recorded, record every
 * object this run may create before it exists (so an interrupted run can still be pruned), record
 * what was applied with its new hash, and forget what a prune deleted. Each write is skipped when
 * the record did not change; `writes` counts the others.
 *
 * @example
 * const record = await DeployRecord.open(cluster, graph, location, 'stackwright');
 * await record.recordPending(cluster);
 * await record.recordApplied(await rollout(graph, cluster));
 */
export class DeployRecord {
  /** How many times the inventory was written (0 on a no-op re-run). */
  writes = 0;

  private constructor(
    private readonly cluster: ClusterPort,
    private readonly graph: ComponentGraph,
    private readonly location: InventoryLocation,
    private readonly fieldManager: string,
    private recorded: Inventory | undefined,
    /** `Kind/namespace/name` -> the hash recorded by the last deploy (what skip-unchanged compares). */
    readonly previousHash: ReadonlyMap<string, string>,
    /** The graph whose hash is recorded: the manifests' (without a run's added units). */
    private readonly manifests: ComponentGraph = graph,
  ) {}

  /** Reads the cloud's inventory from `cluster` (absent before the first deploy). */
  static async open(
    cluster: ClusterPort,
    graph: ComponentGraph,
    location: InventoryLocation,
    fieldManager: string,
  ): Promise<DeployRecord> {
    const recorded = await readInventory(cluster, location);
    const previousHash = new Map((recorded?.objects ?? []).map((o) => [inventoryRef(o), o.hash]));
    return new DeployRecord(cluster, graph, location, fieldManager, recorded, previousHash);
  }

  /**
   * The same record, before anything is written, also covering `units`: components a run adds to
   * the manifests' graph (a release upgrade's phases, docs/upgrades.md). Their objects are recorded
   * like the manifests' (so prune finds them once they are gone from a later run); the graph hash
   * and the components' dependencies stay the manifests', so the deploy after the upgrade finds the
   * record unchanged and writes nothing.
   */
  withUnits(units: readonly GraphComponent[]): DeployRecord {
    if (this.writes > 0) throw new Error('internal error: DeployRecord.withUnits after a write');
    const graph = { ...this.graph, components: [...this.graph.components, ...units] };
    return new DeployRecord(
      this.cluster,
      graph,
      this.location,
      this.fieldManager,
      this.recorded,
      this.previousHash,
      this.graph,
    );
  }

  /** The inventory as last written (or read). */
  get current(): Inventory | undefined {
    return this.recorded;
  }

  /**
   * Records every object of the graph before the rollout, keeping recorded hashes. Creates the
   * cloud's namespace through `port` first when the record is new (a no-op when it exists).
   */
  async recordPending(port: ClusterPort): Promise<void> {
    const pending = mergeInventories(
      this.recorded,
      inventoryFromGraph(
        this.graph,
        this.location,
        'pending',
        (_o, ref) => this.previousHash.get(ref) ?? '',
        this.manifests,
      ),
    );
    if (this.recorded && pending.objects.length === this.recorded.objects.length) return;
    await this.ensureNamespace(port);
    await this.write(pending);
  }

  /**
   * Records the rollout: what it applied gets its new hash, everything else keeps what it had.
   * `release` is recorded only when the whole rollout succeeded: a half-done run keeps the
   * previous one (docs/upgrades.md).
   */
  async recordApplied(result: RolloutResult, release?: string): Promise<void> {
    const applied = new Set(
      [...result.bootstrap.objects, ...result.components.flatMap((c) => c.objects)]
        .filter((o) => o.action !== undefined)
        .map((o) => o.ref),
    );
    const desired = new Map(this.desiredObjects().map((o) => [objectRef(o), hashObject(o)]));
    const complete = inventoryFromGraph(
      this.graph,
      this.location,
      'complete',
      (_o, ref) => (applied.has(ref) ? (desired.get(ref) ?? '') : (this.previousHash.get(ref) ?? '')),
      this.manifests,
    );
    await this.write(
      mergeInventories(this.recorded, result.ok && release ? { ...complete, release } : complete),
    );
  }

  /** Forgets objects a prune deleted. */
  async forget(removed: readonly InventoryObject[]): Promise<void> {
    if (this.recorded) await this.write(withoutObjects(this.recorded, removed));
  }

  /** Objects recorded but no longer in the manifests. */
  orphans(): string[] {
    const current = new Set(this.desiredObjects().map(objectRef));
    return (this.recorded?.objects ?? []).map(inventoryRef).filter((ref) => !current.has(ref));
  }

  private desiredObjects(): KubeObject[] {
    return [...this.graph.bootstrap, ...this.graph.components.flatMap((c) => c.objects)];
  }

  private async write(next: Inventory): Promise<void> {
    if (await writeInventory(this.cluster, next, this.recorded, { fieldManager: this.fieldManager }))
      this.writes += 1;
    this.recorded = next;
  }

  /**
   * The inventory lives in the cloud's namespace, which the stack itself may create: apply that
   * Namespace object first (a no-op when it exists) so the pending inventory can be written.
   */
  private async ensureNamespace(port: ClusterPort): Promise<void> {
    const { namespace } = this.location;
    const existing = await port.get({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    if (existing) return;
    const object = this.desiredObjects().find(
      (o) => o.kind === 'Namespace' && o.apiVersion === 'v1' && o.metadata.name === namespace,
    );
    if (!object) {
      throw new Error(
        `namespace ${namespace} does not exist and the manifests do not create it; create it or add a Namespace object`,
      );
    }
    await port.apply(object, { fieldManager: this.fieldManager, force: false, dryRun: false });
  }
}
