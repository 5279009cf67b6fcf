import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import { condition, current, describeCondition, inProgress } from './object-fields';

/**
 * APIService: `Available=True`. kstatus has no rule (it would say Current at once); an aggregated
 * API that is not available fails every request for its group, so dependants must wait.
 */
export function apiServiceReadiness(live: KubeObject): ReadinessResult {
  const available = condition(live, 'Available');
  if (available?.status === 'True') return current('available');
  return inProgress(
    available
      ? `not available: ${describeCondition(available)}`
      : 'waiting for the aggregated API to become available',
  );
}
