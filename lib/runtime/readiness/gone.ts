import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import { asRecord, current } from './object-fields';

/** What the engine knows about an object that is gone (a DELETED event, or not found on read). */
export interface GoneInput {
  /** The manifest the run applied or read. */
  readonly desired: KubeObject;
  /** True when this run applied it before it went. */
  readonly appliedByUs: boolean;
  /**
   * True when the last deploy recorded applying exactly this manifest (the inventory's hash), so a
   * run that only reads (verify) knows the object was there.
   * @default false
   */
  readonly deployed?: boolean;
}

/**
 * The status of an object that is gone. A Job with `ttlSecondsAfterFinished` that we applied and
 * that then disappeared was removed by its TTL controller after finishing: Current (Flux counts
 * it as success too). So is one that verify finds gone when the last deploy recorded applying that
 * very manifest: that deploy waited for it to complete before its dependants started. Anything
 * else is NotFound.
 */
export function goneReadiness({ desired, appliedByUs, deployed = false }: GoneInput): ReadinessResult {
  const hasTtl = desired.kind === 'Job' && asRecord(desired.spec).ttlSecondsAfterFinished !== undefined;
  if (hasTtl && appliedByUs) return current('finished and removed by its TTL');
  if (hasTtl && deployed) return current('removed by its TTL after the recorded deploy');
  return { status: 'NotFound', message: appliedByUs ? 'deleted after we applied it' : 'not found' };
}
