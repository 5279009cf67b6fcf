import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import { asNumber, current, status } from './object-fields';

/**
 * PodDisruptionBudget: Current once the generic checks pass (the disruption controller observed
 * it). Healthy-pod counts are reported, not waited for: the budget's pods belong to a workload
 * whose own rule waits for them.
 */
export function podDisruptionBudgetReadiness(live: KubeObject): ReadinessResult {
  const s = status(live);
  const healthy = asNumber(s.currentHealthy);
  const desired = asNumber(s.desiredHealthy);
  const allowed = asNumber(s.disruptionsAllowed);
  if (healthy === undefined || desired === undefined) return current('exists');
  return current(`${healthy} healthy pod(s), ${desired} required, ${allowed ?? 0} disruption(s) allowed`);
}
