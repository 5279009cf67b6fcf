import { ClusterEvent, involvedNamespace } from './cluster-event';
import { EventRule, EventWording, patternRule } from './event-rule';

const RESTARTING = /Back-off restarting failed container (\S+)/;

/** The kubelet backs off restarting a container that keeps exiting (`BackOff`). Blocking. */
export const crashLoop: EventRule = patternRule({
  cause: 'crash-loop',
  reasons: ['BackOff'],
  blocking: true,
  pattern: RESTARTING,
  word(event: ClusterEvent, restarting: RegExpExecArray): EventWording {
    const pod = event.involved.name;
    const namespace = involvedNamespace(event);
    return (
      `pod ${pod}: container ${restarting[1]} keeps crashing (the kubelet backed off restarting it ${event.count} time(s)); ` +
      `see kubectl logs -n ${namespace} ${pod} -c ${restarting[1]} --previous`
    );
  },
});
