import { FORCED_DOWNSCALE_LABEL, KubeObject } from '../../graph';
import {
  checkPlacement,
  nodeLabels,
  NodeSelectorRequirement,
  placementConstraints,
  requirementHolds,
  Taint,
} from './placement';

// The words half of placement: what `placement.ts` finds, said as sentences ending in the command
// that fixes it.

/** The `key=value` (or `key-` to remove) argument of `kubectl label` that satisfies `requirement`. */
export function labelArgument(requirement: NodeSelectorRequirement): string {
  switch (requirement.operator) {
    case 'Exists':
      return `${requirement.key}=true`;
    case 'In':
      return `${requirement.key}=${requirement.values[0] ?? ''}`;
    case 'Gt':
      return `${requirement.key}=${Number(requirement.values[0]) + 1}`;
    case 'Lt':
      return `${requirement.key}=${Number(requirement.values[0]) - 1}`;
    default:
      // NotIn / DoesNotExist: the label must go (or change value).
      return `${requirement.key}-`;
  }
}

/** `key=value:Effect` as kubectl prints taints. */
function formatTaint(taint: Taint): string {
  return `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`;
}

function formatRequirement(r: NodeSelectorRequirement): string {
  switch (r.operator) {
    case 'Exists':
      return r.key;
    case 'DoesNotExist':
      return `no ${r.key}`;
    case 'In':
      return r.values.length === 1 ? `${r.key}=${r.values[0]}` : `${r.key} in (${r.values.join(', ')})`;
    case 'NotIn':
      return `${r.key} not in (${r.values.join(', ')})`;
    default:
      return `${r.key} ${r.operator} ${r.values.join(',')}`;
  }
}

/**
 * Explains why no node can host a pod spec, in sentences ending with the command that fixes it, or
 * returns an empty list when some node fits. Used by pod diagnosis and by preflight.
 *
 * @example
 * explainUnplaceable(novaComputeTemplate.spec, nodes)
 * // ['no node carries the scheduling label compute.yaook.cloud/hypervisor; fix: kubectl label node <a-suitable-node> compute.yaook.cloud/hypervisor=true']
 */
