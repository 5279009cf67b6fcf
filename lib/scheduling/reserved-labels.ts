/**
 * Labels with a meaning of their own, beyond the scheduling keys.
 */

import { FORCED_DOWNSCALE_LABEL } from '../graph';

export { FORCED_DOWNSCALE_LABEL };

/**
 * The node label that says no OVN maintenance is required on a node. Yaook's neutron_ovn operator
 * maintains such a label; agents that need the OVN agent (nova-compute, the OVN BGP agent) are only
 * scheduled where it is present with the value {@link OVN_NO_MAINTENANCE_VALUE}: a missing label or
 * any other value ("required") keeps them off the node. Stackwright names it
 * `maintenance.yaook.cloud/ovn-maintenance`; set it with
 * `kubectl label node <node> maintenance.yaook.cloud/ovn-maintenance=not-required`.
 */
export const OVN_MAINTENANCE_LABEL = 'maintenance.yaook.cloud/ovn-maintenance';

/** The value of {@link OVN_MAINTENANCE_LABEL} that allows OVN-dependent agents on a node. */
export const OVN_NO_MAINTENANCE_VALUE = 'not-required';

/**
 * Returns a message for every reserved label found among user-supplied node labels or selector
 * keys (empty when all is well). The caller prefixes its construct path.
 */
export function reservedNodeLabelProblems(keys: Iterable<string>, where: string): string[] {
  const problems: string[] = [];
  for (const key of keys) {
    if (key === FORCED_DOWNSCALE_LABEL) {
      problems.push(
        `${where} uses the reserved label ${FORCED_DOWNSCALE_LABEL}; it is set only by Stackwright to downscale a ` +
          'DaemonSet to zero and must never match a node. Remove it (use `forcedDownscale: true` on the component instead).',
      );
    }
  }
  return problems;
}
