import { ComponentGraph } from '../../graph';
import { manifestRelease } from './manifest-release';
import { planUpgrade, UpgradePlan, UpgradePlanError } from './upgrade-plan';

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

/**
 * Deploy's gate: refuses what {@link decideRelease} refuses, and an upgrade too until the runtime
 * executes the plan's phases (a plain apply would roll every pod at once, before the expand).
 */
export function releaseToDeploy(
  graph: ComponentGraph,
  cloudPath: string,
  recorded: string | undefined,
): string | undefined {
  const decision = decideRelease(graph, cloudPath, recorded);
  if (decision.kind === 'untracked') return undefined;
  if (decision.kind !== 'upgrade') return decision.to;
  const { from, to } = decision.plan;
  throw new UpgradePlanError([
    `[${cloudPath}] the cluster runs release '${from}' and the manifests are '${to}': an upgrade, which deploy does not execute yet; ` +
      `run stackwright plan to see its phases, and deploy with release: '${from}' until the upgrade runner lands (docs/upgrades.md)`,
  ]);
}
