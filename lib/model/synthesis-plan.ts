import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { Annotations, encodeDependsOn, isClusterScoped, topologicalOrder } from '../graph';
import type { Component, ComponentEdge } from './component';
import { COMPONENT_MARKER, hasMarker } from './markers';

/**
 * What a plan reads of its cloud: its tree, its namespaces, and which components are node agents.
 * @internal
 */
export interface PlannedCloud extends IConstruct {
  /** The cloud's id. */
  readonly cloudName: string;
  /** The control plane's namespace. */
  readonly namespace: string;
  /** The node agents' namespace. */
  readonly agentNamespace: string;
  /** True when `component` is a node agent. */
  isNodeAgent(component: Component): boolean;
}

/** An object of a cloud as one synthesis sees it. */
export interface PlannedObject {
  /** The object in the construct tree (rendering works on its rendered copy). */
  readonly object: ApiObject;
  /** The component that owns it (the closest one up the tree); undefined for the cloud's own objects. */
  readonly component?: Component;
  /**
   * Whether the object is rendered: false for a disabled component's objects, and for those in the
   * agents' namespace when no enabled component is a node agent.
   */
  readonly rendered: boolean;
  /** The namespace it goes to; undefined when cluster-scoped. */
  readonly namespace?: string;
  /** What identifies it in a cluster: `group/Kind/namespace/name`. */
  readonly key: string;
}

/**
 * The labels and annotations rendering adds to a component's objects, computed once per component
 * and shared: entries sorted by key (the order cdk8s renders keys in), each key once.
 */
export interface ComponentMetadata {
  /** `app.kubernetes.io/managed-by`, `name`, `part-of` and the selector labels. */
  readonly labels: readonly (readonly [string, string])[];
  /** The cloud, component, service, construct path and `depends-on` annotations. */
  readonly annotations: readonly (readonly [string, string])[];
}

/** The label on every object the SDK renders. */
const MANAGED_BY: readonly [string, string] = ['app.kubernetes.io/managed-by', 'stackwright'];

/**
 * Everything one synthesis of a cloud reads, computed once from one walk of its tree: the
 * components in tree order, their edges resolved, who consumes whom, the deployment order, every
 * object with its owner, namespace and key, and the labels and annotations rendering adds. The
 * checks, the rendering and the constructs that look the cloud up at synthesis (network policies,
 * generated-secret lookups) all read it; `Cloud.plan()` builds it again only when the model changed
 * (see `model-generation.ts`).
 */
export class SynthesisPlan {
  /** Every component of the cloud, enabled or not, in tree order. */
  readonly components: readonly Component[];
  /** The enabled components, in tree order. */
  readonly enabled: readonly Component[];
  /** Every object of the cloud's subtree, in tree order. */
  readonly objects: readonly PlannedObject[];
  /** How many constructs the walk found: a cheap test that nothing was added since. */
  readonly constructCount: number;
  private readonly edges: ReadonlyMap<Component, readonly ComponentEdge[]>;
  private readonly consumers = new Map<Component, Component[]>();
  private readonly metadata = new Map<Component | undefined, ComponentMetadata>();
  private readonly cloudName: string;

  /**
   * Built by `Cloud.plan()`, never directly.
   * @internal
   * @param cloud the cloud to plan
   * @param generation the model generation the plan is valid for
   * @param walked the cloud's components and objects, from {@link walkCloud}
   */
  constructor(
    cloud: PlannedCloud,
    /** The model generation the plan is valid for. */
    readonly generation: number,
    walked: WalkedCloud,
  ) {
    this.cloudName = cloud.cloudName;
    this.components = walked.components;
    this.constructCount = walked.constructCount;
    this.enabled = walked.components.filter((c) => c.enabled);
    this.edges = new Map(walked.components.map((c) => [c, c._resolveEdges()]));
    for (const consumer of this.enabled) {
      for (const { target } of this.edgesOf(consumer)) {
        const list = this.consumers.get(target);
        if (list) list.push(consumer);
        else this.consumers.set(target, [consumer]);
      }
    }
    this.objects = placeObjects(
      cloud,
      walked.objects,
      this.enabled.some((c) => cloud.isNodeAgent(c)),
    );
  }

  private _ordered?: readonly Component[];

  /**
   * The enabled components in deployment order (gating dependencies first, ties by name). Computed
   * when first read: with a cycle it throws, and the cloud's check reports the cycle first.
   */
  get ordered(): readonly Component[] {
    if (!this._ordered) {
      const byName = new Map(this.enabled.map((c) => [c.componentName, c]));
      this._ordered = topologicalOrder([...byName.keys()], this.namedEdges(this.enabled)).map(
        (name) => byName.get(name) as Component,
      );
    }
    return this._ordered;
  }

