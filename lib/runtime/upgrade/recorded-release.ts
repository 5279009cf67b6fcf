import { KubeObject, SUPPORTED_RELEASES } from '../../graph';
import { asKubeObject, Inventory } from '../inventory/inventory';
import { ClusterPort } from '../ports';
import { imageRelease } from './manifest-release';
import { imagesOf } from './upgrade-plan';

/** Kinds whose pod template names the images a cloud runs. */
const WORKLOAD_KINDS: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

/**
 * The oldest supported release the workloads' images are tagged with; undefined when none is.
 * The oldest, because a cloud whose workloads run two releases stopped half-way through a move to
 * the newer one: its databases may not be contracted yet, and the upgrade's phases are idempotent,
 * so planning the move again from the older release is what resumes it safely.
 */
export function oldestWorkloadRelease(workloads: readonly KubeObject[]): string | undefined {
  const found = new Set(workloads.flatMap(imagesOf).map(imageRelease));
  return SUPPORTED_RELEASES.find((release) => found.has(release));
}

/**
 * The release a cloud runs, as the runtime judges an upgrade (docs/upgrades.md): the inventory's
 * record (`stackwright.io/release`) when it has one; for an inventory without one — a cloud
 * deployed before the inventory recorded the release, or whose every run so far stopped before the
 * end — the release of its live workloads (the inventory's Deployments, StatefulSets and
 * DaemonSets, read now: {@link oldestWorkloadRelease}); undefined with no inventory (a first
 * deploy) or when no live workload names a release.
 */
export async function recordedRelease(
  cluster: Pick<ClusterPort, 'get'>,
  inventory: Inventory | undefined,
): Promise<string | undefined> {
  if (inventory === undefined) return undefined;
  if (inventory.release !== undefined) return inventory.release;
  const workloads = await Promise.all(
    inventory.objects.filter((o) => WORKLOAD_KINDS.has(o.kind)).map((o) => cluster.get(asKubeObject(o))),
  );
  return oldestWorkloadRelease(workloads.filter((w): w is KubeObject => w !== undefined));
}
