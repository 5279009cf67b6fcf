import { dnsSubdomainProblems } from './dns-name';
import { shown } from './shown';

/** A label name, a label value (when not empty), and the name part of a label key. */
const LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** Problems with a label (or annotation) key: an optional DNS-subdomain prefix and `/`, then a name of at most 63 characters. */
export function labelKeyProblems(key: string, what = 'label key'): string[] {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const valid =
    (prefix === undefined || dnsSubdomainProblems(prefix, '').length === 0) &&
    LABEL_NAME.test(name) &&
    name.length <= 63;
  return valid
    ? []
    : [
        `${shown(key)} is not a valid ${what}: an optional DNS prefix and '/', then at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric`,
      ];
}

/** Problems with a label value: empty, or at most 63 letters, digits, `-`, `_`, `.`, alphanumeric at both ends. */
export function labelValueProblems(value: unknown, key: string): string[] {
  if (typeof value !== 'string') return [`label ${key} must have a string value, got ${shown(value)}`];
  if (value === '' || (LABEL_NAME.test(value) && value.length <= 63)) return [];
  return [
    `label value ${shown(value)} of ${key} is not valid: at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric`,
  ];
}

/** Problems with a set of labels (node selector, common labels), each prefixed with `what`. */
export function labelsProblems(labels: unknown, what: string): string[] {
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels))
    return [`${what} must be an object of label: value, got ${shown(labels)}`];
  return Object.entries(labels).flatMap(([key, value]) =>
    [...labelKeyProblems(key), ...labelValueProblems(value, key)].map((p) => `${what}: ${p}`),
  );
}