  /** `component`'s edges, resolved to components, without duplicates (the strongest declaration wins). */
  edgesOf(component: Component): readonly ComponentEdge[] {
    return this.edges.get(component) ?? [];
  }

  /** True when the plan knows `component` (it was in the cloud when the plan was built). */
  has(component: Component): boolean {
    return this.edges.has(component);
  }

  /** The enabled components with an edge (of any kind) to `component`, in tree order. */
  consumersOf(component: Component): readonly Component[] {
    return this.consumers.get(component) ?? [];
  }

  /** The edges among `components` by name, as the graph functions take them. */
  namedEdges(components: readonly Component[]): { from: string; to: string; kind: ComponentEdge['kind'] }[] {
    return components.flatMap((c) =>
      this.edgesOf(c).map((e) => ({ from: c.componentName, to: e.target.componentName, kind: e.kind })),
    );
  }

  /**
   * The labels and annotations rendering adds to an object of `component`, or to one of the cloud's
   * own objects (the namespaces, the default-deny policy) when `component` is undefined.
   */
  metadataOf(component?: Component): ComponentMetadata {
    let metadata = this.metadata.get(component);
    if (!metadata) {
      const cloud: [string, string] = [Annotations.CLOUD, this.cloudName];
      const dependsOn =
        component &&
        encodeDependsOn(this.edgesOf(component).map((e) => ({ to: e.target.componentName, kind: e.kind })));
      metadata = component
        ? {
            labels: sortedEntries([
              MANAGED_BY,
              ['app.kubernetes.io/name', component.service?.appName ?? component.componentName],
              ['app.kubernetes.io/part-of', 'openstack'],
              ...Object.entries(component.selectorLabels),
            ]),
            annotations: sortedEntries([
              cloud,
              [Annotations.COMPONENT, component.componentName],
              [Annotations.SERVICE, component.serviceName],
              [Annotations.CONSTRUCT_PATH, component.node.path],
              ...(dependsOn ? [[Annotations.DEPENDS_ON, dependsOn] as const] : []),
            ]),
          }
        : { labels: [MANAGED_BY], annotations: [cloud] };
      this.metadata.set(component, metadata);
    }
    return metadata;
  }
}

/**
 * A cloud's subtree, walked once: its components and its objects with their owners.
 * @internal
 */
export interface WalkedCloud {
  readonly components: readonly Component[];
  readonly objects: readonly { readonly object: ApiObject; readonly component?: Component }[];
  readonly constructCount: number;
}

/**
 * Walks `scope`'s subtree once, in tree order (pre-order, as `findAll` does).
 * @internal
 */
export function walkCloud(scope: IConstruct): WalkedCloud {
  const components: Component[] = [];
  const objects: { object: ApiObject; component?: Component }[] = [];
  let constructCount = 0;
  const walk = (construct: IConstruct, owner: Component | undefined): void => {
    constructCount++;
    let current = owner;
    if (hasMarker(construct, COMPONENT_MARKER)) {
      current = construct as Component;
      components.push(current);
    }
    if (construct instanceof ApiObject) objects.push({ object: construct, component: current });
    for (const child of construct.node.children) walk(child, current);
  };
  walk(scope, undefined);
  return { components, objects, constructCount };
}

/**
 * Each object with the namespace it goes to and whether it is rendered: a disabled component's are
 * not, a node agent's go to the agents' namespace, and when no enabled component is a node agent,
 * nothing goes to that namespace (not even the Namespace itself: the cloud does not create a
 * privileged namespace it does not use).
 */
function placeObjects(
  cloud: PlannedCloud,
  objects: WalkedCloud['objects'],
  agents: boolean,
): PlannedObject[] {
  return objects.map(({ object, component }) => {
    const enabled = component === undefined || component.enabled;
    const clusterScoped = isClusterScoped(object);
    const namespace = clusterScoped
      ? undefined
      : component && cloud.isNodeAgent(component)
        ? cloud.agentNamespace
        : (object.metadata.namespace ?? cloud.namespace);
    const unusedAgentNamespace =
      !agents &&
      (clusterScoped
        ? object.kind === 'Namespace' && object.name === cloud.agentNamespace
        : namespace === cloud.agentNamespace);
    return {
      object,
      component,
      rendered: enabled && !unusedAgentNamespace,
      namespace,
      key: [object.apiVersion.split('/')[0], object.kind, namespace ?? '', object.name].join('/'),
    };
  });
}

/** `entries` sorted by key as `Object.keys(…).sort()` orders keys, a later entry winning over an earlier one of the same key. */
function sortedEntries(entries: readonly (readonly [string, string])[]): (readonly [string, string])[] {
  return Object.entries(Object.fromEntries(entries)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
