import { ComponentGraph, KubeObject } from '../../graph';
import { ManifestInput, ManifestSelection, toLocatedGraph } from './deploy-input';
import { InventoryLocation, inventoryName } from '../inventory/inventory';
import { DeployRecord } from '../inventory/deploy-record';
import { KubeApiError } from '../kube/errors';
import { KubeCluster, KubeClusterOptions } from '../kube/kube-cluster';
import { diffCounts, RequestCounts } from '../kube/request-counter';
import { SkipUnchanged } from '../kube/skip-unchanged';
import { ClusterPort } from '../ports';
import { preflight as checkPlacement, PreflightFinding } from './preflight';
import { prune } from './prune';
import { DeletionResult, RolloutResult } from '../result';
import { DeletionOptions } from './delete-in-reverse-order';
import { rollout } from './rollout';
import { RolloutOptions } from './rollout-options';
import { FIELD_MANAGER } from '../defaults';
import { deployTarget } from '../upgrade/release-check';
import { recordedRelease } from '../upgrade/recorded-release';
import { renderUpgradePlan } from '../upgrade/render-upgrade-plan';

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
  readonly pruneOptions?: Omit<DeletionOptions, 'signal' | 'onEvent' | 'mode'>;
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
  /**
   * Told, before anything is written, that this deploy upgrades the cloud to the manifests'
   * release, with the phases it runs (as `stackwright plan` prints them; docs/upgrades.md).
   */
  readonly onUpgrade?: (upgrade: ReleaseUpgrade) => void;
}

/** A release upgrade a deploy runs. */
export interface ReleaseUpgrade {
  /** The release the cluster ran (the inventory's record). */
  readonly from: string;
  /** The manifests' release. */
  readonly to: string;
  /** The plan's phases, one line each, in the order they may start. */
  readonly phases: readonly string[];
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
  /** Present when the run upgraded the cloud's release (its phases ran as components). */
  readonly upgrade?: ReleaseUpgrade;
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
  manifests: ComponentGraph,
  location: InventoryLocation,
  cluster: ClusterPort,
  options: DeployOptions,
  owned: KubeCluster | undefined,
): Promise<DeployResult> {
  const before = owned?.requests.snapshot();
  const fieldManager = options.fieldManager ?? FIELD_MANAGER;
  const findings = await runPreflight(manifests, cluster, options);
  if (options.preflight === 'strict' && findings.some((f) => f.severity === 'error')) {
    throw new PreflightError(findings);
  }
  const opened = await DeployRecord.open(cluster, manifests, location, fieldManager);
  // The release recorded on the cluster against the manifests', before any write; an upgrade rolls
  // out the graph that runs its plan (docs/upgrades.md).
  const {
    graph,
    release,
    upgrade: plan,
    units,
  } = deployTarget(manifests, location.cloud, await recordedRelease(cluster, opened.current));
  const record = units.length > 0 ? opened.withUnits(units) : opened;
  const upgrade = plan && { from: plan.from, to: plan.to, phases: renderUpgradePlan(plan) };
  if (upgrade) options.onUpgrade?.(upgrade);
  const inventory = () => ({
    name: inventoryName(location.cloud),
    namespace: location.namespace,
    writes: record.writes,
  });

  // 1. Pending inventory: every object this run may create is recorded before it exists.
  const port = options.skipUnchanged === false ? cluster : new SkipUnchanged(cluster, record.previousHash);
  await record.recordPending(port);

  // 2. Roll out, skipping writes for unchanged objects.
  const result = await rollout(graph, port, options);
  const skippedUnchanged = port instanceof SkipUnchanged ? port.skipped.length : 0;
  if (result.outcome === 'unreachable') {
    // No API server to record anything in: the pending inventory already covers what was applied.
    return {
      ok: false,
      rollout: result,
      inventory: { ...inventory(), orphans: [] },
      skippedUnchanged,
      preflight: findings,
      ...(upgrade ? { upgrade } : {}),
    };
  }

  // 3. Record what was applied (and the release, only once the whole rollout succeeded).
  await record.recordApplied(result, release);

  // 4. Prune what left the manifests, only after a fully successful rollout.
  let pruneResult: DeletionResult | undefined;
  if (options.prune && result.ok && !options.signal?.aborted && record.current) {
    const pruned = await prune(record.current, graph, cluster, {
      ...options.pruneOptions,
      signal: options.signal,
      onEvent: options.onEvent,
    });
    pruneResult = pruned.result;
    await record.forget(pruned.removed);
  }

  const after = owned?.requests.snapshot();
  return {
    ok: result.ok && (pruneResult?.ok ?? true),
    rollout: result,
    ...(pruneResult ? { prune: pruneResult } : {}),
    inventory: { ...inventory(), orphans: record.orphans() },
    skippedUnchanged,
    preflight: findings,
    ...(upgrade ? { upgrade } : {}),
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
