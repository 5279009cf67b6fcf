import { ComponentGraph, GraphComponent } from '../../graph';
import { manifestRelease } from './manifest-release';
import { planUpgrade, UpgradePlan } from './upgrade-plan';
import { upgradeRolloutGraph } from './upgrade-rollout-graph';

/** What a run does about the release, decided before anything is written. */
export type ReleaseDecision =
  /** The manifests name no release (no OpenStack image): nothing to record or check. */
  | { readonly kind: 'untracked' }
  /** Nothing recorded yet (first deploy, or a cloud deployed before the record): record `to`. */
  | { readonly kind: 'record'; readonly to: string }
  /** The cluster runs the manifests' release: a plain deploy. */
  | { readonly kind: 'same'; readonly to: string }
  /** The next release (or a skip-level pair): the upgrade plan. */
  | { readonly kind: 'upgrade'; readonly plan: UpgradePlan };

/**
 * Compares the release recorded on the cluster (`recorded`, the inventory's annotation) with the
 * manifests' release. Throws {@link UpgradePlanError} naming `cloudPath` and the fix for a
 * downgrade, a skip over more than the allowed path, or a recorded release the package does not
 * carry (`upgradePathProblems`).
 */
export function decideRelease(
  graph: ComponentGraph,
  cloudPath: string,
  recorded: string | undefined,
): ReleaseDecision {
  const to = manifestRelease(graph, cloudPath);
  if (to === undefined) return { kind: 'untracked' };
  if (recorded === undefined) return { kind: 'record', to };
  const plan = planUpgrade(graph, { cloudPath, from: recorded, to });
  return plan ? { kind: 'upgrade', plan } : { kind: 'same', to };
}

/** What deploy rolls out, and the release it records once the rollout succeeded. */
export interface DeployTarget {
  /** The manifests' graph, or for an upgrade the graph that runs the plan (`upgradeRolloutGraph`). */
  readonly graph: ComponentGraph;
  /** The release to record; undefined when the manifests name none. */
  readonly release?: string;
  /** The plan being run, for an upgrade. */
  readonly upgrade?: UpgradePlan;
  /** For an upgrade: the components `graph` adds to the manifests' (one per unit of the plan). */
  readonly units: readonly GraphComponent[];
}

/**
 * Deploy's decision, before anything is written: refuses what {@link decideRelease} refuses; for
 * an upgrade, the graph that runs the plan's phases in the rollout.
 */
export function deployTarget(
  graph: ComponentGraph,
  cloudPath: string,
  recorded: string | undefined,
): DeployTarget {
  const decision = decideRelease(graph, cloudPath, recorded);
  if (decision.kind === 'untracked') return { graph, units: [] };
  if (decision.kind !== 'upgrade') return { graph, release: decision.to, units: [] };
  const { plan } = decision;
  const upgrade = upgradeRolloutGraph(graph, plan);
  const unitNames = new Set(plan.units.map((u) => u.name));
  return {
    graph: upgrade,
    release: plan.to,
    upgrade: plan,
    units: upgrade.components.filter((c) => unitNames.has(c.name)),
  };
}
