import {
  ComponentGraph,
  Edge,
  EdgeKind,
  isGating,
  KubeObject,
  kindFacts,
  objectRef,
  topologicalOrder,
} from '../graph';
import { componentLogicalName, objectLogicalName } from './logical-name';
import { parseApiVersion, pulumiTypeToken } from './type-token';
import { hasTypedClass } from './typed-kinds';

/**
 * Why one object waits for another in `pulumi up`:
 * - `ready` / `completed` / `same-node`: its component has that gating edge to the other object's
 *   component (runtime edges never gate);
 * - `namespace`: the other object is the Namespace it lives in;
 * - `crd`: the other object is the CustomResourceDefinition of its kind;
 * - `bootstrap`: the other object is a bootstrap object (no component: shared RBAC, priority
 *   classes, …) in its namespace or cluster-scoped;
 * - `prerequisite`: within one component, a workload waits for the component's own ConfigMaps,
 *   Secrets, ServiceAccounts and RBAC, so its pods are not rejected or left without their volumes
 *   (a rejected pod puts the Job or ReplicaSet controller into exponential back-off).
 */
export type DependencyReason =
  Exclude<EdgeKind, 'runtime'> | 'namespace' | 'crd' | 'bootstrap' | 'prerequisite';

/** One entry of an object's `dependsOn`. */
export interface PlannedDependency {
  /** Logical name of the object depended on. */
  readonly name: string;
  readonly reason: DependencyReason;
}

/** One Kubernetes object as Pulumi will register it. */
export interface PlannedObject {
  /** The Pulumi logical name (see `objectLogicalName`). */
  readonly logicalName: string;
  /** The Pulumi type token, e.g. `kubernetes:apps/v1:Deployment`. */
  readonly typeToken: string;
  /**
   * `typed` when a typed `@pulumi/kubernetes` class registers it, `custom` when it goes through
   * `apiextensions.CustomResource` (custom resources and kinds without a typed class).
   */
  readonly resourceClass: 'typed' | 'custom';
  /** The owning component, or undefined for a bootstrap object. */
  readonly component?: string;
  /**
   * Logical name of the parent `stackwright:index:Component` resource, or undefined when the parent
   * is the cloud itself (bootstrap objects).
   */
  readonly parent?: string;
  /** `Kind/namespace/name`, for messages. */
  readonly ref: string;
  /** Objects to wait for, sorted by name; each appears once, with its strongest reason. */
  readonly dependsOn: readonly PlannedDependency[];
  /** The object itself, as it will be sent to the provider. */
  readonly object: KubeObject;
}

/** One component as a `stackwright:index:Component` resource. */
export interface PlannedComponent {
  readonly name: string;
  readonly logicalName: string;
  readonly service: string;
  readonly constructPath: string;
  /** The component's gating edges (the ones that become `dependsOn`). */
  readonly gatingEdges: readonly Edge[];
  /** Logical names of its objects, in synthesis order. */
  readonly objects: readonly string[];
}

/**
 * What `StackwrightCloud` registers: components in dependency order, and objects in an order in
 * which every object comes after everything it depends on (so each `dependsOn` can name resources
 * that already exist in the program).
 */
export interface DependencyPlan {
  readonly components: readonly PlannedComponent[];
  readonly objects: readonly PlannedObject[];
}

/** Options of `dependencyPlan`. */
export interface DependencyPlanOptions {
  /**
   * Prepended to every logical name (`<prefix>:…`), for two clouds in one Pulumi stack.
   * @default - no prefix
   */
  readonly resourcePrefix?: string;
}

/** Later reasons give way to earlier ones when one object is reached twice. */
const REASON_PRECEDENCE: readonly DependencyReason[] = [
  'completed',
  'same-node',
  'ready',
  'namespace',
  'crd',
  'bootstrap',
  'prerequisite',
];

/**
 * The testable core of the Pulumi adapter: from the component graph alone (no Pulumi SDK, no
 * cluster), which resources `pulumi up` registers, under which names and parents, and what each
 * waits for. Pulumi hides `dependsOn` from its mocks, so this function is where the ordering is
 * tested.
 *
 * An object of component C depends on:
 * 1. every object of every component C has a gating edge to (`ready`, `completed`, `same-node`);
 *    `runtime` edges never gate;
 * 2. the Namespace object of its namespace, the bootstrap objects of its namespace and every
 *    cluster-scoped bootstrap object (shared RBAC, CRDs, priority classes);
 * 3. the CustomResourceDefinition of its kind, when the manifests contain it;
 * 4. for workloads, the ConfigMaps, Secrets, ServiceAccounts and RBAC objects of C itself.
 * A bootstrap object depends only on its Namespace and its CRD (rules 2 and 3).
 *
 * Throws when two objects would get the same name or are the same Kubernetes object, when the
 * core group has a kind no typed class covers, or when the implicit rules close a cycle.
 */
