import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import { asRecord, current } from './object-fields';

/** What the engine knows about an object that is gone (a DELETED event, or not found on read). */
export interface GoneInput {
  /** The manifest the run applied or read. */
  readonly desired: KubeObject;
  /** True when this run applied it before it went. */
  readonly appliedByUs: boolean;
}

/**
 * The status of an object that is gone. A Job with `ttlSecondsAfterFinished` that we applied and
 * that then disappeared was removed by its TTL controller after finishing: Current (Flux counts
 * it as success too). Anything else is NotFound.
 */
export function goneReadiness({ desired, appliedByUs }: GoneInput): ReadinessResult {
  if (appliedByUs && desired.kind === 'Job' && asRecord(desired.spec).ttlSecondsAfterFinished !== undefined)
    return current('finished and removed by its TTL');
  return { status: 'NotFound', message: appliedByUs ? 'deleted after we applied it' : 'not found' };
}
