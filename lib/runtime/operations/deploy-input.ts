import { ComponentGraph, graphFromManifests, KubeObject, loadManifests } from '../../graph';

/**
 * Anything `deploy`, `plan`, `verify` and `destroy` accept: a component graph, plain objects, a
 * directory or file of synthesised YAML, or a cdk8s chart/app-like object with `toJson()` (a
 * `Cloud`), read structurally so the runtime never imports the construct layer.
 */
export type DeployInput = ComponentGraph | readonly KubeObject[] | string | Synthesizable;

/** Structural type of a cdk8s `Chart`: `toJson()` returns the synthesised objects. */
export interface Synthesizable {
  toJson(): unknown[];
}

/** Resolves any `DeployInput` to the component graph (validating it). */
export function toGraph(input: DeployInput): ComponentGraph {
  if (typeof input === 'string') return graphFromManifests(loadManifests(input));
  if (Array.isArray(input)) return graphFromManifests(input as readonly KubeObject[]);
  if (isSynthesizable(input)) return graphFromManifests(input.toJson() as KubeObject[]);
  return input as ComponentGraph;
}

function isSynthesizable(input: unknown): input is Synthesizable {
  return (
    typeof input === 'object' &&
    input !== null &&
    typeof (input as { toJson?: unknown }).toJson === 'function'
  );
}
