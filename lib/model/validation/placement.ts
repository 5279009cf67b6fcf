import { isSchedulingKey, PodPlacement, reservedNodeLabelProblems } from '../../scheduling';
import { PropsSpec, required, Rule, Rules } from './props';
import { shown } from '../../graph';

/** A Yaook scheduling key (`SchedulingKey.IDENTITY_API`), not any string. */
export const schedulingKeyRule: Rule = (value, name) =>
  typeof value === 'string' && isSchedulingKey(value)
    ? []
    : [
        `${name} ${shown(value)} is not a Yaook scheduling key; use one of SchedulingKey, e.g. SchedulingKey.ANY_API`,
      ];

/** Labels a user may require of nodes: valid, and never the reserved downscale label. */
const nodeLabels: Rule = Rules.given((value, name) => [
  ...Rules.labels()(value, name),
  ...(typeof value === 'object' && value !== null ? reservedNodeLabelProblems(Object.keys(value), name) : []),
]);

const PLACEMENT: PropsSpec<PodPlacement> = {
  keys: required(
    Rules.list(schedulingKeyRule, { min: 1 }),
    'at least one SchedulingKey: build it with placement(key, ...groups)',
  ),
  requiredLabels: required(nodeLabels, 'an object of label: value ({} for none)'),
  nodeSelector: required(nodeLabels, 'an object of label: value ({} for none)'),
};

/** A component's placement, as `placement(...)` builds it: scheduling keys from the known set, valid node labels. */
export const placementRule: Rule = Rules.object(PLACEMENT);
