/** Kubernetes DNS-1123 label: what Service, Deployment and Pod names must satisfy. */
const DNS_1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Problems with `name` as a DNS-1123 label (empty when valid), phrased with the fix.
 * `maxLength` is below 63 where Kubernetes appends suffixes (StatefulSet pods, CronJob Jobs).
 */
export function dnsLabelProblems(name: string, what: string, maxLength = 63): string[] {
  const problems: string[] = [];
  if (!DNS_1123_LABEL.test(name)) {
    problems.push(
      `${what} "${name}" is not a valid DNS-1123 label: use lower-case letters, digits and '-', starting and ending with a letter or digit`,
    );
  }
  if (name.length > maxLength) {
    problems.push(`${what} "${name}" is ${name.length} characters long; shorten it to at most ${maxLength}`);
  }
  return problems;
}
