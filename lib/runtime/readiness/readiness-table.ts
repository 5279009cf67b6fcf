import { KubeObject } from '../../graph';
import { ApplyOutcome, ReadinessResult, ReadinessRule } from '../ports';
import { apiServiceReadiness } from './api-service';
import { customResourceDefinitionReadiness } from './custom-resource-definition';
import { daemonSetReadiness } from './daemon-set';
import { deploymentReadiness } from './deployment';
import { EXISTS_IS_CURRENT_KINDS, existsReadiness } from './exists';
import { genericReadiness, unknownKindReadiness } from './generic';
import { jobReadiness } from './job';
import { namespaceReadiness } from './namespace';
import { ownWritePending } from './own-write';
import { persistentVolumeClaimReadiness } from './persistent-volume-claim';
import { podReadiness } from './pod';
import { podDisruptionBudgetReadiness } from './pod-disruption-budget';
import { replicaSetReadiness } from './replica-set';
import { serviceReadiness, serviceReadinessWaitingForLoadBalancer } from './service';
import { statefulSetReadiness } from './stateful-set';

/** The kind-specific rules, without the generic pre-checks (see `readinessRuleFor`). */
export const KIND_RULES: Readonly<Record<string, ReadinessRule>> = {
  Deployment: deploymentReadiness,
  StatefulSet: statefulSetReadiness,
  DaemonSet: daemonSetReadiness,
  ReplicaSet: replicaSetReadiness,
  Job: jobReadiness,
  Pod: podReadiness,
  Service: serviceReadiness,
  PersistentVolumeClaim: persistentVolumeClaimReadiness,
  PodDisruptionBudget: podDisruptionBudgetReadiness,
  CustomResourceDefinition: customResourceDefinitionReadiness,
  Namespace: namespaceReadiness,
  APIService: apiServiceReadiness,
  ...Object.fromEntries(EXISTS_IS_CURRENT_KINDS.map((kind) => [kind, existsReadiness])),
};

/** Options that change a rule. */
export interface ReadinessOptions {
  /** See `ServiceReadinessOptions.waitForLoadBalancer`. @default false */
  readonly waitForLoadBalancer?: boolean;
}

/**
 * The readiness rule for `kind`: the generic checks (deletion, observedGeneration, Stalled,
 * Reconciling) first, then the kind's rule; kinds without one go through the `Ready`-condition
 * rule and are reported "assumed ready" when they carry no status signal.
 *
 * @example
 * readinessRuleFor('Deployment')(liveDeployment) // { status: 'InProgress', message: '1/3 replicas available' }
 */
export function readinessRuleFor(kind: string, options: ReadinessOptions = {}): ReadinessRule {
  const kindRule =
    kind === 'Service' && options.waitForLoadBalancer
      ? serviceReadinessWaitingForLoadBalancer
      : (KIND_RULES[kind] ?? unknownKindReadiness);
  return (live: KubeObject) => genericReadiness(live) ?? kindRule(live);
}

/** True when `kind` has a rule of its own (not the unknown-kind fallback). */
export function hasKindRule(kind: string): boolean {
  return kind in KIND_RULES;
}

/**
 * The status of one object as the engine sees it: NotFound when absent, InProgress while our own
 * write is not observed yet (when `applied` is given), else the kind's rule.
 */
export function objectReadiness(
  live: KubeObject | undefined,
  applied?: ApplyOutcome,
  options: ReadinessOptions = {},
): ReadinessResult {
  if (!live)
    return {
      status: 'NotFound',
      message: applied ? 'not found (deleted after we applied it?)' : 'not found',
    };
  if (applied) {
    const pending = ownWritePending(applied, live);
    // A delete in progress explains more than "waiting for our write"; let the generic check say it.
    if (pending && live.metadata.deletionTimestamp === undefined) return pending;
  }
  return readinessRuleFor(live.kind, options)(live);
}