export function explainUnplaceable(podSpec: unknown, nodes: readonly KubeObject[]): string[] {
  if (nodes.length === 0) return ['the cluster has no nodes'];
  const constraints = placementConstraints(podSpec);
  const verdict = checkPlacement(podSpec, nodes);
  if (verdict.fits.length > 0) return [];
  const messages: string[] = [];

  const forced = Object.keys(constraints.nodeSelector).find((k) => k === FORCED_DOWNSCALE_LABEL);
  if (forced) {
    return [
      `the pod template selects ${forced}, the reserved label that downscales to zero; no node carries it by design (remove the nodeSelector to scale up again)`,
    ];
  }

  const labelOk = verdict.mismatches.filter((m) => m.missingLabels.length === 0);
  if (labelOk.length === 0) {
    // No node has the labels. Name the labels and the fix; suggest nodes whose taints the pod tolerates.
    const wantedPerTerm =
      constraints.terms.length > 0
        ? constraints.terms.map((term) => [
            ...Object.entries(constraints.nodeSelector).map(([key, v]) => ({
              key,
              operator: 'In',
              values: [v],
            })),
            ...term,
          ])
        : [
            Object.entries(constraints.nodeSelector).map(([key, v]) => ({
              key,
              operator: 'In',
              values: [v],
            })),
          ];
    const schedulingKeys = [
      ...new Set(
        wantedPerTerm.map((term) => term.filter((r) => r.operator === 'Exists').map((r) => r.key)).flat(),
      ),
    ];
    // Nodes that carry a scheduling key but miss another requirement (e.g. OVN maintenance pending):
    // name them and what they lack, since labelling "a suitable node" would be the wrong advice.
    const byName = new Map(nodes.map((n) => [n.metadata.name, n]));
    const partial = verdict.mismatches.filter((m) => {
      const labels = nodeLabels(byName.get(m.node) ?? nodes[0]);
      return schedulingKeys.some((k) => labels[k] !== undefined);
    });
    if (partial.length > 0) {
      return partial.slice(0, 3).map((m) => {
        const labels = nodeLabels(byName.get(m.node) ?? nodes[0]);
        const carried = schedulingKeys.filter((k) => labels[k] !== undefined);
        const overwrite = m.missingLabels.some((r) => labels[r.key] !== undefined) ? ' --overwrite' : '';
        const parts = [
          `node ${m.node} carries ${carried.join(', ')} but lacks ${m.missingLabels.map(formatRequirement).join(', ')}`,
        ];
        const fixes = [
          `kubectl label node ${m.node} ${m.missingLabels.map(labelArgument).join(' ')}${overwrite}`,
        ];
        if (m.untoleratedTaints.length > 0) {
          parts.push(
            `and has taint ${m.untoleratedTaints.map(formatTaint).join(', ')} that the pod does not tolerate`,
          );
          fixes.push(
            `kubectl taint node ${m.node} ${m.untoleratedTaints.map((t) => `${t.key}:${t.effect}-`).join(' ')}`,
          );
        }
        if (m.cordoned) {
          parts.push('and is cordoned');
          fixes.push(`kubectl uncordon ${m.node}`);
        }
        return `${parts.join(' ')}; fix: ${fixes.join(' && ')}`;
      });
    }
    const keyPart =
      schedulingKeys.length === 1
        ? `no node carries the scheduling label ${schedulingKeys[0]}`
        : schedulingKeys.length > 1
          ? `no node carries any of the scheduling labels ${schedulingKeys.join(', ')}`
          : `no node matches ${wantedPerTerm.map((t) => t.map(formatRequirement).join(' and ')).join(' or ')}`;
    // Other requirements of the terms that carry a key (e.g. the OVN maintenance label) may be missing too.
    const firstTerm = wantedPerTerm[0] ?? [];
    const extra = firstTerm.filter(
      (r) =>
        r.operator !== 'Exists' &&
        verdict.mismatches.every((m) => m.missingLabels.some((x) => x.key === r.key)),
    );
    const extraPart = extra.length > 0 ? ` (and none has ${extra.map(formatRequirement).join(', ')})` : '';
    const tolerable = verdict.mismatches
      .filter((m) => m.untoleratedTaints.length === 0 && !m.cordoned)
      .map((m) => m.node);
    const candidates =
      tolerable.length > 0
        ? `; nodes whose taints it tolerates: ${tolerable.slice(0, 5).join(', ')}${tolerable.length > 5 ? ', …' : ''}`
        : '; note that every node also has a taint the pod does not tolerate or is cordoned, so pick a node and remove that too';
    // Leave out what every node already satisfies (kubernetes.io/os=linux, …): only what is missing.
    const labelsOf = nodes.map(nodeLabels);
    const fixArgs = firstTerm
      .filter((r) => !labelsOf.every((labels) => requirementHolds(labels, r)))
      .map(labelArgument)
      .join(' ');
    messages.push(
      `${keyPart}${extraPart}; fix: kubectl label node <a-suitable-node> ${fixArgs}${candidates}`,
    );
    return messages;
  }

  // Some nodes carry the labels; they are tainted or cordoned.
  for (const m of labelOk) {
    const problems: string[] = [];
    const fixes: string[] = [];
    if (m.untoleratedTaints.length > 0) {
      problems.push(
        `has taint ${m.untoleratedTaints.map(formatTaint).join(', ')} that the pod does not tolerate`,
      );
      fixes.push(
        `kubectl taint node ${m.node} ${m.untoleratedTaints.map((t) => `${t.key}:${t.effect}-`).join(' ')}`,
      );
    }
    if (m.cordoned) {
      problems.push('is cordoned');
      fixes.push(`kubectl uncordon ${m.node}`);
    }
    messages.push(
      `node ${m.node} carries the required labels but ${problems.join(' and ')}; fix: ${fixes.join(' && ')} (or tolerate the taint in the stack)`,
    );
  }
  return messages;
}
