import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import {
  asArray,
  asString,
  condition,
  current,
  describeCondition,
  failed,
  generation,
  inProgress,
  isTrue,
  observedGeneration,
  result,
} from './object-fields';

/**
 * The checks every kind goes through before its own rule (kstatus order): being deleted, the
 * controller not having observed the latest generation, and the standard `Stalled`/`Reconciling`
 * conditions. Returns undefined when none of them decides, so the kind rule runs.
 */
export function genericReadiness(live: KubeObject): ReadinessResult | undefined {
  if (live.metadata.deletionTimestamp !== undefined) {
    const finalizers = asArray(live.metadata.finalizers).map(String);
    const suffix = finalizers.length > 0 ? `; waiting for finalizers ${finalizers.join(', ')}` : '';
    return result('Terminating', `being deleted${suffix}`);
  }
  const gen = generation(live);
  const observed = observedGeneration(live);
  if (gen !== undefined && observed !== undefined && observed !== gen) {
    return inProgress(`the controller has not observed generation ${gen} yet (observed ${observed})`);
  }
  if (isTrue(live, 'Stalled')) {
    return failed(`stalled: ${describeCondition(condition(live, 'Stalled')) || 'no reason given'}`);
  }
  if (isTrue(live, 'Reconciling')) {
    return inProgress(
      `reconciling: ${describeCondition(condition(live, 'Reconciling')) || 'no reason given'}`,
    );
  }
  return undefined;
}

/**
 * The rule for kinds we know nothing about (custom resources): the `Ready` condition decides;
 * without any status signal the object is assumed ready, and the message says so, because a
 * controller that sets `Ready` only once true looks ready from the start (the kstatus README trap).
 */
export function unknownKindReadiness(live: KubeObject): ReadinessResult {
  const ready = condition(live, 'Ready');
  if (ready) {
    const detail = describeCondition(ready);
    if (ready.status.toLowerCase() === 'true') return current(detail ? `ready: ${detail}` : 'ready');
    return inProgress(detail ? `not ready: ${detail}` : `Ready is ${ready.status}`);
  }
  const phase = asString((live.status as Record<string, unknown> | undefined)?.phase);
  const hint = phase ? ` (status.phase is ${phase})` : '';
  return current(
    `assumed ready: no status signals${hint}; add a readiness rule for ${live.kind} if it has one`,
  );
}
