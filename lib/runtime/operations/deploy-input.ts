import { ComponentGraph, graphOf, HowToChooseCloud, ManifestSource } from '../../graph';
import { InventoryLocation, inventoryLocation } from '../inventory/inventory';

/**
 * The manifests of a cloud in any form `deploy`, `plan` and `destroy` accept: a component graph or
 * any {@link ManifestSource} (a `Cloud` or other chart, plain objects, a directory or file of
 * synthesised YAML), the same forms the Pulumi adapter reads.
 */
export type ManifestInput = ComponentGraph | ManifestSource;

/** Which cloud of the manifests `deploy`, `plan` and `destroy` work on, and where its inventory is. */
export interface ManifestSelection {
  /**
   * The cloud to work on (its `stackwright.io/cloud` annotation) when the manifests hold several;
   * each cloud has its own inventory.
   * @default - the only cloud of the manifests (several are an error)
   */
  readonly cloud?: string;
  /**
   * Where the inventory lives, when it cannot be inferred from the manifests.
   * @default - the cloud's namespace (the one its manifests create)
   */
  readonly inventoryNamespace?: string;
}

/** How a program chooses a cloud: the option of the operations. */
const CLOUD_OPTION: HowToChooseCloud = (example) => `pass the option cloud: '${example}' to choose one`;

/**
 * Resolves any `ManifestInput` to the component graph of one cloud (validating it): the only one
 * of the manifests, or `selection.cloud`.
 */
export function toGraph(
  input: ManifestInput,
  selection: Pick<ManifestSelection, 'cloud'> = {},
): ComponentGraph {
  return graphOf(input, { cloud: selection.cloud, how: CLOUD_OPTION });
}

/**
 * The graph and its inventory's location, both before any connection: manifests that hold
 * several clouds, or no namespace for the inventory, fail here and not after connecting.
 */
export function toLocatedGraph(
  input: ManifestInput,
  selection: ManifestSelection,
): { graph: ComponentGraph; location: InventoryLocation } {
  const graph = toGraph(input, selection);
  return { graph, location: inventoryLocation(graph, selection.inventoryNamespace) };
}
