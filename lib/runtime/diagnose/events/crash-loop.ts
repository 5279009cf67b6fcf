import { Finding } from '../finding';
import { ClusterEvent, involvedRef } from './cluster-event';
import { EventRule } from './event-rule';

const RESTARTING = /Back-off restarting failed container (\S+)/;

/** The kubelet backs off restarting a container that keeps exiting (`BackOff`). Blocking. */
export const crashLoop: EventRule = {
  cause: 'crash-loop',
  reasons: ['BackOff'],
  explain(event: ClusterEvent): Finding | undefined {
    const restarting = RESTARTING.exec(event.message);
    if (!restarting) return undefined;
    const pod = event.involved.name;
    const namespace = event.involved.namespace ?? 'default';
    return {
      cause: 'crash-loop',
      ref: involvedRef(event),
      message:
        `pod ${pod}: container ${restarting[1]} keeps crashing (the kubelet backed off restarting it ${event.count} time(s)); ` +
        `see kubectl logs -n ${namespace} ${pod} -c ${restarting[1]} --previous`,
      blocking: true,
    };
  },
};
