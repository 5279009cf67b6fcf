import { shown } from './shown';

/**
 * Why the `index`th value (from 0) of a list of objects is not a Kubernetes object, worded the
 * same by the manifest contract and the manifest reader. Not part of the package's face.
 */
export function notAKubeObject(value: unknown, index: number): string {
  return `object ${index + 1} is not a Kubernetes object (apiVersion, kind, metadata.name): ${shown(value).slice(0, 80)}`;
}
