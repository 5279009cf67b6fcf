import { OVN_MAINTENANCE_LABEL, OVN_NO_MAINTENANCE_VALUE } from './reserved-labels';
import { SchedulingKey } from './scheduling-key';

/**
 * Where a component's pods may run, in Yaook's terms. Plain data: constructs build it, synthesis
 * turns it into affinity and tolerations with {@link podScheduling}.
 *
 * A pod runs on a node that carries the label of any of `keys` (own key first, then group keys) and
 * tolerates NoSchedule and NoExecute taints with each of them. `requiredLabels` and `nodeSelector`
 * narrow that further on every node (they are ANDed into each alternative).
 */
export interface PodPlacement {
  /** The component's own key(s) followed by the group keys it listens to; ORed. Never empty. */
  readonly keys: readonly SchedulingKey[];
  /** Labels every node must carry with exactly this value (e.g. the no-OVN-maintenance label). */
  readonly requiredLabels: Readonly<Record<string, string>>;
  /** User node selector from a per-node configuration template; ANDed like `requiredLabels`. */
  readonly nodeSelector: Readonly<Record<string, string>>;
}

/** A component with its own key that also listens to group keys: `placement(IDENTITY_API, ANY_API)`. */
export function placement(key: SchedulingKey, ...groups: SchedulingKey[]): PodPlacement {
  return { keys: unique([key, ...groups]), requiredLabels: {}, nodeSelector: {} };
}

/** A component the seed has no dedicated key for: it schedules by its group key alone. */
export function groupPlacement(group: SchedulingKey): PodPlacement {
  return placement(group);
}

/** How Yaook schedules the Jobs a service runs (db-sync, bootstrap, registration): `OPERATOR_<SVC>` + `OPERATOR_ANY`. */
export function operatorJobPlacement(operatorKey: SchedulingKey): PodPlacement {
  return placement(operatorKey, SchedulingKey.OPERATOR_ANY);
}

/**
 * The Neutron OVN agent: it tolerates and schedules on its own key and on the union of the keys of
 * the components that need it (nova-compute's hypervisor key, the OVN BGP agent's key), so it is
 * present wherever one of them may run.
 */
export function ovnAgentPlacement(dependantKeys: readonly SchedulingKey[]): PodPlacement {
  return placement(SchedulingKey.NETWORK_NEUTRON_OVN_AGENT, ...[...dependantKeys].sort());
}

/** Agents that need the OVN agent also require the node label saying no OVN maintenance is required. */
export function requiringNoOvnMaintenance(base: PodPlacement): PodPlacement {
  return withRequiredLabels(base, { [OVN_MAINTENANCE_LABEL]: OVN_NO_MAINTENANCE_VALUE });
}

/** Adds labels every eligible node must carry. */
export function withRequiredLabels(
  base: PodPlacement,
  labels: Readonly<Record<string, string>>,
): PodPlacement {
  return { ...base, requiredLabels: { ...base.requiredLabels, ...labels } };
}

/** Restricts a placement to nodes matching a per-node configuration template's selector. */
export function restrictedTo(
  base: PodPlacement,
  nodeSelector: Readonly<Record<string, string>>,
): PodPlacement {
  return { ...base, nodeSelector: { ...base.nodeSelector, ...nodeSelector } };
}

function unique<T>(values: readonly T[]): T[] {
  return values.filter((v, i) => values.indexOf(v) === i);
}
