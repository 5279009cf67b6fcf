import { shown } from '../../graph';
/** A Kubernetes resource quantity: a number and an optional binary, decimal or exponent suffix. */
const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

/** Problems with a resource quantity such as `10Gi`, `250m` or `1.5` (not `10 GB`). */
export function quantityProblems(value: unknown, what: string): string[] {
  if (typeof value === 'string' && QUANTITY.test(value) && !value.startsWith('-')) return [];
  return [
    `${what} ${shown(value)} is not a Kubernetes quantity; write a number with an optional suffix and no space, e.g. '10Gi', '512Mi', '250m'`,
  ];
}
