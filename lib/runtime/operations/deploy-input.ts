import { ComponentGraph, graphFromManifests, HowToChooseCloud, KubeObject, loadManifests } from '../../graph';
import { InventoryLocation, inventoryLocation } from '../inventory/inventory';

/**
 * The manifests of a cloud in any form `deploy`, `plan` and `destroy` accept: a component graph, plain objects, a
 * directory or file of synthesised YAML, or a cdk8s chart/app-like object with `toJson()` (a
 * `Cloud`), read structurally so the runtime never imports the construct layer.
 */
export type ManifestInput = ComponentGraph | readonly KubeObject[] | string | Synthesizable;

/** Structural type of a cdk8s `Chart`: `toJson()` returns the synthesised objects. */
export interface Synthesizable {
  toJson(): unknown[];
}

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
  const choice = { cloud: selection.cloud, how: CLOUD_OPTION };
  if (typeof input === 'string') return graphFromManifests(loadManifests(input), choice);
  if (Array.isArray(input)) return graphFromManifests(input as readonly KubeObject[], choice);
  if (isSynthesizable(input)) return graphFromManifests(input.toJson() as KubeObject[], choice);
  if (!isGraph(input))
    throw new Error(
      `cannot read manifests from ${JSON.stringify(input) ?? String(input)}: pass a manifests directory or file, a list of objects, a component graph or a chart`,
    );
  const clouds = [...new Set(input.components.map((c) => c.cloud))];
  if (selection.cloud !== undefined && clouds.some((c) => c !== selection.cloud))
    throw new Error(
      `the graph is cloud ${clouds.join(', ')}'s, not ${selection.cloud}'s: leave the option cloud out`,
    );
  return input;
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

function isSynthesizable(input: unknown): input is Synthesizable {
  return (
    typeof input === 'object' &&
    input !== null &&
    typeof (input as { toJson?: unknown }).toJson === 'function'
  );
}

function isGraph(input: unknown): input is ComponentGraph {
  const graph = input as Partial<ComponentGraph> | null;
  return (
    typeof graph === 'object' &&
    graph !== null &&
    Array.isArray(graph.components) &&
    Array.isArray(graph.bootstrap) &&
    Array.isArray(graph.edges)
  );
}
