import { ComponentGraph, graphFromManifests, KubeObject, loadManifests } from '../../graph';

/**
 * The manifests of a cloud in any form `deploy`, `plan` and `destroy` accept: a component graph, plain objects, a
 * directory or file of synthesised YAML, or a cdk8s chart/app-like object with `toJson()` (a
 * `Cloud`), read structurally so the runtime never imports the construct layer.
 */
export type ManifestInput = ComponentGraph | readonly KubeObject[] | string | Synthesizable;

/** @deprecated it is the input of plan and destroy too: use `ManifestInput`. Kept for one minor version. */
export type DeployInput = ManifestInput;

/** Structural type of a cdk8s `Chart`: `toJson()` returns the synthesised objects. */
export interface Synthesizable {
  toJson(): unknown[];
}

/** Resolves any `ManifestInput` to the component graph (validating it). */
export function toGraph(input: ManifestInput): ComponentGraph {
  if (typeof input === 'string') return graphFromManifests(loadManifests(input));
  if (Array.isArray(input)) return graphFromManifests(input as readonly KubeObject[]);
  if (isSynthesizable(input)) return graphFromManifests(input.toJson() as KubeObject[]);
  if (!isGraph(input))
    throw new Error(
      `cannot read manifests from ${JSON.stringify(input) ?? String(input)}: pass a manifests directory or file, a list of objects, a component graph or a chart`,
    );
  return input;
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
