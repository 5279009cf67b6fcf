import { ComponentGraph, isGating, KubeObject, objectRef } from '../../graph';
import { ManifestInput, ManifestSelection, toLocatedGraph } from './deploy-input';
import {
  asKubeObject,
  Inventory,
  inventoryRef,
  inventoryToConfigMap,
  InventoryLocation,
  readInventory,
} from '../inventory/inventory';
import { KubeCluster, KubeClusterOptions } from '../kube/kube-cluster';
import { RequestCounts } from '../kube/request-counter';
import { bootstrapUnits } from './prune';
import { DeletionOptions, DeletionUnit, deleteInReverseOrder } from './delete-in-reverse-order';
import { ClusterPort } from '../ports';
import { DeletionResult } from '../result';

export interface DestroyOptions
  extends DeletionOptions, ManifestSelection, Pick<KubeClusterOptions, 'kubeconfig' | 'context'> {
  /** Use this port instead of connecting with the kubeconfig (tests, embedding). */
  readonly cluster?: ClusterPort;
}

export interface DestroyResult {
  readonly ok: boolean;
  readonly deletion: DeletionResult;
  /** Objects the inventory knew about that the manifests no longer list (deleted too). */
  readonly orphans: readonly string[];
  /** API requests, when the Kubernetes port was used. */
  readonly requests?: RequestCounts;
}

/**
 * What a destroy will delete, decided before anything is deleted: the units in reverse order, the
 * objects only the inventory knows, and how many objects in all. {@link planDestroy} makes it,
 * {@link runDestroy} carries it out; the CLI asks for confirmation in between.
 */
export interface DestroyPlan {
  /** The cloud the inventory names. */
  readonly cloud: string;
  /** How many components the manifests list. */
  readonly components: number;
  /** The deletion units: one per component, then the bootstrap phases (see {@link destroyUnits}). */
  readonly units: readonly DeletionUnit[];
  /** Objects the inventory knew about that the manifests no longer list (deleted too). */
  readonly orphans: readonly string[];
  /** How many objects the units delete. */
  readonly objects: number;
}

/**
 * Plans the destroy of `graph`'s cloud: reads its inventory from `cluster` and computes the units
 * (see {@link destroyUnits}). Deletes nothing.
 *
 * @example
 * const plan = await planDestroy(graph, location, cluster);
 * if (await confirm(`${plan.objects} objects?`)) await runDestroy(plan, cluster, { concurrency: 4 });
 */
export async function planDestroy(
  graph: ComponentGraph,
  location: InventoryLocation,
  cluster: ClusterPort,
): Promise<DestroyPlan> {
  const inventory = await readInventory(cluster, location);
  const { units, orphans } = destroyUnits(graph, inventory);
  return {
    cloud: location.cloud,
    components: graph.components.length,
    units,
    orphans,
    objects: units.reduce((n, u) => n + u.objects.length, 0),
  };
}

/** Carries out a {@link DestroyPlan}: deletes its units in reverse dependency order. */
export async function runDestroy(
  plan: DestroyPlan,
  cluster: ClusterPort,
  options: DeletionOptions = {},
): Promise<Omit<DestroyResult, 'requests'>> {
  const deletion = await deleteInReverseOrder(plan.units, cluster, options);
  return { ok: deletion.ok, deletion, orphans: plan.orphans };
}

/**
 * Deletes a cloud in reverse dependency order: a component goes only once every component that
 * depends on it is gone (objects absent from the API server, not just delete accepted); the
 * bootstrap objects last (other objects, then CRDs, then namespaces), the inventory with them.
 * Objects the inventory recorded that the manifests no longer list are deleted with their former
 * component. A component that cannot be deleted keeps its dependencies in place.
 * {@link planDestroy} then {@link runDestroy}, without a pause between them.
 *
 * @example
 * const result = await destroy('dist/', { kubeconfig: '~/.kube/config' });
 * if (!result.ok) console.error(result.deletion.units.filter((u) => u.state !== 'deleted'));
 */
export async function destroy(input: ManifestInput, options: DestroyOptions = {}): Promise<DestroyResult> {
  const { graph, location } = toLocatedGraph(input, options);
  const owned = options.cluster ? undefined : await KubeCluster.connect(options);
  const cluster = (options.cluster ?? owned) as ClusterPort;
  try {
    if (owned) await owned.serverVersion();
    const result = await runDestroy(await planDestroy(graph, location, cluster), cluster, options);
    return { ...result, requests: owned?.requests.snapshot() };
  } finally {
    owned?.close();
  }
}

/**
 * The deletion units of a destroy: one per component of `graph` (with its gating edges), objects
 * only the inventory knows added to their recorded component, then the bootstrap phases with the
 * inventory ConfigMap itself (so an interrupted destroy can be re-run and still knows what is left).
 */
export function destroyUnits(
  graph: ComponentGraph,
  inventory: Inventory | undefined,
): { units: DeletionUnit[]; orphans: string[] } {
  const units = new Map<string, { dependsOn: Set<string>; objects: KubeObject[] }>();
  for (const component of graph.components) {
    units.set(component.name, {
      dependsOn: new Set(component.edges.filter((e) => isGating(e.kind)).map((e) => e.to)),
      objects: [...component.objects],
    });
  }
  const bootstrap = [...graph.bootstrap];
  const known = new Set([...graph.bootstrap, ...graph.components.flatMap((c) => c.objects)].map(objectRef));
  const orphans: string[] = [];
  if (inventory) {
    const recorded = new Map(inventory.components.map((c) => [c.name, c.dependsOn]));
    for (const object of inventory.objects) {
      const ref = inventoryRef(object);
      if (known.has(ref)) continue;
      orphans.push(ref);
      if (!object.component) {
        bootstrap.push(asKubeObject(object));
        continue;
      }
      const unit = units.get(object.component) ?? {
        dependsOn: new Set(recorded.get(object.component) ?? []),
        objects: [],
      };
      unit.objects.push(asKubeObject(object));
      units.set(object.component, unit);
    }
    const configMap = inventoryToConfigMap(inventory);
    bootstrap.push({
      apiVersion: configMap.apiVersion,
      kind: configMap.kind,
      metadata: { name: configMap.metadata.name, namespace: configMap.metadata.namespace },
    });
  }
  const last = bootstrapUnits(bootstrap);
  const componentUnits: DeletionUnit[] = [...units.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, unit]) => ({
      name,
      dependsOn: [...unit.dependsOn, ...(last.length > 0 ? [last[0].name] : [])],
      objects: unit.objects,
    }));
  return { units: [...componentUnits, ...last], orphans };
}
