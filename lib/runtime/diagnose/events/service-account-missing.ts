import { ClusterEvent, involvedName, involvedNamespace } from './cluster-event';
import { EventRule, EventWording, patternRule } from './event-rule';

const NOT_FOUND = /serviceaccount "([^"]+)" not found/;

/** The pods name a ServiceAccount that does not exist, so the controller cannot create them. */
export const serviceAccountMissing: EventRule = patternRule({
  cause: 'service-account-missing',
  reasons: ['FailedCreate'],
  blocking: true,
  pattern: NOT_FOUND,
  word(event: ClusterEvent, missing: RegExpExecArray): EventWording {
    const namespace = involvedNamespace(event);
    return (
      `the pods of ${involvedName(event)} use ServiceAccount ${missing[1]}, which does not exist in namespace ${namespace}; ` +
      `fix: create it (kubectl -n ${namespace} create serviceaccount ${missing[1]}), or make the component depend on the one that creates it`
    );
  },
});
