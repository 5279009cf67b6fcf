import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import { condition, current, describeCondition, failed, inProgress } from './object-fields';

/**
 * CustomResourceDefinition: `Established=True` is Current (its custom resources can be applied);
 * rejected names, or an establishment failure other than `Installing`, are failures.
 */
export function customResourceDefinitionReadiness(live: KubeObject): ReadinessResult {
  const names = condition(live, 'NamesAccepted');
  if (names?.status === 'False')
    return failed(`names not accepted: ${describeCondition(names) || 'no reason given'}`);
  const established = condition(live, 'Established');
  if (established?.status === 'True') return current('established');
  if (!established) return inProgress('waiting for the CRD to be established');
  if (established.reason === 'Installing' || established.status === 'Unknown') {
    return inProgress(`installing${established.message ? `: ${established.message}` : ''}`);
  }
  return failed(`not established: ${describeCondition(established) || 'no reason given'}`);
}
