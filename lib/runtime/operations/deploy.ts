import { ComponentGraph, KubeObject, objectRef } from '../../graph';
import { ManifestInput, ManifestSelection, toLocatedGraph } from './deploy-input';
import {
  Inventory,
  inventoryFromGraph,
  InventoryLocation,
  inventoryName,
  inventoryRef,
  mergeInventories,
  readInventory,
  withoutObjects,
  writeInventory,
} from '../inventory/inventory';
import { KubeApiError } from '../kube/errors';
import { KubeCluster, KubeClusterOptions } from '../kube/kube-cluster';
import { hashObject } from '../kube/object-diff';
import { diffCounts, RequestCounts } from '../kube/request-counter';
import { SkipUnchanged } from '../kube/skip-unchanged';
import { ClusterPort } from '../ports';
import { preflight as checkPlacement, PreflightFinding } from './preflight';
import { prune } from './prune';
import { RolloutResult } from '../result';
import { DeletionEvent, DeletionOptions, DeletionResult } from './delete-in-reverse-order';
import { rollout } from './rollout';
import { RolloutOptions } from './rollout-options';
import { FIELD_MANAGER } from '../defaults';
import { releaseToDeploy } from '../upgrade/release-check';

export interface DeployOptions
  extends RolloutOptions, ManifestSelection, Pick<KubeClusterOptions, 'kubeconfig' | 'context'> {
  /** Use this port instead of connecting with the kubeconfig (tests, embedding). */
  readonly cluster?: ClusterPort;
  /**
   * After a successful rollout, delete objects an earlier deploy applied that the manifests no
   * longer contain (reverse dependency order, waiting until gone).
   * @default false
   */
  readonly prune?: boolean;
  /** Settings of the prune deletion (propagation, timeout). */
  readonly pruneOptions?: Omit<DeletionOptions, 'signal' | 'onEvent'>;
  /** Told about prune progress. */
  readonly onDeletionEvent?: (event: DeletionEvent) => void;
  /**
   * Skip the write for objects whose manifest and live fields are unchanged since the last deploy
   * (see `SkipUnchanged`); false sends every apply.
   * @default true
   */
  readonly skipUnchanged?: boolean;
  /**
   * Before the first write, check that the nodes can host every workload's placement (labels,
   * affinity, taints). `report`: findings go to `onPreflight` and the result, the rollout runs (a
   * node labelled meanwhile still lets the component verify); `strict`: any error finding stops the
   * deploy before anything is written; `off`: no check.
   * @default 'report'
   */
  readonly preflight?: 'report' | 'strict' | 'off';
  /** Told about the preflight findings (called once, before the rollout). */
  readonly onPreflight?: (findings: readonly PreflightFinding[]) => void;
}

export interface DeployResult {
  /** True when the rollout succeeded and, if asked, the prune too. */
  readonly ok: boolean;
  readonly rollout: RolloutResult;
  /** Present when `prune` was asked and the rollout succeeded. */
  readonly prune?: DeletionResult;
  readonly inventory: {
    readonly name: string;
    readonly namespace: string;
    /** How many times the inventory was written during this run (0 on a no-op re-run). */
    readonly writes: number;
    /** Objects recorded but no longer in the manifests (left in place: run with prune). */
    readonly orphans: readonly string[];
  };
  /** Objects whose apply was skipped because nothing changed. */
  readonly skippedUnchanged: number;
  /** What the preflight found (empty when every workload can be placed, or preflight was off). */
  readonly preflight: readonly PreflightFinding[];
  /** API requests of this run, when the Kubernetes port was used. */
  readonly requests?: RequestCounts;
}

/**
 * Deploys a cloud: rebuilds the component graph from the input, records the run in the inventory
 * (before the first apply, so an interrupted run can still be pruned), rolls the components out
 * in dependency order verifying each before its dependants (see `rollout`), records what was
 * applied, and with `prune` deletes what left the manifests. Re-running converges: server-side
 * apply is idempotent, and unchanged objects are not written at all.
 *
 * @example
 * const result = await deploy('dist/', { concurrency: 8, onEvent: (e) => console.log(e.type) });
 * process.exitCode = result.ok ? 0 : 1;
 */
export async function deploy(input: ManifestInput, options: DeployOptions = {}): Promise<DeployResult> {
  const { graph, location } = toLocatedGraph(input, options);
  const owned = options.cluster ? undefined : await KubeCluster.connect(options);
  const cluster: ClusterPort = options.cluster ?? (owned as KubeCluster);
  try {
    if (owned) await owned.serverVersion();
    return await deployGraph(graph, location, cluster, options, owned);
  } finally {
    owned?.close();
  }
}

