import { StuckCause } from '../../ports';
import { Finding } from '../finding';
import { ClusterEvent, involvedRef } from './cluster-event';

/**
 * One pure rule: recognises the Events of one stuck cause and says what is wrong and the fix.
 * Registered in `EVENT_RULES` (`event-rules.ts`); each has a fixture file in
 * `test/runtime/diagnose/events/fixtures/<cause>.yaml`. Written with {@link eventRule}.
 */
export interface EventRule {
  readonly cause: StuckCause;
  /** The Event reasons it looks at, e.g. `FailedCreate`. */
  readonly reasons: readonly string[];
  /** The finding, or undefined when this event is not of its cause. */
  explain(event: ClusterEvent): Finding | undefined;
}

/** What a rule says of an event of its cause: the message, with `blocking` when it differs from the rule's. */
export type EventWording = string | { readonly message: string; readonly blocking: boolean };

/** How a rule is written: its cause, the reasons it reads, and the words for a matching event. */
export interface EventRuleSpec {
  readonly cause: StuckCause;
  readonly reasons: readonly string[];
  /**
   * True when the cause will not go away without a change by a person (a quota, a denied
   * admission), false when it may heal by itself (see `Finding.blocking`).
   */
  readonly blocking: boolean;
  /** What is wrong and the fix, or undefined when the event is not of this cause. */
  word(event: ClusterEvent): EventWording | undefined;
}

/** A rule from its spec: the finding carries the rule's cause and the event's object. */
export function eventRule(spec: EventRuleSpec): EventRule {
  return {
    cause: spec.cause,
    reasons: spec.reasons,
    explain(event: ClusterEvent): Finding | undefined {
      const wording = spec.word(event);
      if (wording === undefined) return undefined;
      const { message, blocking } =
        typeof wording === 'string' ? { message: wording, blocking: spec.blocking } : wording;
      return { cause: spec.cause, ref: involvedRef(event), message, blocking };
    },
  };
}

/** A rule whose events are those whose message matches `pattern`; `word` gets the match. */
export function patternRule(
  spec: Omit<EventRuleSpec, 'word'> & {
    readonly pattern: RegExp;
    word(event: ClusterEvent, match: RegExpExecArray): EventWording;
  },
): EventRule {
  return eventRule({
    ...spec,
    word(event) {
      const match = spec.pattern.exec(event.message);
      return match ? spec.word(event, match) : undefined;
    },
  });
}
