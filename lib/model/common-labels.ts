import { ANNOTATION_PREFIX, FORCED_DOWNSCALE_LABEL, labelsProblems } from '../graph';

/**
 * Labels Stackwright sets itself on every object of a cloud: the pods' selectors, the inventory and
 * the graph read them, so a cloud's common `labels` must not overwrite them.
 */
const OWN_LABELS = [
  'app.kubernetes.io/name',
  'app.kubernetes.io/instance',
  'app.kubernetes.io/component',
  'app.kubernetes.io/part-of',
  'app.kubernetes.io/managed-by',
];

/** Why a label key is not the user's to set, or undefined when it is. */
function reservation(key: string): string | undefined {
  if (OWN_LABELS.includes(key))
    return 'Stackwright sets it on every object (selectors and the inventory read it)';
  if (key.startsWith(`${ANNOTATION_PREFIX}/`) || key.split('/')[0].endsWith(`.${ANNOTATION_PREFIX}`))
    return `the ${ANNOTATION_PREFIX} prefix belongs to Stackwright's manifest contract`;
  if (key === FORCED_DOWNSCALE_LABEL)
    return 'it is reserved by Yaook to downscale DaemonSets to zero and must never be set by hand';
  return undefined;
}

/**
 * Problems with a cloud's common `labels`: Kubernetes' label rules, then every key Stackwright or
 * Yaook reserves (named with why and the fix).
 */
export function commonLabelsProblems(labels: unknown, name: string): string[] {
  if (labels === undefined) return [];
  const shape = labelsProblems(labels, name);
  if (shape.length > 0) return shape;
  return Object.keys(labels as object).flatMap((key) => {
    const why = reservation(key);
    return why
      ? [
          `${name} must not set ${key}: ${why}; remove it or use a label key of your own (e.g. example.com/team)`,
        ]
      : [];
  });
}
