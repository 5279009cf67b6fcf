import {
  FORCED_DOWNSCALE_LABEL,
  groupPlacement,
  operatorJobPlacement,
  ovnAgentPlacement,
  placement,
  podScheduling,
  requiringNoOvnMaintenance,
  restrictedTo,
  SchedulingKey,
} from '../../lib/scheduling';

const K = SchedulingKey.IDENTITY_API;
const G = SchedulingKey.ANY_API;

describe('podScheduling', () => {
  test('a key K with group G tolerates {K, G} x {NoSchedule, NoExecute} and runs on [K Exists] OR [G Exists]', () => {
    // WHEN
    const scheduling = podScheduling(placement(K, G));

    // THEN
    expect(scheduling.tolerations).toEqual([
      { key: K, operator: 'Exists', effect: 'NoSchedule' },
      { key: K, operator: 'Exists', effect: 'NoExecute' },
      { key: G, operator: 'Exists', effect: 'NoSchedule' },
      { key: G, operator: 'Exists', effect: 'NoExecute' },
    ]);
    expect(
      scheduling.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
    ).toEqual([
      { matchExpressions: [{ key: K, operator: 'Exists' }] },
      { matchExpressions: [{ key: G, operator: 'Exists' }] },
    ]);
    expect(scheduling.nodeSelector).toBeUndefined();
  });

  test('a component without a dedicated key schedules by its group key alone', () => {
    const scheduling = podScheduling(groupPlacement(SchedulingKey.ANY_INFRA));
    expect(
      scheduling.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
    ).toEqual([{ matchExpressions: [{ key: 'infra.yaook.cloud/any', operator: 'Exists' }] }]);
    expect(scheduling.tolerations.map((t) => t.key)).toEqual([
      'infra.yaook.cloud/any',
      'infra.yaook.cloud/any',
    ]);
  });

  test('service Jobs use the operator key of the service and the OPERATOR_ANY group', () => {
    const p = operatorJobPlacement(SchedulingKey.OPERATOR_KEYSTONE);
    expect(p.keys).toEqual(['operator.yaook.cloud/keystone', 'operator.yaook.cloud/any']);
  });

  test("the OVN agent tolerates and schedules on the union of its own key and its dependants' keys", () => {
    // WHEN nova-compute and the OVN BGP agent need the OVN agent
    const scheduling = podScheduling(
      ovnAgentPlacement([SchedulingKey.NETWORK_NEUTRON_BGP_AGENT, SchedulingKey.COMPUTE_HYPERVISOR]),
    );

    // THEN
    const keys = [
      'network.yaook.cloud/neutron-ovn-agent',
      'compute.yaook.cloud/hypervisor',
      'network.yaook.cloud/neutron-bgp-agent',
    ];
    expect(
      scheduling.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
    ).toEqual(keys.map((key) => ({ matchExpressions: [{ key, operator: 'Exists' }] })));
    expect(new Set(scheduling.tolerations.map((t) => `${t.key}:${t.effect}`)).size).toBe(6);
  });

  test('agents needing OVN require the no-OVN-maintenance label in every alternative', () => {
    const scheduling = podScheduling(requiringNoOvnMaintenance(placement(SchedulingKey.COMPUTE_HYPERVISOR)));
    for (const term of scheduling.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
      .nodeSelectorTerms) {
      expect(term.matchExpressions).toContainEqual({
        key: 'maintenance.yaook.cloud/ovn-maintenance',
        operator: 'In',
        values: ['not-required'],
      });
    }
  });

  test('a template selector narrows every alternative', () => {
    const scheduling = podScheduling(restrictedTo(placement(K, G), { 'example.com/gpu': 'true' }));
    const terms =
      scheduling.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms;
    expect(terms).toHaveLength(2);
    for (const term of terms) {
      expect(term.matchExpressions[1]).toEqual({ key: 'example.com/gpu', operator: 'In', values: ['true'] });
    }
  });

  test('forced downscale adds the reserved nodeSelector', () => {
    const scheduling = podScheduling(placement(SchedulingKey.COMPUTE_HYPERVISOR), { forcedDownscale: true });
    expect(scheduling.nodeSelector).toEqual({ [FORCED_DOWNSCALE_LABEL]: 'true' });
  });
});
