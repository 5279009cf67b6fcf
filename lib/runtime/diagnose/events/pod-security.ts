import { Finding } from '../finding';
import { ClusterEvent, involvedName, involvedRef } from './cluster-event';
import { EventRule } from './event-rule';

// `violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (…), runAsNonRoot != true (…)`
const VIOLATES = /violates PodSecurity "([^":]+)(?::([^"]+))?":\s*(.*)$/;

/**
 * The namespace's Pod Security admission level (`pod-security.kubernetes.io/enforce`) forbids the
 * pods a controller tried to create: names the level and each violated check.
 */
export const podSecurity: EventRule = {
  cause: 'pod-security',
  reasons: ['FailedCreate'],
  explain(event: ClusterEvent): Finding | undefined {
    const violation = VIOLATES.exec(event.message);
    if (!violation) return undefined;
    const [, level, version, details] = violation;
    const namespace = event.involved.namespace ?? 'default';
    return {
      cause: 'pod-security',
      ref: involvedRef(event),
      message:
        `namespace ${namespace} enforces Pod Security level "${level}"${version ? ` (${version})` : ''} and the pods of ${involvedName(event)} violate it: ${details}; ` +
        `fix: set those securityContext fields in the pod template, or relax the namespace (kubectl label namespace ${namespace} pod-security.kubernetes.io/enforce=<level> --overwrite)`,
      blocking: true,
    };
  },
};
