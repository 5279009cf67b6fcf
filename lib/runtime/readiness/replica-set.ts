import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import {
  asNumber,
  condition,
  current,
  describeCondition,
  desiredReplicas,
  inProgress,
  isTrue,
  status,
} from './object-fields';

/** ReplicaSet: enough labelled, available and ready replicas, and no extra ones left. */
export function replicaSetReadiness(live: KubeObject): ReadinessResult {
  const s = status(live);
  const want = desiredReplicas(live);
  if (isTrue(live, 'ReplicaFailure')) {
    return inProgress(`replica failure: ${describeCondition(condition(live, 'ReplicaFailure'))}`);
  }
  const labelled = asNumber(s.fullyLabeledReplicas) ?? 0;
  const available = asNumber(s.availableReplicas) ?? 0;
  const ready = asNumber(s.readyReplicas) ?? 0;
  const replicas = asNumber(s.replicas) ?? 0;
  if (labelled < want) return inProgress(`${labelled}/${want} replicas labelled`);
  if (available < want) return inProgress(`${available}/${want} replicas available`);
  if (ready < want) return inProgress(`${ready}/${want} replicas ready`);
  if (replicas > want) return inProgress(`${replicas - want} extra replica(s) pending termination`);
  return current(`${available}/${want} replicas available`);
}
