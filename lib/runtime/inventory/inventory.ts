import {
  ComponentGraph,
  homeNamespace,
  isGating,
  KubeObject,
  objectRef,
  SeveralCloudsError,
} from '../../graph';
import { canonicalJson, hashObject } from '../kube/object-diff';
import { ApplyOptions, ClusterPort } from '../ports';
import { FIELD_MANAGER } from '../defaults';

/**
 * The inventory: what a cloud's deploys applied, kept in the cluster as a ConfigMap
 * `stackwright-inventory-<cloud>` in the cloud's namespace (the idea of an ApplySet parent, without
 * labelling the members: the manifests stay exactly as synthesised). It lets `deploy --prune`
 * delete objects that left the manifests, `destroy` delete in reverse dependency order even for
 * components no longer in the manifests, and a re-run skip objects that have not changed.
 */
export interface Inventory {
  readonly cloud: string;
  readonly namespace: string;
  /** Hash of the component graph (components and edges) last deployed. */
  readonly graphHash: string;
  /**
   * `pending`: written before the first apply of a run (covers every object the run may create,
   * so an interrupted run can still be pruned); `complete`: written after the run.
   */
  readonly state: 'pending' | 'complete';
  /** Sorted by ref. */
  readonly objects: readonly InventoryObject[];
  /** The components and their gating dependencies, so prune/destroy can order components that left the manifests. */
  readonly components: readonly InventoryComponent[];
  /**
   * The OpenStack release the cloud last deployed completely (annotation `stackwright.io/release`);
   * absent before the first successful deploy of a release, and for clouds deployed before the
   * inventory recorded it (docs/upgrades.md).
   */
  readonly release?: string;
}

/** One object a deploy applied (or was about to). */
export interface InventoryObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  /** Owning component; absent for bootstrap objects (namespaces, CRDs, shared RBAC). */
  readonly component?: string;
  /** Hash of the manifest last applied successfully; `''` when not applied yet (pending). */
  readonly hash: string;
}

export interface InventoryComponent {
  readonly name: string;
  /** Gating dependencies (ready, completed, same-node), sorted. */
  readonly dependsOn: readonly string[];
}

/** Where a cloud's inventory lives. */
export interface InventoryLocation {
  readonly cloud: string;
  readonly namespace: string;
}

/** Label on the inventory ConfigMap; its value is the cloud name. */
export const INVENTORY_LABEL = 'stackwright.io/inventory';
const GRAPH_HASH_ANNOTATION = 'stackwright.io/graph-hash';
const STATE_ANNOTATION = 'stackwright.io/inventory-state';
/** Annotation of the inventory ConfigMap: the release the cloud last deployed completely. */
export const RELEASE_ANNOTATION = 'stackwright.io/release';

/** `stackwright-inventory-<cloud>`. */
export function inventoryName(cloud: string): string {
  return `stackwright-inventory-${cloud}`;
}

/**
 * The cloud and namespace of a graph's inventory: the cloud annotation of its components, and its
 * control plane's namespace ({@link homeNamespace}). Throws when the graph names several clouds or
 * has no namespace at all.
 */
export function inventoryLocation(graph: ComponentGraph, namespaceOverride?: string): InventoryLocation {
  const clouds = [...new Set(graph.components.map((c) => c.cloud).filter((c) => c.length > 0))].sort();
  if (clouds.length > 1) {
    throw new SeveralCloudsError(
      clouds,
      (example) => `build the graph of one: graphFromManifests(objects, { cloud: '${example}' })`,
    );
  }
  const cloud = clouds[0] ?? 'default';
  if (namespaceOverride) return { cloud, namespace: namespaceOverride };
  const namespace = homeNamespace([...graph.bootstrap, ...graph.components.flatMap((c) => c.objects)]);
  if (namespace === undefined)
    throw new Error(
      `cannot tell where to keep the inventory of cloud ${cloud}: no object has a namespace, or several hold as many objects; ` +
        "add the cloud's Namespace object to the manifests (from a program: pass the option inventoryNamespace)",
    );
  return { cloud, namespace };
}

