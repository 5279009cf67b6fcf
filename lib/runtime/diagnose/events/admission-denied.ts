import { ClusterEvent, involvedName } from './cluster-event';
import { EventRule, eventRule, EventWording } from './event-rule';

const DENIED = /admission webhook "([^"]+)" denied the request:?\s*(.*)$/;
const UNREACHABLE = /failed calling webhook "([^"]+)":?\s*(.*)$/;

/**
 * An admission webhook refused the pods a controller tried to create: it denied them (a policy
 * answer, blocking), or could not be called (the webhook's service is down: may heal).
 */
export const admissionDenied: EventRule = eventRule({
  cause: 'admission-denied',
  reasons: ['FailedCreate'],
  blocking: true,
  word(event: ClusterEvent): EventWording | undefined {
    const denied = DENIED.exec(event.message);
    if (denied) {
      const [, webhook, why] = denied;
      return (
        `admission webhook ${webhook} denied the pods of ${involvedName(event)}${why ? `: ${why}` : ''}; ` +
        `fix: change the pod template to satisfy its policy, or ask its owner (kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations)`
      );
    }
    const unreachable = UNREACHABLE.exec(event.message);
    if (unreachable) {
      const [, webhook, why] = unreachable;
      return {
        message:
          `admission webhook ${webhook} could not be called for the pods of ${involvedName(event)}${why ? `: ${why}` : ''}; ` +
          `fix: check the webhook's service and pods (its failurePolicy makes pod creation fail while it is down)`,
        blocking: false,
      };
    }
    return undefined;
  },
});
