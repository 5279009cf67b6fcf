import { Annotations, GroupKind, groupKindOf, KubeObject } from '../../graph';
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

/**
 * The kind-specific rules keyed by `group/Kind` (bare `Kind` for the core group), without the
 * generic pre-checks (see `readinessRuleFor`). A custom kind that is not listed, even one named
 * like a core kind (`serving.knative.dev/Service`), goes through the `Ready`-condition rule.
 */
export const KIND_RULES: Readonly<Record<GroupKind, ReadinessRule>> = {
  'apps/Deployment': deploymentReadiness,
  'apps/StatefulSet': statefulSetReadiness,
  'apps/DaemonSet': daemonSetReadiness,
  'apps/ReplicaSet': replicaSetReadiness,
  'batch/Job': jobReadiness,
  Pod: podReadiness,
  Service: serviceReadiness,
  PersistentVolumeClaim: persistentVolumeClaimReadiness,
  'policy/PodDisruptionBudget': podDisruptionBudgetReadiness,
  'apiextensions.k8s.io/CustomResourceDefinition': customResourceDefinitionReadiness,
  Namespace: namespaceReadiness,
  'apiregistration.k8s.io/APIService': apiServiceReadiness,
  ...Object.fromEntries(EXISTS_IS_CURRENT_KINDS.map((kind) => [kind, existsReadiness])),
};

/** What a rule is looked up by: an object or its type (exact), or a `group/Kind` string. */
export type KindKey = GroupKind | { readonly apiVersion: string; readonly kind: string };

function groupKindKey(key: KindKey): GroupKind {
  if (typeof key !== 'string') return groupKindOf(key);
  if (key in KIND_RULES || key.includes('/')) return key;
  // A bare kind that is not a core kind: the built-in group it names (deprecated: pass the object
  // or `group/Kind`; kept for one minor version so `readinessRuleFor('Deployment')` still works).
  return Object.keys(KIND_RULES).find((k) => k.endsWith(`/${key}`)) ?? key;
}

/** Options that change a rule. */
export interface ReadinessOptions {
  /** See `ServiceReadinessOptions.waitForLoadBalancer`. @default false */
  readonly waitForLoadBalancer?: boolean;
  /**
   * ref -> manifest hash the last deploy recorded (the inventory), for judging objects that are
   * gone (see `goneReadiness`). @default - none recorded
   */
  readonly recordedHashes?: ReadonlyMap<string, string>;
}

/**
 * The readiness rule for `kind` (an object, or `group/Kind`): the generic checks (deletion, observedGeneration, Stalled,
 * Reconciling) first, then the kind's rule; kinds without one go through the `Ready`-condition
 * rule and are reported "assumed ready" when they carry no status signal.
 *
 * @example
 * readinessRuleFor(liveDeployment)(liveDeployment) // { status: 'InProgress', message: '1/3 replicas available' }
 */
export function readinessRuleFor(kind: KindKey, options: ReadinessOptions = {}): ReadinessRule {
  const key = groupKindKey(kind);
  const kindRule =
    key === 'Service' && options.waitForLoadBalancer
      ? serviceReadinessWaitingForLoadBalancer
      : (KIND_RULES[key] ?? unknownKindReadiness);
  return (live: KubeObject) =>
    genericReadiness(live) ??
    (live.metadata.annotations?.[Annotations.WAIT] === 'exists' ? existsReadiness(live) : kindRule(live));
}

/** True when `kind` has a rule of its own (not the unknown-kind fallback). */
export function hasKindRule(kind: KindKey): boolean {
  return groupKindKey(kind) in KIND_RULES;
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
  return readinessRuleFor(live, options)(live);
}
