import { KubeObject, loadManifests } from '../graph';

/**
 * Anything with cdk8s's `Chart.toJson()`: a Stackwright `Cloud` is a cdk8s Chart, so this is how the
 * adapter accepts one without importing the construct layer (data flows one way: constructs produce
 * manifests, `lib/pulumi` consumes them).
 */
export interface ChartLike {
  /** The chart's objects as plain JSON, annotated and in synthesis order. */
  toJson(): unknown[];
  /**
   * The construct node; when present, every construct under it is validated before `toJson()`,
   * as `cdk8s synth` does, so `pulumi up` rejects exactly the clouds `cdk8s synth` rejects.
   */
  readonly node?: { findAll(): readonly ValidatableConstruct[] };
}

/** The part of a construct that validation needs (structurally `constructs`' `IConstruct`). */
export interface ValidatableConstruct {
  readonly node: { readonly path: string; validate(): string[] };
}

/**
 * Where a cloud's objects come from: a `Cloud` (or any cdk8s Chart), objects already synthesised,
 * or a path to a manifest file or a directory of `*.yaml` files (e.g. `dist/` after `cdk8s synth`).
 */
export type CloudSource = ChartLike | readonly KubeObject[] | string;

/** The Kubernetes objects of a source, in synthesis order. */
export function manifestsOf(source: CloudSource): KubeObject[] {
  if (typeof source === 'string') return loadManifests(source);
  if (isChartLike(source)) {
    assertValid(source);
    return source.toJson().map((value, index) => asKubeObject(value, index));
  }
  return source.map((value, index) => asKubeObject(value, index));
}

function isChartLike(source: ChartLike | readonly KubeObject[]): source is ChartLike {
  return !Array.isArray(source) && typeof (source as Partial<ChartLike>).toJson === 'function';
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
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const metadata = (typeof v.metadata === 'object' && v.metadata !== null ? v.metadata : {}) as Record<
    string,
    unknown
  >;
  if (typeof v.apiVersion !== 'string' || typeof v.kind !== 'string' || typeof metadata.name !== 'string') {
    throw new Error(
      `object #${index + 1} of the cloud is not a Kubernetes object (apiVersion, kind, metadata.name)`,
    );
  }
  return value as KubeObject;
}
