import { ClusterEvent, involvedName, involvedNamespace } from './cluster-event';
import { EventRule, eventRule, EventWording } from './event-rule';

// `exceeded quota: <name>, requested: a=1,b=2, used: a=1,b=1, limited: a=1,b=2`
const EXCEEDED = /exceeded quota: ([^,\s]+), requested: (\S*), used: (\S*), limited: (\S*?)(?:$|\s)/;
// `failed quota: <name>: must specify limits.cpu for: main; limits.memory for: main`
const MUST_SPECIFY = /failed quota: ([^:\s]+): must specify (.+)$/;

/**
 * A ResourceQuota refused the pods a controller tried to create (`FailedCreate` on the ReplicaSet,
 * StatefulSet, DaemonSet or Job): names the quota and each resource that would go over its limit,
 * or the requests/limits the quota demands and the pods lack.
 */
export const quotaExceeded: EventRule = eventRule({
  cause: 'quota-exceeded',
  reasons: ['FailedCreate'],
  blocking: true,
  word(event: ClusterEvent): EventWording | undefined {
    const namespace = involvedNamespace(event);
    const exceeded = EXCEEDED.exec(event.message);
    if (exceeded) {
      const [, quota, requested, used, limited] = exceeded;
      const req = quantities(requested);
      const use = quantities(used);
      const over = Object.entries(quantities(limited))
        .filter(([resource]) => req[resource] !== undefined)
        .map(
          ([resource, limit]) =>
            `${resource} (requested ${req[resource]}, used ${use[resource] ?? '0'}, limit ${limit})`,
        );
      return (
        `ResourceQuota ${quota} forbids the pods of ${involvedName(event)}: ${over.join(', ') || requested}; ` +
        `fix: raise spec.hard of ResourceQuota ${quota} (kubectl -n ${namespace} edit resourcequota ${quota}) or lower the pods' requests`
      );
    }
    const unspecified = MUST_SPECIFY.exec(event.message);
    if (unspecified) {
      const [, quota, what] = unspecified;
      return (
        `ResourceQuota ${quota} demands ${what.trim()}, which the pods of ${involvedName(event)} do not set; ` +
        `fix: set those resources on the containers, or add a LimitRange with defaults to namespace ${namespace}`
      );
    }
    return undefined;
  },
});

/** `pods=1,limits.cpu=500m` as a record. */
function quantities(list: string): Record<string, string> {
  return Object.fromEntries(
    list
      .split(',')
      .map((pair) => pair.split('='))
      .filter((kv) => kv.length === 2 && kv[0] !== '')
      .map(([k, v]) => [k, v]),
  );
}
