import { ClusterEvent, involvedName, involvedNamespace } from './cluster-event';
import { EventRule, EventWording, patternRule } from './event-rule';

// `violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (…), runAsNonRoot != true (…)`
const VIOLATES = /violates PodSecurity "([^":]+)(?::([^"]+))?":\s*(.*)$/;

/**
 * The namespace's Pod Security admission level (`pod-security.kubernetes.io/enforce`) forbids the
 * pods a controller tried to create: names the level and each violated check.
 */
export const podSecurity: EventRule = patternRule({
  cause: 'pod-security',
  reasons: ['FailedCreate'],
  blocking: true,
  pattern: VIOLATES,
  word(event: ClusterEvent, violation: RegExpExecArray): EventWording {
    const [, level, version, details] = violation;
    const namespace = involvedNamespace(event);
    return (
      `namespace ${namespace} enforces Pod Security level "${level}"${version ? ` (${version})` : ''} and the pods of ${involvedName(event)} violate it: ${details}; ` +
      `fix: set those securityContext fields in the pod template, or relax the namespace (kubectl label namespace ${namespace} pod-security.kubernetes.io/enforce=<level> --overwrite)`
    );
  },
});
