import { PodPlacement } from './placement';
import { FORCED_DOWNSCALE_LABEL } from './reserved-labels';

export interface NodeSelectorRequirement {
  readonly key: string;
  readonly operator: 'Exists' | 'In';
  readonly values?: readonly string[];
}

export interface Toleration {
  readonly key: string;
  readonly operator: 'Exists';
  readonly effect: 'NoSchedule' | 'NoExecute';
}

/** The scheduling part of a pod spec, as plain JSON in Kubernetes' field names. */
export interface PodScheduling {
  readonly affinity: {
    readonly nodeAffinity: {
      readonly requiredDuringSchedulingIgnoredDuringExecution: {
        readonly nodeSelectorTerms: readonly {
          readonly matchExpressions: readonly NodeSelectorRequirement[];
        }[];
      };
    };
  };
  readonly tolerations: readonly Toleration[];
  readonly nodeSelector?: Readonly<Record<string, string>>;
}

const EFFECTS = ['NoSchedule', 'NoExecute'] as const;

/**
 * Synthesises a placement, as the Yaook scheduling concept prescribes: for every key, tolerations
 * for NoSchedule and NoExecute (operator Exists), and a required node affinity with one
 * nodeSelectorTerm per key (terms are ORed) whose expression is `key Exists`. Required labels and
 * template selectors are added to every term, since they must hold whichever key matched.
 *
 * `forcedDownscale` adds the reserved nodeSelector that matches no node, so a DaemonSet runs zero pods.
 */
export function podScheduling(p: PodPlacement, options: { forcedDownscale?: boolean } = {}): PodScheduling {
  const narrowing: NodeSelectorRequirement[] = Object.entries({ ...p.requiredLabels, ...p.nodeSelector })
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => ({ key, operator: 'In', values: [value] }));
  return {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: p.keys.map((key) => ({
            matchExpressions: [{ key, operator: 'Exists' }, ...narrowing],
          })),
        },
      },
    },
    tolerations: p.keys.flatMap((key) =>
      EFFECTS.map((effect) => ({ key, operator: 'Exists' as const, effect })),
    ),
    ...(options.forcedDownscale ? { nodeSelector: { [FORCED_DOWNSCALE_LABEL]: 'true' } } : {}),
  };
}