/** A stable hash of the graph's shape: component names and edges (not object contents). */
export function graphHash(graph: ComponentGraph): string {
  return hashObject(
    graph.components.map((c) => ({
      name: c.name,
      edges: [...c.edges].map((e) => `${e.to}:${e.kind}`).sort(),
    })),
  );
}

/**
 * The inventory describing `graph`. `hashes` gives the hash to record per ref (the desired
 * manifest's hash for objects applied, the previous one or `''` otherwise); by default every
 * object gets the hash of its manifest.
 */
export function inventoryFromGraph(
  graph: ComponentGraph,
  location: InventoryLocation,
  state: Inventory['state'],
  hashes?: (object: KubeObject, ref: string) => string,
  /** The graph whose hash is recorded. @default graph */
  hashed: ComponentGraph = graph,
): Inventory {
  const objects: InventoryObject[] = [];
  const add = (object: KubeObject, component?: string) => {
    const ref = objectRef(object);
    objects.push({
      apiVersion: object.apiVersion,
      kind: object.kind,
      name: object.metadata.name,
      ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
      ...(component ? { component } : {}),
      hash: hashes ? hashes(object, ref) : hashObject(object),
    });
  };
  for (const object of graph.bootstrap) add(object);
  for (const component of graph.components)
    for (const object of component.objects) add(object, component.name);
  return {
    cloud: location.cloud,
    namespace: location.namespace,
    graphHash: graphHash(hashed),
    state,
    objects: sortObjects(objects),
    components: graph.components.map((c) => ({
      name: c.name,
      dependsOn: [...new Set(c.edges.filter((e) => isGating(e.kind)).map((e) => e.to))].sort(),
    })),
  };
}

/**
 * `next`, plus every object and component of `previous` that `next` does not mention (objects
 * that left the manifests stay recorded until they are pruned).
 */
export function mergeInventories(previous: Inventory | undefined, next: Inventory): Inventory {
  if (!previous) return next;
  const release = next.release ?? previous.release;
  const refs = new Set(next.objects.map(inventoryRef));
  const names = new Set(next.components.map((c) => c.name));
  return {
    ...next,
    ...(release ? { release } : {}),
    objects: sortObjects([...next.objects, ...previous.objects.filter((o) => !refs.has(inventoryRef(o)))]),
    components: [...next.components, ...previous.components.filter((c) => !names.has(c.name))].sort((a, b) =>
      a.name.localeCompare(b.name),
    ),
  };
}

/** Objects recorded in `inventory` that `graph` no longer contains: what prune deletes. */
export function objectsNotIn(inventory: Inventory, graph: ComponentGraph): InventoryObject[] {
  const current = new Set([...graph.bootstrap, ...graph.components.flatMap((c) => c.objects)].map(objectRef));
  return inventory.objects.filter((o) => !current.has(inventoryRef(o)));
}

/** An inventory without the given objects (after they were pruned). */
export function withoutObjects(inventory: Inventory, removed: readonly InventoryObject[]): Inventory {
  const gone = new Set(removed.map(inventoryRef));
  const objects = inventory.objects.filter((o) => !gone.has(inventoryRef(o)));
  const owners = new Set(objects.map((o) => o.component).filter((c): c is string => c !== undefined));
  return { ...inventory, objects, components: inventory.components.filter((c) => owners.has(c.name)) };
}

/** `Kind/namespace/name` of a recorded object, as `objectRef` names live ones. */
export function inventoryRef(object: InventoryObject): string {
  return objectRef(asKubeObject(object));
}

/** ref -> recorded manifest hash of every object an inventory holds (for `VerifyOptions.recordedHashes`). */
export function inventoryHashes(inventory: Inventory | undefined): ReadonlyMap<string, string> {
  return new Map((inventory?.objects ?? []).map((o) => [inventoryRef(o), o.hash]));
}

