import { IConstruct } from 'constructs';

/**
 * Type markers looked up through the construct tree. Symbols instead of `instanceof` keep the model
 * free of import cycles and work across duplicate copies of the package (as cdk8s does for Chart).
 */
export const CLOUD_MARKER = Symbol.for('stackwright.Cloud');
export const SERVICE_MARKER = Symbol.for('stackwright.Service');
export const COMPONENT_MARKER = Symbol.for('stackwright.Component');
export const JSON_API_OBJECT_MARKER = Symbol.for('stackwright.JsonApiObject');

export function hasMarker(x: unknown, marker: symbol): boolean {
  return typeof x === 'object' && x !== null && marker in x;
}

export function mark(target: object, marker: symbol): void {
  Object.defineProperty(target, marker, { value: true });
}

/** The closest ancestor (or the construct itself) that carries `marker`. */
export function closest(scope: IConstruct, marker: symbol): IConstruct | undefined {
  // Walks up the parents: `node.scopes` would build the whole path as a new array on every call.
  for (let s: IConstruct | undefined = scope; s; s = s.node.scope) if (hasMarker(s, marker)) return s;
  return undefined;
}
