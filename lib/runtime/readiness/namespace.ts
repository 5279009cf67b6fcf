import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import { asString, current, inProgress, result, status } from './object-fields';

/** Namespace: Active is Current; Terminating means objects cannot be created in it. */
export function namespaceReadiness(live: KubeObject): ReadinessResult {
  const phase = asString(status(live).phase);
  if (phase === 'Active') return current('active');
  if (phase === 'Terminating')
    return result('Terminating', 'namespace is being deleted; nothing can be created in it');
  return inProgress(`waiting for the namespace to become Active${phase ? ` (phase ${phase})` : ''}`);
}
