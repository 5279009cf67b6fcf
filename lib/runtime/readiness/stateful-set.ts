import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import {
  asNumber,
  asRecord,
  asString,
  current,
  desiredReplicas,
  inProgress,
  observedGeneration,
  spec,
  status,
} from './object-fields';

/**
 * StatefulSet: with the OnDelete strategy nothing is rolled by the controller, so it is Current;
 * otherwise every replica exists and is ready, and the rollout is done: all replicas on the update
 * revision, or, with a partition, every ordinal at or above the partition updated. StatefulSets
 * have no failure signal; a crash-looping pod shows in the diagnosis.
 */
export function statefulSetReadiness(live: KubeObject): ReadinessResult {
  const strategy = asRecord(spec(live).updateStrategy);
  if (asString(strategy.type) === 'OnDelete')
    return current('OnDelete update strategy: pods are replaced manually');
  if (observedGeneration(live) === undefined)
    return inProgress('waiting for the statefulset controller to observe it');

  const s = status(live);
  const want = desiredReplicas(live);
  const replicas = asNumber(s.replicas) ?? 0;
  const ready = asNumber(s.readyReplicas) ?? 0;
  const updated = asNumber(s.updatedReplicas) ?? 0;
  const currentReplicas = asNumber(s.currentReplicas) ?? 0;
  const partition = asNumber(asRecord(strategy.rollingUpdate).partition) ?? 0;

  if (replicas < want) return inProgress(`${replicas}/${want} replicas created`);
  if (replicas > want) return inProgress(`${replicas - want} replica(s) pending termination`);
  if (ready < want) return inProgress(`${ready}/${want} replicas ready`);
  if (partition > 0) {
    const toUpdate = Math.max(0, want - partition);
    if (updated < toUpdate)
      return inProgress(
        `partitioned rollout: ${updated}/${toUpdate} replicas updated (partition ${partition})`,
      );
    return current(
      `partitioned rollout done: ${updated}/${toUpdate} replicas at or above ordinal ${partition} updated, ${ready}/${want} ready`,
    );
  }
  const currentRevision = asString(s.currentRevision);
  const updateRevision = asString(s.updateRevision);
  if (updateRevision !== undefined && currentRevision !== updateRevision) {
    return inProgress(`rolling update: ${updated}/${want} replicas on revision ${updateRevision}`);
  }
  if (currentReplicas < want)
    return inProgress(`${currentReplicas}/${want} replicas on the current revision`);
  return current(`${ready}/${want} replicas ready`);
}
