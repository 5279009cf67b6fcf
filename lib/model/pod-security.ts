/**
 * The Pod Security Admission level a namespace of the cloud enforces: `restricted` for the control
 * plane (APIs, workers, databases, Jobs), `privileged` for the node agents that manage the host
 * (hypervisor, virtual switch) and cannot run otherwise.
 */
export type PodSecurityLevel = 'restricted' | 'privileged';

/**
 * The labels that make the API server's Pod Security admission enforce `level` on a namespace, and
 * warn and audit at the same level (a warning reaches the deployer on apply, an audit annotation the
 * audit log). The version is `latest`: the profile follows the cluster's Kubernetes release, so an
 * upgrade that tightens `restricted` is seen at once rather than hidden behind a pinned version.
 */
export function podSecurityLabels(level: PodSecurityLevel): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const mode of ['enforce', 'warn', 'audit']) {
    labels[`pod-security.kubernetes.io/${mode}`] = level;
    labels[`pod-security.kubernetes.io/${mode}-version`] = 'latest';
  }
  return labels;
}
