import { Annotations, KubeObject, objectRef } from '../graph';
import { podSpecOf } from './objects';

/** Where a pod may run, as short strings a test compares or snapshots. */
export interface PlacementSummary {
  /**
   * The required node affinity: one entry per `nodeSelectorTerm` (the terms are ORed), its
   * expressions joined by `&`: `key` (Exists), `key=a,b` (In), `key!=a` (NotIn), `!key`
   * (DoesNotExist).
   */
  readonly nodeSelectorTerms: readonly string[];
  /** `key=value` of the pod's `nodeSelector`, sorted. */
  readonly nodeSelector: readonly string[];
  /** `key:Effect` of every toleration, sorted. */
  readonly tolerations: readonly string[];
}

/** What matters about one object, without the bulk of its spec. */
export interface ObjectSummary {
  /** `Kind/namespace/name`. */
  readonly object: string;
  /** The component's edges, `target:kind`, as the `stackwright.io/depends-on` annotation has them. */
  readonly dependsOn: readonly string[];
  /** Replicas of a Deployment or StatefulSet. @default - not a scaled workload */
  readonly replicas?: number;
  /** Images of the pod's init containers and containers, in order. @default - not a pod or workload */
  readonly images?: readonly string[];
  /** Placement of the pod. @default - not a pod or workload */
  readonly placement?: PlacementSummary;
}

interface NodeSelectorExpression {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

interface PodScheduling {
  readonly affinity?: {
    readonly nodeAffinity?: {
      readonly requiredDuringSchedulingIgnoredDuringExecution?: {
        readonly nodeSelectorTerms?: readonly {
          readonly matchExpressions?: readonly NodeSelectorExpression[];
        }[];
      };
    };
  };
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly tolerations?: readonly { readonly key?: string; readonly effect?: string }[];
  readonly initContainers?: readonly { readonly image?: string }[];
  readonly containers?: readonly { readonly image?: string }[];
}

const POD_KINDS = new Set(['Pod', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job']);

/**
 * The placement of a workload's (or a Pod's) pods: required node affinity, nodeSelector and
 * tolerations as short strings.
 *
 * @example
 * expect(placementOf(findObject(objects, 'Deployment', 'keystone-api')).nodeSelectorTerms)
 *   .toEqual(['identity.yaook.cloud/api', 'any.yaook.cloud/api']);
 */
export function placementOf(object: KubeObject): PlacementSummary {
  const spec = podSpecOf(object) as PodScheduling;
  const terms =
    spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  return {
    nodeSelectorTerms: terms.map((term) => (term.matchExpressions ?? []).map(expression).join('&')),
    nodeSelector: Object.entries(spec.nodeSelector ?? {})
      .map(([key, value]) => `${key}=${value}`)
      .sort(),
    tolerations: (spec.tolerations ?? []).map((t) => `${t.key ?? '*'}:${t.effect ?? '*'}`).sort(),
  };
}

/**
 * One short entry per object: its reference, its component's edges and, for workloads, replicas,
 * images and placement. Snapshot this instead of the objects and a snapshot changes when something
 * that matters does, not with every probe timeout.
 */
export function summarise(objects: readonly KubeObject[]): ObjectSummary[] {
  return objects.map((object) => {
    const dependsOn = object.metadata.annotations?.[Annotations.DEPENDS_ON];
    const summary: ObjectSummary = {
      object: objectRef(object),
      dependsOn: dependsOn ? dependsOn.split(',') : [],
    };
    if (!POD_KINDS.has(object.kind)) return summary;
    const spec = podSpecOf(object) as PodScheduling;
    const replicas = (object.spec as { replicas?: number } | undefined)?.replicas;
    return {
      ...summary,
      ...(replicas === undefined ? {} : { replicas }),
      images: [...(spec.initContainers ?? []), ...(spec.containers ?? [])].map((c) => c.image ?? ''),
      placement: placementOf(object),
    };
  });
}

function expression(e: NodeSelectorExpression): string {
  const values = (e.values ?? []).join(',');
  switch (e.operator) {
    case 'Exists':
      return e.key;
    case 'DoesNotExist':
      return `!${e.key}`;
    case 'In':
      return `${e.key}=${values}`;
    case 'NotIn':
      return `${e.key}!=${values}`;
    default:
      return `${e.key} ${e.operator} ${values}`;
  }
}
