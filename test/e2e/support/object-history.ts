/**
 * When each object of a cloud (in its namespaces) was created and when it first became ready, recorded from watch
 * events, so a test can check the order a deploy tool (Pulumi here) really produced instead of
 * trusting its log.
 *
 * Moments are resourceVersions. The API server's etcd storage uses etcd's revision as the
 * resourceVersion, and the test cluster has one etcd, so it is one counter over every kind and
 * orders writes across kinds exactly; wall-clock times of watch events would depend on when this
 * process got around to reading each stream. (Kubernetes itself promises the comparison only
 * within one resource type: comparable resource versions, GA in v1.35.)
 */
import { Edge, isGating, KubeObject, objectRef } from '../../../lib/graph';
import { KubeCluster } from '../../../lib/runtime/kube/kube-cluster';
import { readinessRuleFor } from '../../../lib/runtime/readiness';

/** Kinds whose readiness gates dependants; every other object only has to exist. */
const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job']);

interface History {
  created?: bigint;
  ready?: bigint;
}

/** A component as the order check needs it: its name, its edges and its objects. */
export interface OrderedComponent {
  readonly name: string;
  readonly edges: readonly Edge[];
  readonly objects: readonly KubeObject[];
}

export class ObjectHistory {
  private readonly history = new Map<string, History>();
  private readonly stops: (() => void)[] = [];

  /**
   * Starts one watch per kind and namespace of `objects` (a cloud has two: the control plane's
   * and the node agents') and resolves once every watch has its initial list, so nothing created
   * afterwards can be missed.
   */
  static async record(cluster: KubeCluster, objects: readonly KubeObject[]): Promise<ObjectHistory> {
    const recorder = new ObjectHistory();
    const kinds = new Map(
      namespacedOnly(objects).map((o) => [
        `${o.apiVersion}/${o.kind}/${o.metadata.namespace}`,
        { apiVersion: o.apiVersion, kind: o.kind, namespace: o.metadata.namespace },
      ]),
    );
    for (const { apiVersion, kind, namespace } of kinds.values()) {
      recorder.stops.push(
        cluster.watch({ apiVersion, kind, namespace }, (type, object) => {
          if (type !== 'DELETED') recorder.observe(object);
        }),
      );
      // `observed` waits for the shared watch's initial list; the name is one no object has.
      await cluster.observed({ apiVersion, kind, metadata: { name: '-', namespace } });
    }
    return recorder;
  }

  private observe(object: KubeObject): void {
    const key = objectRef(object);
    const rv = BigInt(String(object.metadata.resourceVersion));
    const entry = this.history.get(key) ?? {};
    entry.created ??= rv;
    if (entry.ready === undefined && ready(object)) entry.ready = rv;
    this.history.set(key, entry);
  }

  /** Stops every watch. */
  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  /** Objects never seen, e.g. because the deploy failed before them. */
  unseen(objects: readonly KubeObject[]): string[] {
    return objects.map(objectRef).filter((ref) => !this.history.has(ref));
  }

  /** Workloads never seen ready (or complete, for Jobs). */
  neverReady(objects: readonly KubeObject[]): string[] {
    return objects
      .filter((o) => WORKLOAD_KINDS.has(o.kind))
      .map(objectRef)
      .filter((ref) => this.history.get(ref)?.ready === undefined);
  }

  /**
   * Gating edges the deploy did not honour: a component whose first object was created before
   * every object of a gating dependency was ready (workloads: ready or complete by Stackwright's
   * readiness rules; other objects: created). One line per broken edge, empty when the order held.
   */
  orderViolations(components: readonly OrderedComponent[]): string[] {
    const byName = new Map(components.map((c) => [c.name, c]));
    const violations: string[] = [];
    for (const component of components) {
      const started = this.firstCreated(component);
      for (const edge of component.edges.filter((e) => isGating(e.kind))) {
        const dependency = byName.get(edge.to);
        for (const object of namespacedOnly(dependency?.objects ?? [])) {
          const entry = this.history.get(objectRef(object));
          const gate = WORKLOAD_KINDS.has(object.kind) ? entry?.ready : entry?.created;
          if (started === undefined || gate === undefined || started <= gate) {
            violations.push(
              `${component.name} started (rv ${started}) before ${objectRef(object)} of ${edge.to} was ${WORKLOAD_KINDS.has(object.kind) ? 'ready' : 'created'} (rv ${gate}) [${edge.kind}]`,
            );
          }
        }
      }
    }
    return violations;
  }

  private firstCreated(component: OrderedComponent): bigint | undefined {
    const created = namespacedOnly(component.objects).map((o) => this.history.get(objectRef(o))?.created);
    if (created.some((rv) => rv === undefined)) return undefined;
    return (created as bigint[]).reduce((a, b) => (b < a ? b : a));
  }
}

/** The objects the history watches (one namespace); cluster-scoped ones are out of its sight. */
function namespacedOnly(objects: readonly KubeObject[]): KubeObject[] {
  return objects.filter((o) => o.metadata.namespace !== undefined);
}

function ready(object: KubeObject): boolean {
  return !WORKLOAD_KINDS.has(object.kind) || readinessRuleFor(object.kind)(object).status === 'Current';
}
