import { KubeObject } from '../../graph';
import { asArray, asRecord, asString } from '../readiness/object-fields';

/**
 * Pure placement reasoning: can this pod spec run on that node? Mirrors the parts of the
 * kube-scheduler that Yaook scheduling relies on — `nodeSelector`, required node affinity (terms
 * ORed, expressions ANDed), NoSchedule/NoExecute taints against tolerations, cordoned nodes — so a
 * diagnosis can say which label no node carries or which taint is not tolerated, and how to fix it.
 */

/** One `matchExpressions` entry. */
export interface NodeSelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values: readonly string[];
}

/** One node taint. */
export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}

/** One pod toleration. */
export interface Toleration {
  readonly key?: string;
  readonly operator?: string;
  readonly value?: string;
  readonly effect?: string;
}

/** The placement constraints of a pod spec, parsed. */
export interface PlacementConstraints {
  readonly nodeSelector: Readonly<Record<string, string>>;
  /** Required node affinity terms (ORed); empty when there is no required affinity. */
  readonly terms: readonly (readonly NodeSelectorRequirement[])[];
  readonly tolerations: readonly Toleration[];
}

/** Why one node cannot host a pod. */
export interface NodeMismatch {
  readonly node: string;
  /** Label requirements the node misses, for the term it came closest to satisfying. */
  readonly missingLabels: readonly NodeSelectorRequirement[];
  readonly untoleratedTaints: readonly Taint[];
  readonly cordoned: boolean;
}

/** The outcome of checking a pod spec against every node. */
export interface PlacementVerdict {
  /** Nodes that can host the pod (labels, taints and cordon permitting). */
  readonly fits: readonly string[];
  /** Every other node with its reasons. */
  readonly mismatches: readonly NodeMismatch[];
}

/** Parses `spec.nodeSelector`, required node affinity and tolerations out of a pod spec. */
export function placementConstraints(podSpec: unknown): PlacementConstraints {
  const sp = asRecord(podSpec);
  const nodeSelector = Object.fromEntries(
    Object.entries(asRecord(sp.nodeSelector)).map(([k, v]) => [k, String(v)]),
  );
  const required = asRecord(
    asRecord(asRecord(sp.affinity).nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution,
  );
  const terms = asArray(required.nodeSelectorTerms).map((term) =>
    asArray(asRecord(term).matchExpressions).map((raw) => {
      const e = asRecord(raw);
      return {
        key: asString(e.key) ?? '',
        operator: asString(e.operator) ?? 'In',
        values: asArray(e.values).map(String),
      };
    }),
  );
  const tolerations = asArray(sp.tolerations).map((raw) => {
    const t = asRecord(raw);
    return {
      key: asString(t.key),
      operator: asString(t.operator),
      value: asString(t.value),
      effect: asString(t.effect),
    };
  });
  return { nodeSelector, terms, tolerations };
}

/** The pod template spec of a workload (Deployment, StatefulSet, DaemonSet, Job, CronJob), or a Pod's spec. */
export function podSpecOf(object: KubeObject): Record<string, unknown> | undefined {
  const sp = asRecord(object.spec);
  switch (object.kind) {
    case 'Pod':
      return sp;
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'Job':
      return asRecord(asRecord(sp.template).spec);
    case 'CronJob':
      return asRecord(asRecord(asRecord(asRecord(sp.jobTemplate).spec).template).spec);
    default:
      return undefined;
  }
}

/** A node's labels. */
export function nodeLabels(node: KubeObject): Readonly<Record<string, string>> {
  return node.metadata.labels ?? {};
}

/** A node's taints, including the implicit one of a cordoned node. */
function nodeTaints(node: KubeObject): Taint[] {
  return asArray(asRecord(node.spec).taints).map((raw) => {
    const t = asRecord(raw);
    return {
      key: asString(t.key) ?? '',
      value: asString(t.value),
      effect: asString(t.effect) ?? 'NoSchedule',
    };
  });
}

/** True when `requirement` holds for `labels` (kube-scheduler semantics). */
export function requirementHolds(
  labels: Readonly<Record<string, string>>,
  requirement: NodeSelectorRequirement,
): boolean {
  const value = labels[requirement.key];
  switch (requirement.operator) {
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'In':
      return value !== undefined && requirement.values.includes(value);
    case 'NotIn':
      return value === undefined || !requirement.values.includes(value);
    case 'Gt':
      return value !== undefined && Number(value) > Number(requirement.values[0]);
    case 'Lt':
      return value !== undefined && Number(value) < Number(requirement.values[0]);
    default:
      return false;
  }
}

/** True when some toleration tolerates `taint`. PreferNoSchedule taints never block. */
export function isTolerated(taint: Taint, tolerations: readonly Toleration[]): boolean {
  if (taint.effect === 'PreferNoSchedule') return true;
  return tolerations.some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (!t.key) return t.operator === 'Exists';
    if (t.key !== taint.key) return false;
    if (t.operator === 'Exists') return true;
    return (t.value ?? '') === (taint.value ?? '');
  });
}

/** Checks one node; `missingLabels` is empty when the labels fit. */
function checkNode(constraints: PlacementConstraints, node: KubeObject): NodeMismatch {
  const labels = nodeLabels(node);
  const selectorMisses: NodeSelectorRequirement[] = Object.entries(constraints.nodeSelector)
    .filter(([k, v]) => labels[k] !== v)
    .map(([key, value]) => ({ key, operator: 'In', values: [value] }));
  let termMisses: NodeSelectorRequirement[] = [];
  if (constraints.terms.length > 0) {
    const perTerm = constraints.terms.map((term) => term.filter((r) => !requirementHolds(labels, r)));
    termMisses = perTerm.reduce((best, misses) => (misses.length < best.length ? misses : best), perTerm[0]);
  }
  return {
    node: node.metadata.name,
    missingLabels: [...selectorMisses, ...termMisses],
    untoleratedTaints: nodeTaints(node).filter((t) => !isTolerated(t, constraints.tolerations)),
    cordoned: asRecord(node.spec).unschedulable === true,
  };
}

/** Checks a pod spec against every node. */
export function checkPlacement(podSpec: unknown, nodes: readonly KubeObject[]): PlacementVerdict {
  const constraints = placementConstraints(podSpec);
  const fits: string[] = [];
  const mismatches: NodeMismatch[] = [];
  for (const node of [...nodes].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    const check = checkNode(constraints, node);
    if (check.missingLabels.length === 0 && check.untoleratedTaints.length === 0 && !check.cordoned)
      fits.push(check.node);
    else mismatches.push(check);
  }
  return { fits, mismatches };
}