/** The minimal object to GET/DELETE a recorded object. */
export function asKubeObject(object: InventoryObject): KubeObject {
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    metadata: { name: object.name, ...(object.namespace ? { namespace: object.namespace } : {}) },
  };
}

/** True when writing `next` over `previous` would change what is recorded. */
export function inventoryChanged(previous: Inventory | undefined, next: Inventory): boolean {
  return (
    !previous || canonicalJson(inventoryToConfigMap(previous)) !== canonicalJson(inventoryToConfigMap(next))
  );
}

/** The ConfigMap that stores an inventory (one object per line in `data.objects`, for readable `kubectl get -o yaml`). */
export function inventoryToConfigMap(inventory: Inventory): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: inventoryName(inventory.cloud),
      namespace: inventory.namespace,
      labels: { [INVENTORY_LABEL]: inventory.cloud, 'app.kubernetes.io/managed-by': 'stackwright' },
      annotations: {
        [GRAPH_HASH_ANNOTATION]: inventory.graphHash,
        [STATE_ANNOTATION]: inventory.state,
        ...(inventory.release ? { [RELEASE_ANNOTATION]: inventory.release } : {}),
      },
    },
    data: {
      objects: jsonLines(inventory.objects),
      components: jsonLines(inventory.components),
    },
  };
}

/** Reads an inventory ConfigMap; throws naming the ConfigMap when it was edited into something unreadable. */
export function inventoryFromConfigMap(configMap: KubeObject): Inventory {
  const where = objectRef(configMap);
  const data = (configMap as { data?: Record<string, string> }).data ?? {};
  const annotations = configMap.metadata.annotations ?? {};
  try {
    return {
      cloud:
        configMap.metadata.labels?.[INVENTORY_LABEL] ??
        configMap.metadata.name.replace(/^stackwright-inventory-/, ''),
      namespace: configMap.metadata.namespace ?? '',
      graphHash: annotations[GRAPH_HASH_ANNOTATION] ?? '',
      state: annotations[STATE_ANNOTATION] === 'pending' ? 'pending' : 'complete',
      objects: JSON.parse(data.objects ?? '[]') as InventoryObject[],
      components: JSON.parse(data.components ?? '[]') as InventoryComponent[],
      ...(annotations[RELEASE_ANNOTATION] ? { release: annotations[RELEASE_ANNOTATION] } : {}),
    };
  } catch (error) {
    throw new Error(
      `inventory ${where} is not readable (${String(error)}); delete it to start over (prune will then not know older objects)`,
    );
  }
}

/** Reads a cloud's inventory; undefined when there is none yet. */
export async function readInventory(
  cluster: ClusterPort,
  location: InventoryLocation,
): Promise<Inventory | undefined> {
  const live = await cluster.get({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: inventoryName(location.cloud), namespace: location.namespace },
  });
  return live ? inventoryFromConfigMap(live) : undefined;
}

/**
 * Writes `next` with server-side apply, only when it differs from `previous` (so a no-op deploy
 * writes nothing). Returns true when it wrote.
 */
export async function writeInventory(
  cluster: ClusterPort,
  next: Inventory,
  previous: Inventory | undefined,
  options: Pick<ApplyOptions, 'fieldManager'> = { fieldManager: FIELD_MANAGER },
): Promise<boolean> {
  if (!inventoryChanged(previous, next)) return false;
  await cluster.apply(inventoryToConfigMap(next), {
    fieldManager: options.fieldManager,
    force: true,
    dryRun: false,
  });
  return true;
}

function sortObjects(objects: InventoryObject[]): InventoryObject[] {
  return [...objects].sort((a, b) => inventoryRef(a).localeCompare(inventoryRef(b)));
}

function jsonLines(items: readonly unknown[]): string {
  return items.length === 0 ? '[]' : `[\n${items.map((i) => JSON.stringify(i)).join(',\n')}\n]`;
}
