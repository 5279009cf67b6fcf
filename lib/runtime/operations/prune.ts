import { BOOTSTRAP_UNIT, ComponentGraph, KubeObject } from '../../graph';
import { ClusterPort } from '../ports';
import { asKubeObject, Inventory, InventoryObject, objectsNotIn } from '../inventory/inventory';
import { DeletionOptions, DeletionUnit, deleteInReverseOrder } from './delete-in-reverse-order';
import { DeletionResult } from '../result';

/**
 * The deletion units for objects recorded in `inventory` but gone from `graph`: one unit per
 * former owner component, ordered by the dependencies the inventory recorded for it (a removed
 * keystone-api goes before a removed database it needed), and the bootstrap objects last.
 */
export function pruneUnits(inventory: Inventory, graph: ComponentGraph): DeletionUnit[] {
  return unitsFor(objectsNotIn(inventory, graph), inventory);
}

/**
 * Deletes what `pruneUnits` finds, dependants first, waiting until each object is gone.
 * Call it after a successful rollout of `graph` only: a failed rollout may still need them.
 */
export async function prune(
  inventory: Inventory,
  graph: ComponentGraph,
  cluster: ClusterPort,
  options: Omit<DeletionOptions, 'mode'> = {},
): Promise<{ readonly removed: readonly InventoryObject[]; readonly result: DeletionResult }> {
  const removed = objectsNotIn(inventory, graph);
  const result = await deleteInReverseOrder(unitsFor(removed, inventory), cluster, {
    ...options,
    mode: 'prune',
  });
  const deletedUnits = new Set(result.units.filter((u) => u.state === 'deleted').map((u) => u.name));
  return { removed: removed.filter((o) => deletedUnits.has(o.component ?? BOOTSTRAP_UNIT)), result };
}

/**
 * Groups recorded objects into deletion units by component, with the recorded dependencies. The
 * bootstrap unit depends on nothing but is needed by everything (namespaces and CRDs go last), and
 * inside it custom resources go before CRDs before namespaces (see `bootstrapUnits`).
 */
function unitsFor(
  objects: readonly InventoryObject[],
  inventory: Pick<Inventory, 'components'>,
): DeletionUnit[] {
  const byComponent = new Map<string, InventoryObject[]>();
  const bootstrap: InventoryObject[] = [];
  for (const object of objects) {
    if (object.component)
      byComponent.set(object.component, [...(byComponent.get(object.component) ?? []), object]);
    else bootstrap.push(object);
  }
  const recorded = new Map(inventory.components.map((c) => [c.name, c.dependsOn]));
  const last = bootstrapUnits(bootstrap.map(asKubeObject));
  const components: DeletionUnit[] = [...byComponent.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, owned]) => ({
      name,
      dependsOn: [...(recorded.get(name) ?? []), ...(last.length > 0 ? [last[0].name] : [])],
      objects: owned.map(asKubeObject),
    }));
  return [...components, ...last];
}

/**
 * Bootstrap objects as units that delete in the safe order: everything else, then CRDs (after
 * their custom resources, which live in components), then namespaces (which would otherwise delete
 * their content without regard to order).
 */
export function bootstrapUnits(objects: readonly KubeObject[]): DeletionUnit[] {
  const namespaces = objects.filter((o) => o.kind === 'Namespace');
  const crds = objects.filter((o) => o.kind === 'CustomResourceDefinition');
  const rest = objects.filter((o) => o.kind !== 'Namespace' && o.kind !== 'CustomResourceDefinition');
  const phases: { name: string; objects: typeof objects }[] = [
    { name: BOOTSTRAP_UNIT, objects: rest },
    { name: `${BOOTSTRAP_UNIT} crds`, objects: crds },
    { name: `${BOOTSTRAP_UNIT} namespaces`, objects: namespaces },
  ].filter((p) => p.objects.length > 0);
  // Each later phase is a dependency of the earlier ones: deleted after them.
  return phases.map((phase, i) => ({
    name: phase.name,
    dependsOn: phases.slice(i + 1).map((p) => p.name),
    objects: phase.objects,
  }));
}
