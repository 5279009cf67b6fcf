import { KubeObject, loadManifests } from '../graph';

/**
 * Anything with cdk8s's `Chart.toJson()`: a Stackwright `Cloud` is a cdk8s Chart, so this is how the
 * adapter accepts one without importing the construct layer (data flows one way: constructs produce
 * manifests, `lib/pulumi` consumes them).
 */
export interface ChartLike {
  /** The chart's objects as plain JSON, validated, annotated and in synthesis order. */
  toJson(): unknown[];
}

/**
 * Where a cloud's objects come from: a `Cloud` (or any cdk8s Chart), objects already synthesised,
 * or a path to a manifest file or a directory of `*.yaml` files (e.g. `dist/` after `cdk8s synth`).
 */
export type CloudSource = ChartLike | readonly KubeObject[] | string;

/** The Kubernetes objects of a source, in synthesis order. */
export function manifestsOf(source: CloudSource): KubeObject[] {
  if (typeof source === 'string') return loadManifests(source);
  if (isChartLike(source)) return source.toJson().map((value, index) => asKubeObject(value, index));
  return source.map((value, index) => asKubeObject(value, index));
}

function isChartLike(source: ChartLike | readonly KubeObject[]): source is ChartLike {
  return !Array.isArray(source) && typeof (source as Partial<ChartLike>).toJson === 'function';
}

function asKubeObject(value: unknown, index: number): KubeObject {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const metadata = (typeof v.metadata === 'object' && v.metadata !== null ? v.metadata : {}) as Record<string, unknown>;
  if (typeof v.apiVersion !== 'string' || typeof v.kind !== 'string' || typeof metadata.name !== 'string') {
    throw new Error(`object #${index + 1} of the cloud is not a Kubernetes object (apiVersion, kind, metadata.name)`);
  }
  return value as KubeObject;
}
