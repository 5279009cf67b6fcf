import type { Component } from './component';

/**
 * Anything a component can depend on: a component, a service (its entry-point components), or an
 * external endpoint (nothing: it deploys nothing and gates nothing).
 */
export interface IDependable {
  /** The components that must satisfy the edge. Empty for external infrastructure. */
  readonly dependencyTargets: readonly Component[];
}
