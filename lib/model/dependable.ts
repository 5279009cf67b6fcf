import type { Component } from './component';

/**
 * Anything a component can depend on: a component, a service (its entry-point components), or an
 * external endpoint (nothing: it deploys nothing and gates nothing).
 */
export interface IDependable {
  /** The components that must satisfy the edge. Empty for external infrastructure. */
  readonly dependencyTargets: readonly Component[];
}

/** True for anything with `dependencyTargets` (a component, a service, an external endpoint). */
export function isDependable(x: unknown): x is IDependable {
  return typeof x === 'object' && x !== null && Array.isArray((x as Partial<IDependable>).dependencyTargets);
}
