import { ComponentGraph } from '../../graph';
import { runComponents } from '../engine/component-run';
import { ClusterPort } from '../ports';
import { RolloutResult } from '../result';
import { RolloutOptions, VerifyOptions } from './rollout-options';
import { systemClock } from '../timing/clock';
import { DEFAULT_CONCURRENCY, FIELD_MANAGER } from '../defaults';

/**
 * Deploys the graph and verifies it, per component:
 *
 * 1. bootstrap objects (namespaces, CRDs, cluster RBAC — objects of no component) are applied and
 *    waited for;
 * 2. each component starts the moment its own gating edges are verified (never a level barrier),
 *    within `concurrency`; it applies its objects in order (its Namespaces and CRDs first, waited
 *    for), then waits until every object is Current — observed through one shared watch per
 *    (apiVersion, kind, namespace), never by polling, and only once our own write is observed;
 * 3. a failure (apply rejected, object Failed, timeout) blocks only the failed component's
 *    transitive dependants; independent branches finish.
 *
 * Never rejects for cluster errors: everything that went wrong is in the result, with reasons.
 *
 * @example
 * const result = await rollout(graphFromManifests(loadManifests('dist/')), cluster, {
 *   concurrency: 8, onEvent: (e) => console.log(JSON.stringify(e)),
 * });
 * process.exitCode = result.ok ? 0 : 1;
 */
export async function rollout(
  graph: ComponentGraph,
  cluster: ClusterPort,
  options: RolloutOptions = {},
): Promise<RolloutResult> {
  return runComponents(graph, cluster, {
    mode: 'deploy',
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    fieldManager: options.fieldManager ?? FIELD_MANAGER,
    forceConflicts: options.forceConflicts ?? false,
    componentTimeoutMs: options.componentTimeoutMs ?? 600_000,
    runTimeoutMs: options.runTimeoutMs,
    noProgressTimeoutMs: options.noProgressTimeoutMs,
    diagnoseAfterMs: options.diagnoseAfterMs ?? 15_000,
    onEvent: options.onEvent,
    signal: options.signal,
    skip: options.skip ?? [],
    applyAttempts: Math.max(1, options.applyAttempts ?? 5),
    waitForLoadBalancer: options.waitForLoadBalancer ?? false,
    clock: options.clock ?? systemClock,
    diagnose: true,
  });
}

/**
 * Observes the graph's objects without writing anything and reports every component as `rollout`
 * would: verified when all its objects are Current, failed (with the object and its status) when
 * not — after waiting up to `waitMs` for them. Ordering does not matter when nothing is written,
 * so every component is checked at once (within `concurrency`); the same readiness table, watches
 * and diagnostics as `rollout`.
 */
export async function verify(
  graph: ComponentGraph,
  cluster: ClusterPort,
  options: VerifyOptions = {},
): Promise<RolloutResult> {
  const unordered: ComponentGraph = {
    ...graph,
    edges: [],
    components: graph.components.map((c) => ({ ...c, edges: [] })),
  };
  return runComponents(unordered, cluster, {
    mode: 'verify',
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    fieldManager: FIELD_MANAGER,
    forceConflicts: false,
    componentTimeoutMs: options.waitMs ?? 0,
    onEvent: options.onEvent,
    signal: options.signal,
    skip: [],
    applyAttempts: 1,
    waitForLoadBalancer: options.waitForLoadBalancer ?? false,
    recordedHashes: options.recordedHashes,
    clock: options.clock ?? systemClock,
    diagnose: options.diagnose ?? true,
  });
}