export function dependencyPlan(graph: ComponentGraph, options: DependencyPlanOptions = {}): DependencyPlan {
  const prefix = options.resourcePrefix;
  const componentOrder = topologicalOrder(
    graph.components.map((c) => c.name),
    graph.edges,
  );
  const byName = new Map(graph.components.map((c) => [c.name, c]));

  // Every object once, bootstrap first, then components in dependency order; the final order is
  // decided by the sort at the end, this only makes ties deterministic and readable.
  const entries: Entry[] = [];
  for (const object of graph.bootstrap) entries.push(entry(object, undefined, prefix));
  for (const name of componentOrder) {
    const component = byName.get(name);
    for (const object of component?.objects ?? []) entries.push(entry(object, name, prefix));
  }
  assertUnique(entries);

  const namespaceObjects = new Map<string, Entry>();
  const crds = new Map<string, Entry>();
  for (const e of entries) {
    if (e.object.apiVersion === 'v1' && e.object.kind === 'Namespace')
      namespaceObjects.set(e.object.metadata.name, e);
    const crdKey = crdKeyOfDefinition(e.object);
    if (crdKey) crds.set(crdKey, e);
  }
  const bootstrap = entries.filter((e) => e.component === undefined);
  const objectsOf = new Map<string, Entry[]>();
  for (const e of entries) {
    if (e.component === undefined) continue;
    const list = objectsOf.get(e.component);
    if (list) list.push(e);
    else objectsOf.set(e.component, [e]);
  }

  for (const e of entries) {
    const ns = e.object.metadata.namespace;
    if (ns) {
      const namespace = namespaceObjects.get(ns);
      if (namespace) e.add(namespace, 'namespace');
    }
    const crd = crds.get(crdKeyOfObject(e.object));
    if (crd) e.add(crd, 'crd');
    if (e.component === undefined) continue;

    for (const b of bootstrap) {
      if (isNamespaceObject(b.object)) continue;
      const bNs = b.object.metadata.namespace;
      if (bNs === undefined || bNs === ns) e.add(b, 'bootstrap');
    }
    const component = byName.get(e.component);
    for (const edge of component?.edges ?? []) {
      if (!isGating(edge.kind)) continue;
      for (const target of objectsOf.get(edge.to) ?? []) e.add(target, edge.kind as DependencyReason);
    }
    if (kindFacts(e.object).role === 'workload') {
      for (const sibling of objectsOf.get(e.component) ?? []) {
        if (kindFacts(sibling.object).role === 'pod-prerequisite') e.add(sibling, 'prerequisite');
      }
    }
  }

  const objects = registrationOrder(entries).map((e) => e.toPlanned());
  const components = componentOrder.map((name): PlannedComponent => {
    const c = byName.get(name);
    if (!c) throw new Error(`component ${name} vanished from the graph`);
    return {
      name,
      logicalName: componentLogicalName(name, prefix),
      service: c.service,
      constructPath: c.constructPath,
      gatingEdges: c.edges.filter((edge) => isGating(edge.kind)),
      objects: (objectsOf.get(name) ?? []).map((e) => e.logicalName),
    };
  });
  return { components, objects };
}

/** The plan's objects in registration order, reduced to what a snapshot or a reader needs. */
export function summarisePlan(
  plan: DependencyPlan,
): { name: string; type: string; parent: string; dependsOn: string[] }[] {
  return plan.objects.map((o) => ({
    name: o.logicalName,
    type: o.typeToken,
    parent: o.parent ?? '(cloud)',
    dependsOn: o.dependsOn.map((d) => `${d.name} (${d.reason})`),
  }));
}

interface Entry {
  readonly logicalName: string;
  readonly component?: string;
  readonly object: KubeObject;
  readonly deps: Map<string, { entry: Entry; reason: DependencyReason }>;
  add(other: Entry, reason: DependencyReason): void;
  toPlanned(): PlannedObject;
}

