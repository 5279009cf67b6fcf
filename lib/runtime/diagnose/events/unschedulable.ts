import { ClusterEvent } from './cluster-event';
import { EventRule, eventRule, EventWording } from './event-rule';

/**
 * The scheduler found no node for a pod (`FailedScheduling`): quotes its per-node reasons ("3
 * node(s) didn't match Pod's node affinity/selector", "Insufficient cpu", "unbound immediate
 * PersistentVolumeClaims") without the preemption part. Not blocking: a node may yet join or free up.
 */
export const unschedulable: EventRule = eventRule({
  cause: 'unschedulable',
  reasons: ['FailedScheduling'],
  blocking: false,
  word(event: ClusterEvent): EventWording | undefined {
    const reasons = event.message.split(' preemption:')[0].trim().replace(/\.$/, '');
    if (reasons === '') return undefined;
    const claims = /unbound immediate PersistentVolumeClaims/.test(reasons)
      ? '; its PersistentVolumeClaims are not bound (see their diagnosis)'
      : '';
    return `pod ${event.involved.name} cannot be scheduled: ${reasons}${claims}`;
  },
});
