import {
  checkPlacement,
  explainUnplaceable,
  isTolerated,
  labelArgument,
  placementConstraints,
  requirementHolds,
} from '../../../lib/runtime/diagnose';
import { freshCluster, HYPERVISOR, node, OVN_MAINTENANCE, yaookScheduling } from './fixtures';

describe('placement', () => {
  test('parses Yaook scheduling: one term per key, tolerations for NoSchedule and NoExecute', () => {
    // GIVEN
    const spec = yaookScheduling(['identity.yaook.cloud/api', 'any.yaook.cloud/api']);

    // WHEN
    const constraints = placementConstraints(spec);

    // THEN
    expect(constraints.terms).toEqual([
      [{ key: 'identity.yaook.cloud/api', operator: 'Exists', values: [] }],
      [{ key: 'any.yaook.cloud/api', operator: 'Exists', values: [] }],
    ]);
    expect(constraints.tolerations).toHaveLength(4);
  });

  test('node selector terms are ORed: a node with only the group key fits', () => {
    // GIVEN
    const spec = yaookScheduling(['identity.yaook.cloud/api', 'any.yaook.cloud/api']);
    const nodes = [node('worker-1', { 'any.yaook.cloud/api': 'true' }), node('worker-2')];

    // WHEN
    const verdict = checkPlacement(spec, nodes);

    // THEN
    expect(verdict.fits).toEqual(['worker-1']);
    expect(verdict.mismatches.map((m) => m.node)).toEqual(['worker-2']);
  });

  test('requirement operators follow the scheduler', () => {
    const labels = { a: 'x', n: '5' };
    expect(requirementHolds(labels, { key: 'a', operator: 'Exists', values: [] })).toBe(true);
    expect(requirementHolds(labels, { key: 'b', operator: 'DoesNotExist', values: [] })).toBe(true);
    expect(requirementHolds(labels, { key: 'a', operator: 'In', values: ['x', 'y'] })).toBe(true);
    expect(requirementHolds(labels, { key: 'a', operator: 'NotIn', values: ['x'] })).toBe(false);
    expect(requirementHolds(labels, { key: 'b', operator: 'NotIn', values: ['x'] })).toBe(true);
    expect(requirementHolds(labels, { key: 'n', operator: 'Gt', values: ['4'] })).toBe(true);
    expect(requirementHolds(labels, { key: 'n', operator: 'Lt', values: ['4'] })).toBe(false);
  });

  test('tolerations: key+Exists tolerates any value, empty key+Exists tolerates everything, effects must match', () => {
    const taint = { key: HYPERVISOR, value: 'true', effect: 'NoSchedule' };
    expect(isTolerated(taint, [{ key: HYPERVISOR, operator: 'Exists', effect: 'NoSchedule' }])).toBe(true);
    expect(isTolerated(taint, [{ key: HYPERVISOR, operator: 'Exists', effect: 'NoExecute' }])).toBe(false);
    expect(isTolerated(taint, [{ key: HYPERVISOR, operator: 'Equal', value: 'false' }])).toBe(false);
    expect(isTolerated(taint, [{ operator: 'Exists' }])).toBe(true);
    expect(isTolerated({ key: 'x', effect: 'PreferNoSchedule' }, [])).toBe(true);
  });

  test('label arguments for kubectl label', () => {
    expect(labelArgument({ key: HYPERVISOR, operator: 'Exists', values: [] })).toBe(`${HYPERVISOR}=true`);
    expect(labelArgument({ key: OVN_MAINTENANCE, operator: 'In', values: ['not-required'] })).toBe(
      `${OVN_MAINTENANCE}=not-required`,
    );
    expect(labelArgument({ key: 'x', operator: 'DoesNotExist', values: [] })).toBe('x-');
  });

  test('explains a fresh cluster: which scheduling label no node carries, the fix, and the nodes whose taints it tolerates', () => {
    // GIVEN: nova-compute needs its key and the OVN maintenance label.
    const spec = yaookScheduling([HYPERVISOR], true);

    // WHEN
    const messages = explainUnplaceable(spec, freshCluster());

    // THEN: the control-plane node is left out of the suggestion (its taint is not tolerated).
    expect(messages).toEqual([
      `no node carries the scheduling label ${HYPERVISOR} (and none has ${OVN_MAINTENANCE}=not-required); ` +
        `fix: kubectl label node <a-suitable-node> ${HYPERVISOR}=true ${OVN_MAINTENANCE}=not-required; nodes whose taints it tolerates: worker-1, worker-2`,
    ]);
  });

  test('names every key when there are several (own key and group key)', () => {
    // GIVEN
    const spec = yaookScheduling(['identity.yaook.cloud/api', 'any.yaook.cloud/api']);

    // WHEN
    const [message] = explainUnplaceable(spec, freshCluster());

    // THEN
    expect(message).toMatch(
      /^no node carries any of the scheduling labels identity.yaook.cloud\/api, any.yaook.cloud\/api; fix: kubectl label node <a-suitable-node> identity.yaook.cloud\/api=true;/,
    );
  });

  test('a node with the scheduling label but in OVN maintenance: names the node and the missing label', () => {
    // GIVEN
    const spec = yaookScheduling([HYPERVISOR], true);
    const nodes = [
      node('compute-1', { [HYPERVISOR]: 'true', [OVN_MAINTENANCE]: 'required' }),
      node('worker-1'),
    ];

    // WHEN
    const messages = explainUnplaceable(spec, nodes);

    // THEN
    expect(messages).toEqual([
      `node compute-1 carries ${HYPERVISOR} but lacks ${OVN_MAINTENANCE}=not-required; fix: kubectl label node compute-1 ${OVN_MAINTENANCE}=not-required --overwrite`,
    ]);
  });

  test('a labelled node with a taint the pod does not tolerate: names the taint and the command', () => {
    // GIVEN
    const spec = yaookScheduling([HYPERVISOR]);
    const nodes = [
      node(
        'compute-1',
        { [HYPERVISOR]: 'true' },
        { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
      ),
      node('worker-1'),
    ];

    // WHEN
    const messages = explainUnplaceable(spec, nodes);

    // THEN
    expect(messages).toEqual([
      'node compute-1 carries the required labels but has taint dedicated=gpu:NoSchedule that the pod does not tolerate; fix: kubectl taint node compute-1 dedicated:NoSchedule- (or tolerate the taint in the stack)',
    ]);
  });

  test('its own key as a taint is tolerated; a cordoned node is named', () => {
    // GIVEN
    const spec = yaookScheduling([HYPERVISOR]);
    const nodes = [
      node(
        'compute-1',
        { [HYPERVISOR]: 'true' },
        { taints: [{ key: HYPERVISOR, effect: 'NoSchedule' }], cordoned: true },
      ),
    ];

    // WHEN
    const messages = explainUnplaceable(spec, nodes);

    // THEN
    expect(messages).toEqual([
      'node compute-1 carries the required labels but is cordoned; fix: kubectl uncordon compute-1 (or tolerate the taint in the stack)',
    ]);
  });

  test('nothing to explain when a node fits', () => {
    expect(
      explainUnplaceable(yaookScheduling([HYPERVISOR]), [node('compute-1', { [HYPERVISOR]: 'true' })]),
    ).toEqual([]);
  });

  test('says so when the cluster has no nodes', () => {
    expect(explainUnplaceable(yaookScheduling([HYPERVISOR]), [])).toEqual(['the cluster has no nodes']);
  });
});
