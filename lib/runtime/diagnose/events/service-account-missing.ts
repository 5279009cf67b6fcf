import { Finding } from '../finding';
import { ClusterEvent, involvedName, involvedRef } from './cluster-event';
import { EventRule } from './event-rule';

const NOT_FOUND = /serviceaccount "([^"]+)" not found/;

/** The pods name a ServiceAccount that does not exist, so the controller cannot create them. */
export const serviceAccountMissing: EventRule = {
  cause: 'service-account-missing',
  reasons: ['FailedCreate'],
  explain(event: ClusterEvent): Finding | undefined {
    const missing = NOT_FOUND.exec(event.message);
    if (!missing) return undefined;
    const namespace = event.involved.namespace ?? 'default';
    return {
      cause: 'service-account-missing',
      ref: involvedRef(event),
      message:
        `the pods of ${involvedName(event)} use ServiceAccount ${missing[1]}, which does not exist in namespace ${namespace}; ` +
        `fix: create it (kubectl -n ${namespace} create serviceaccount ${missing[1]}), or make the component depend on the one that creates it`,
      blocking: true,
    };
  },
};
