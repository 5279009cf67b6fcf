import { shown } from './shown';
/** Kubernetes DNS-1123 label: what Service, Deployment and Pod names must satisfy. */
const DNS_1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** DNS-1123 subdomain: dot-separated labels (Secret, ConfigMap and StorageClass names, label prefixes). */
const DNS_1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * Problems with `name` as a DNS-1123 label (empty when valid), phrased with the fix.
 * `maxLength` is below 63 where names are derived from it (`<service>-<component>`, StatefulSet
 * pods `<name>-<i>` and their `controller-revision-hash` label, CronJob Jobs).
 */
export function dnsLabelProblems(name: unknown, what: string, maxLength = 63): string[] {
  if (typeof name !== 'string') return [`${what} must be a string, got ${shown(name)}`];
  const problems: string[] = [];
  if (!DNS_1123_LABEL.test(name)) {
    problems.push(
      `${what} ${shown(name)} is not a valid DNS-1123 label: use lower-case letters, digits and '-', starting and ending with a letter or digit`,
    );
  }
  if (name.length > maxLength) {
    problems.push(`${what} "${name}" is ${name.length} characters long; shorten it to at most ${maxLength}`);
  }
  return problems;
}

/** Problems with `name` as a DNS-1123 subdomain (Secret, ConfigMap and StorageClass names). */
export function dnsSubdomainProblems(name: unknown, what: string): string[] {
  if (typeof name !== 'string') return [`${what} must be a string, got ${shown(name)}`];
  if (DNS_1123_SUBDOMAIN.test(name) && name.length <= 253) return [];
  return [
    `${what} ${shown(name)} is not a valid DNS-1123 subdomain: at most 253 lower-case letters, digits, '-' and '.', starting and ending with a letter or digit`,
  ];
}