async function deployGraph(
  graph: ComponentGraph,
  location: InventoryLocation,
  cluster: ClusterPort,
  options: DeployOptions,
  owned: KubeCluster | undefined,
): Promise<DeployResult> {
  const before = owned?.requests.snapshot();
  const fieldManager = options.fieldManager ?? FIELD_MANAGER;
  const findings = await runPreflight(graph, cluster, options);
  if (options.preflight === 'strict' && findings.some((f) => f.severity === 'error')) {
    throw new PreflightError(findings);
  }
  let recorded = await readInventory(cluster, location);
  // The release recorded on the cluster against the manifests', before any write (docs/upgrades.md).
  const release = releaseToDeploy(graph, location.cloud, recorded?.release);
  let writes = 0;

  // 1. Pending inventory: every object this run may create is recorded before it exists.
  const previousHash = new Map((recorded?.objects ?? []).map((o) => [inventoryRef(o), o.hash]));
  const port = options.skipUnchanged === false ? cluster : new SkipUnchanged(cluster, previousHash);
  const pending = mergeInventories(
    recorded,
    inventoryFromGraph(graph, location, 'pending', (_o, ref) => previousHash.get(ref) ?? ''),
  );
  if (!recorded || pending.objects.length !== recorded.objects.length) {
    await ensureNamespace(graph, location, port, fieldManager);
    if (await writeInventory(cluster, pending, recorded, { fieldManager })) writes += 1;
    recorded = pending;
  }

  // 2. Roll out, skipping writes for unchanged objects.
  const result = await rollout(graph, port, options);
  if (result.outcome === 'unreachable') {
    // No API server to record anything in: the pending inventory already covers what was applied.
    return {
      ok: false,
      rollout: result,
      inventory: { name: inventoryName(location.cloud), namespace: location.namespace, writes, orphans: [] },
      skippedUnchanged: port instanceof SkipUnchanged ? port.skipped.length : 0,
      preflight: findings,
    };
  }

  // 3. Record what was applied: its new hash; everything else keeps what it had.
  const appliedRefs = new Set(
    [...result.bootstrap.objects, ...result.components.flatMap((c) => c.objects)]
      .filter((o) => o.action !== undefined)
      .map((o) => o.ref),
  );
  const desiredHash = new Map(
    [...graph.bootstrap, ...graph.components.flatMap((c) => c.objects)].map((o) => [
      objectRef(o),
      hashObject(o),
    ]),
  );
  const applied = inventoryFromGraph(graph, location, 'complete', (_o, ref) =>
    appliedRefs.has(ref) ? (desiredHash.get(ref) ?? '') : (previousHash.get(ref) ?? ''),
  );
  // The release is recorded only once the whole rollout succeeded: a half-done run keeps the previous one.
  let final: Inventory = mergeInventories(recorded, result.ok && release ? { ...applied, release } : applied);
  if (await writeInventory(cluster, final, recorded, { fieldManager })) writes += 1;
  recorded = final;

  // 4. Prune what left the manifests, only after a fully successful rollout.
  let pruneResult: DeletionResult | undefined;
  if (options.prune && result.ok && !options.signal?.aborted) {
    const pruned = await prune(recorded, graph, cluster, {
      ...options.pruneOptions,
      signal: options.signal,
      onEvent: options.onDeletionEvent,
    });
    pruneResult = pruned.result;
    final = withoutObjects(recorded, pruned.removed);
    if (await writeInventory(cluster, final, recorded, { fieldManager })) writes += 1;
  }

  const current = new Set(desiredHash.keys());
  const orphans = final.objects.map(inventoryRef).filter((ref) => !current.has(ref));
  const skipped = port instanceof SkipUnchanged ? port.skipped.length : 0;
  const after = owned?.requests.snapshot();
  return {
    ok: result.ok && (pruneResult?.ok ?? true),
    rollout: result,
    ...(pruneResult ? { prune: pruneResult } : {}),
    inventory: {
      name: inventoryName(location.cloud),
      namespace: location.namespace,
      writes,
      orphans,
    },
    skippedUnchanged: skipped,
    preflight: findings,
    ...(before && after ? { requests: diffCounts(before, after) } : {}),
  };
}

/** `preflight: 'strict'` found workloads no node can host; nothing was written. */
export class PreflightError extends Error {
  constructor(readonly findings: readonly PreflightFinding[]) {
    super(
      `preflight: ${findings.filter((f) => f.severity === 'error').length} workload(s) cannot be placed on any node; nothing was written:\n` +
        findings
          .filter((f) => f.severity === 'error')
          .map((f) => `  ${f.component}: ${f.message}`)
          .join('\n'),
    );
    this.name = 'PreflightError';
  }
}

async function runPreflight(
  graph: ComponentGraph,
  cluster: ClusterPort,
  options: DeployOptions,
): Promise<PreflightFinding[]> {
  if (options.preflight === 'off') return [];
  let nodes: KubeObject[];
  try {
    nodes = await cluster.list({ apiVersion: 'v1', kind: 'Node' });
  } catch (error) {
    // Not allowed to list nodes (namespace-scoped credentials): placement cannot be checked up front.
    if (error instanceof KubeApiError && error.status === 403) return [];
    throw error;
  }
  const findings = checkPlacement(graph, nodes);
  options.onPreflight?.(findings);
  return findings;
}

/**
 * The inventory lives in the cloud's namespace, which the stack itself may create: apply that
 * Namespace object first (a no-op when it exists) so the pending inventory can be written.
 */
async function ensureNamespace(
  graph: ComponentGraph,
  location: InventoryLocation,
  cluster: ClusterPort,
  fieldManager: string,
): Promise<void> {
  const namespaceObject: KubeObject | undefined = [
    ...graph.bootstrap,
    ...graph.components.flatMap((c) => c.objects),
  ].find((o) => o.kind === 'Namespace' && o.apiVersion === 'v1' && o.metadata.name === location.namespace);
  const existing = await cluster.get({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: location.namespace },
  });
  if (existing) return;
  if (!namespaceObject) {
    throw new Error(
      `namespace ${location.namespace} does not exist and the manifests do not create it; create it or add a Namespace object`,
    );
  }
  await cluster.apply(namespaceObject, { fieldManager, force: false, dryRun: false });
}
