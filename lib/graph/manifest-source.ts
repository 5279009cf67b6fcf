import { CloudChoice, ComponentGraph, graphFromManifests } from './component-graph';
import { loadManifests } from './load-manifests';
import { isKubeObject, KubeObject } from './manifest';
import { notAKubeObject } from './not-a-kube-object';
import { shown } from './shown';

/**
 * Anything with cdk8s's `Chart.toJson()`: a Stackwright `Cloud` is a cdk8s Chart, so this is how the
 * runtime and the Pulumi adapter accept one without importing the construct layer (data flows one
 * way: constructs produce manifests, the back ends consume them).
 */
export interface ChartLike {
  /** The chart's objects as plain JSON, annotated and in synthesis order. */
  toJson(): unknown[];
  /**
   * The construct node; when present, every construct under it is validated before `toJson()`,
   * as `cdk8s synth` does, so `deploy` and `pulumi up` reject exactly the clouds `cdk8s synth` rejects.
   */
  readonly node?: { findAll(): readonly ValidatableConstruct[] };
}

/** The part of a construct that validation needs (structurally `constructs`' `IConstruct`). */
export interface ValidatableConstruct {
  readonly node: { readonly path: string; validate(): string[] };
}

/**
 * A cloud's manifests in any form the back ends accept: a `Cloud` (or any cdk8s Chart), objects
 * already synthesised, or a path to a manifest file or a directory of `*.yaml` files (e.g. `dist/`
 * after `cdk8s synth`).
 */
export type ManifestSource = ChartLike | readonly KubeObject[] | string;

/**
 * The Kubernetes objects of a source, in synthesis order. A chart is validated first (every
 * problem with its construct path, in one error); every object must have `apiVersion`, `kind` and
 * `metadata.name`.
 */
export function manifestsOf(source: ManifestSource): KubeObject[] {
  if (typeof source === 'string') return loadManifests(source);
  if (Array.isArray(source)) return source.map((value, index) => asKubeObject(value, index));
  if (isChartLike(source)) {
    assertValid(source);
    return source.toJson().map((value, index) => asKubeObject(value, index));
  }
  throw new Error(
    `cannot read manifests from ${shown(source)}: pass a manifests directory or file, a list of objects or a chart`,
  );
}

/**
 * The component graph of one cloud of `source` (checked closed and acyclic): the only one of the
 * manifests, or `choice.cloud`. A graph is taken as it is, when it is the chosen cloud's.
 */
export function graphOf(source: ManifestSource | ComponentGraph, choice: CloudChoice = {}): ComponentGraph {
  // A list is checked by the manifest contract as a whole: every problem at once.
  if (Array.isArray(source)) return graphFromManifests(source, choice);
  if (typeof source === 'string' || isChartLike(source))
    return graphFromManifests(manifestsOf(source), choice);
  if (!isGraph(source))
    throw new Error(
      `cannot read manifests from ${shown(source)}: pass a manifests directory or file, a list of objects, a component graph or a chart`,
    );
  const clouds = [...new Set(source.components.map((c) => c.cloud))];
  if (choice.cloud !== undefined && clouds.some((c) => c !== choice.cloud))
    throw new Error(
      `the graph is cloud ${clouds.join(', ')}'s, not ${choice.cloud}'s: leave the option cloud out, or pass that cloud's graph`,
    );
  return source;
}

function isChartLike(source: unknown): source is ChartLike {
  return (
    typeof source === 'object' &&
    source !== null &&
    typeof (source as Partial<ChartLike>).toJson === 'function'
  );
}

function isGraph(source: unknown): source is ComponentGraph {
  const graph = source as Partial<ComponentGraph> | null;
  return (
    typeof graph === 'object' &&
    graph !== null &&
    Array.isArray(graph.components) &&
    Array.isArray(graph.bootstrap) &&
    Array.isArray(graph.edges)
  );
}

/** Runs the constructs' validations; throws one error listing every problem with its construct path. */
function assertValid(chart: ChartLike): void {
  const problems = (chart.node?.findAll() ?? []).flatMap((c) =>
    c.node.validate().map((message) => `[${c.node.path}] ${message}`),
  );
  if (problems.length > 0) {
    throw new Error(
      `the cloud is not valid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.join('\n')}`,
    );
  }
}

function asKubeObject(value: unknown, index: number): KubeObject {
  if (isKubeObject(value)) return value;
  throw new Error(notAKubeObject(value, index));
}
