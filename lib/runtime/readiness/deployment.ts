import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import {
  asNumber,
  condition,
  current,
  describeCondition,
  desiredReplicas,
  failed,
  inProgress,
  isTrue,
  observedGeneration,
  spec,
  status,
} from './object-fields';

/**
 * Deployment: the controller observed our generation, every replica is updated, ready and
 * available, no old replica is left, and (with a progress deadline) the new ReplicaSet is
 * available. `Progressing=False/ProgressDeadlineExceeded` is a failure; a paused Deployment is
 * reported Current with a warning, since nothing will ever roll it out.
 */
export function deploymentReadiness(live: KubeObject): ReadinessResult {
  const s = status(live);
  const progressing = condition(live, 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') {
    return failed(`progress deadline exceeded: ${progressing.message ?? 'the rollout made no progress'}`);
  }
  if (spec(live).paused === true) return current('paused: not rolled out until resumed');
  if (observedGeneration(live) === undefined)
    return inProgress('waiting for the deployment controller to observe it');

  const want = desiredReplicas(live);
  const replicas = asNumber(s.replicas) ?? 0;
  const updated = asNumber(s.updatedReplicas) ?? 0;
  const ready = asNumber(s.readyReplicas) ?? 0;
  const available = asNumber(s.availableReplicas) ?? 0;

  if (updated < want) return inProgress(`${updated}/${want} replicas updated`);
  if (replicas > updated) return inProgress(`${replicas - updated} old replica(s) pending termination`);
  if (available < updated) return inProgress(`${available}/${want} replicas available`);
  if (ready < want) return inProgress(`${ready}/${want} replicas ready`);
  if (
    spec(live).progressDeadlineSeconds !== undefined &&
    !(progressing?.status === 'True' && progressing.reason === 'NewReplicaSetAvailable')
  ) {
    return inProgress(
      `new ReplicaSet not available yet${progressing ? ` (${describeCondition(progressing)})` : ''}`,
    );
  }
  const availableCondition = condition(live, 'Available');
  if (availableCondition && !isTrue(live, 'Available')) {
    return inProgress(`not available: ${describeCondition(availableCondition) || 'Available is False'}`);
  }
  return current(`${available}/${want} replicas available`);
}
