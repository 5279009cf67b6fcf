import { StuckCause } from '../../ports';
import { Finding } from '../finding';
import { admissionDenied } from './admission-denied';
import { ClusterEvent } from './cluster-event';
import { crashLoop } from './crash-loop';
import { EventRule } from './event-rule';
import { imagePull } from './image-pull';
import { jobFailed } from './job-failed';
import { podSecurity } from './pod-security';
import { quotaExceeded } from './quota-exceeded';
import { serviceAccountMissing } from './service-account-missing';
import { storageClassMissing } from './storage-class-missing';
import { unschedulable } from './unschedulable';

/** Every event rule, one per stuck cause. */
export const EVENT_RULES: Readonly<Record<StuckCause, EventRule>> = {
  'quota-exceeded': quotaExceeded,
  'storage-class-missing': storageClassMissing,
  'admission-denied': admissionDenied,
  'pod-security': podSecurity,
  'service-account-missing': serviceAccountMissing,
  unschedulable,
  'image-pull': imagePull,
  'crash-loop': crashLoop,
  'job-failed': jobFailed,
};

/** The finding of one event: the first rule for its reason that recognises it. */
export function explainEvent(event: ClusterEvent): Finding | undefined {
  for (const rule of Object.values(EVENT_RULES)) {
    if (!rule.reasons.includes(event.reason)) continue;
    const found = rule.explain(event);
    if (found) return found;
  }
  return undefined;
}
