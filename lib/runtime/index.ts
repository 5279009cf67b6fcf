// The public face of `stackwright/runtime`: what a user of the runtime needs, and nothing else.
// Internals (the engine, the scheduler, watches, the Kubernetes transport) stay importable by
// path for the project's own tests; the in-memory cluster and the manual clock are in
// `stackwright/testing`.

// Operations, with their options and results
export { deploy, PreflightError } from './operations/deploy';
export type { DeployOptions, DeployResult, ReleaseUpgrade } from './operations/deploy';
export { rollout, verify } from './operations/rollout';
export type { RolloutOptions, VerifyOptions } from './operations/rollout-options';
export { destroy, destroyUnits, planDestroy, runDestroy } from './operations/destroy';
export type { DestroyOptions, DestroyPlan, DestroyResult } from './operations/destroy';
export { prune, pruneUnits } from './operations/prune';
export { BOOTSTRAP_UNIT } from '../graph';
export { plan, planGraph, renderPlan } from './operations/plan';
export type {
  ObjectPlan,
  PlannedAction,
  PlanOptions,
  PlanResult,
  RenderPlanOptions,
} from './operations/plan';
export { deleteInReverseOrder } from './operations/delete-in-reverse-order';
export type { DeletionOptions, DeletionUnit } from './operations/delete-in-reverse-order';
export { waitUntilGone } from './engine/delete-and-wait-gone';
export { preflight } from './operations/preflight';
export type { PreflightFinding } from './operations/preflight';
export { toGraph } from './operations/deploy-input';
export type { ManifestInput, ManifestSelection } from './operations/deploy-input';
export type { ChartLike, ManifestSource, ValidatableConstruct } from '../graph';

// Events and results
export * from './events';
export * from './result';

// The cluster port
export * from './ports';

// The readiness table
export { hasKindRule, KIND_RULES, objectReadiness, readinessRuleFor } from './readiness/readiness-table';
export type { ReadinessOptions } from './readiness/readiness-table';

// The inventory a deploy records
export * from './inventory/inventory';

// The real cluster adapter
export { KubeCluster } from './kube/kube-cluster';
export type { KubeClusterOptions } from './kube/kube-cluster';
export { ClusterUnreachableError } from './cluster-unreachable-error';
export { KubeApiError } from './kube/errors';
export { diffCounts } from './kube/request-counter';
export type { RequestCounts } from './kube/request-counter';
export { SkipUnchanged } from './kube/skip-unchanged';

// Defaults every operation shares
export { DEFAULT_CONCURRENCY, FIELD_MANAGER } from './defaults';

// Time, for callers that pass their own clock
export type { Clock } from './timing/clock';
export { systemClock } from './timing/clock';

// The deployer's own permissions (`stackwright rbac`)
export { deployerBindings, deployerRbac } from './deployer-rbac';
export type { DeployerRbac, DeployerSubject, PolicyRule } from './deployer-rbac';