function entry(object: KubeObject, component: string | undefined, prefix: string | undefined): Entry {
  const typeToken = pulumiTypeToken(object.apiVersion, object.kind);
  const typed = hasTypedClass(typeToken);
  if (!typed && parseApiVersion(object.apiVersion).group === '') {
    throw new Error(
      `${objectRef(object)}: no typed @pulumi/kubernetes class is registered for core kind ${object.kind} (apiVersion ${object.apiVersion}); add it to TYPED_KUBERNETES_TYPES`,
    );
  }
  const logicalName = objectLogicalName(object, component, prefix);
  const deps = new Map<string, { entry: Entry; reason: DependencyReason }>();
  const self: Entry = {
    logicalName,
    component,
    object,
    deps,
    add(other, reason) {
      if (other === self) return;
      const known = deps.get(other.logicalName);
      if (!known || REASON_PRECEDENCE.indexOf(reason) < REASON_PRECEDENCE.indexOf(known.reason)) {
        deps.set(other.logicalName, { entry: other, reason });
      }
    },
    toPlanned() {
      return {
        logicalName,
        typeToken,
        resourceClass: typed ? 'typed' : 'custom',
        ...(component !== undefined ? { component, parent: componentLogicalName(component, prefix) } : {}),
        ref: objectRef(object),
        dependsOn: [...deps.values()]
          .map((d) => ({ name: d.entry.logicalName, reason: d.reason }))
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
        object,
      };
    },
  };
  return self;
}

function isNamespaceObject(object: KubeObject): boolean {
  return object.apiVersion === 'v1' && object.kind === 'Namespace';
}

/** `<group>/<Kind>` of the kind a CRD defines, or undefined when the object is not a CRD. */
function crdKeyOfDefinition(object: KubeObject): string | undefined {
  if (object.kind !== 'CustomResourceDefinition' || !object.apiVersion.startsWith('apiextensions.k8s.io/'))
    return undefined;
  const spec = object.spec as { group?: unknown; names?: { kind?: unknown } } | undefined;
  if (typeof spec?.group !== 'string' || typeof spec.names?.kind !== 'string') return undefined;
  return `${spec.group}/${spec.names.kind}`;
}

function crdKeyOfObject(object: KubeObject): string {
  return `${parseApiVersion(object.apiVersion).group}/${object.kind}`;
}

/** Two objects with one logical name, or one Kubernetes object owned twice, would fight in Pulumi. */
function assertUnique(entries: readonly Entry[]): void {
  const names = new Map<string, Entry>();
  const identities = new Map<string, Entry>();
  for (const e of entries) {
    const sameName = names.get(e.logicalName);
    if (sameName) {
      throw new Error(
        `${objectRef(e.object)} and ${objectRef(sameName.object)} would both be registered as "${e.logicalName}"`,
      );
    }
    names.set(e.logicalName, e);
    const identity = `${parseApiVersion(e.object.apiVersion).group}/${objectRef(e.object)}`;
    const sameObject = identities.get(identity);
    if (sameObject) {
      throw new Error(
        `${objectRef(e.object)} is owned by both ${owner(sameObject)} and ${owner(e)}; an object may belong to one component only`,
      );
    }
    identities.set(identity, e);
  }
}

function owner(e: Entry): string {
  return e.component === undefined ? 'the bootstrap objects' : `component ${e.component}`;
}

/**
 * Orders objects so every dependency comes first, keeping the input order where the dependencies
 * allow it (Kahn's algorithm, always taking the earliest ready object). Throws on a cycle, which
 * only the implicit rules can close (the component graph itself was checked for cycles).
 */
function registrationOrder(entries: readonly Entry[]): Entry[] {
  const position = new Map(entries.map((e, i) => [e, i]));
  const waiting = new Map(entries.map((e) => [e, e.deps.size]));
  const dependants = new Map<Entry, Entry[]>();
  for (const e of entries) {
    for (const { entry: dep } of e.deps.values()) {
      const list = dependants.get(dep);
      if (list) list.push(e);
      else dependants.set(dep, [e]);
    }
  }
  // `ready` stays sorted by input position, so the earliest ready object is always first.
  const ready = entries.filter((e) => waiting.get(e) === 0);
  const insert = (e: Entry) => {
    const at = position.get(e) ?? 0;
    let low = 0;
    let high = ready.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((position.get(ready[mid]) ?? 0) < at) low = mid + 1;
      else high = mid;
    }
    ready.splice(low, 0, e);
  };
  const ordered: Entry[] = [];
  while (ready.length > 0) {
    const next = ready.shift() as Entry;
    ordered.push(next);
    for (const d of dependants.get(next) ?? []) {
      const left = (waiting.get(d) ?? 0) - 1;
      waiting.set(d, left);
      if (left === 0) insert(d);
    }
  }
  if (ordered.length !== entries.length) {
    const stuck = entries.filter((e) => !ordered.includes(e)).map((e) => e.logicalName);
    throw new Error(
      `the objects' implicit dependencies (namespace, CRD, prerequisites) form a cycle among: ${stuck.join(', ')}`,
    );
  }
  return ordered;
}
