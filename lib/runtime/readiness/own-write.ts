import { KubeObject } from '../../graph';
import { ApplyOutcome, ReadinessResult } from '../ports';
import { asString, generation, inProgress, observedGeneration } from './object-fields';

/**
 * True once `live` reflects our write: it is the same object we applied (same uid when both carry
 * one), shows at least the generation our apply returned, and — when its controller reports an
 * `observedGeneration` — the controller has caught up with that generation. Until then a status
 * read from `live` may describe the previous spec (the stale-cache trap, argo-cd #4669).
 *
 * Kinds without `metadata.generation` (ConfigMap, …) are observed as soon as they are seen;
 * kinds whose controller does not report `observedGeneration` (Job, Service, …) rely on their own
 * rule. Never compares resourceVersions numerically (they are opaque).
 */
export function isOwnWriteObserved(applied: ApplyOutcome, live: KubeObject): boolean {
  return ownWritePending(applied, live) === undefined;
}

/**
 * Why `live` does not reflect our write yet, as an InProgress result, or undefined when it does
 * (the readable twin of `isOwnWriteObserved`).
 */
export function ownWritePending(applied: ApplyOutcome, live: KubeObject): ReadinessResult | undefined {
  const appliedUid = asString(applied.live.metadata.uid);
  const liveUid = asString(live.metadata.uid);
  if (appliedUid && liveUid && appliedUid !== liveUid) {
    return inProgress(
      'the object seen is not the one we applied (it was deleted and recreated); waiting for ours',
    );
  }
  const ours = generation(applied.live);
  if (ours === undefined) return undefined;
  const seen = generation(live);
  if (seen === undefined || seen < ours) {
    return inProgress(`waiting to observe our write (generation ${ours}, seen ${seen ?? 'none'})`);
  }
  const observed = observedGeneration(live);
  if (observed !== undefined && observed < ours) {
    return inProgress(`waiting for the controller to observe generation ${ours} (observed ${observed})`);
  }
  return undefined;
}
