import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { KubeObject } from '../../../../lib/graph';
import { StuckCause } from '../../../../lib/runtime/ports';
import { clusterEvent, EVENT_RULES, explainEvent } from '../../../../lib/runtime/diagnose/events';

interface Fixture {
  readonly case: string;
  /** `none`: the file's rule does not recognise the event. */
  readonly expect:
    | 'none'
    | {
        readonly cause: StuckCause;
        readonly blocking: boolean;
        readonly ref: string;
        readonly message: string;
      };
  /** A core/v1 Event as the API server returns it. */
  readonly event: KubeObject;
}

const FIXTURES = path.join(__dirname, 'fixtures');

function loadFixtures(): [string, StuckCause, Fixture][] {
  return fs
    .readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((file) => {
      const cause = file.replace(/\.yaml$/, '') as StuckCause;
      return parseAllDocuments(fs.readFileSync(path.join(FIXTURES, file), 'utf8')).map(
        (doc): [string, StuckCause, Fixture] => {
          if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0].message}`);
          const fixture = doc.toJS() as Fixture;
          return [`${cause}: ${fixture.case}`, cause, fixture];
        },
      );
    });
}

const fixtures = loadFixtures();

describe('event rule fixtures', () => {
  test('every rule has a fixture file with a case it recognises and one it does not; every file has a rule', () => {
    // GIVEN
    const files = new Set(fixtures.map(([, cause]) => cause));

    // THEN
    expect([...files].sort()).toEqual(Object.keys(EVENT_RULES).sort());
    for (const cause of Object.keys(EVENT_RULES) as StuckCause[]) {
      const mine = fixtures.filter(([, c]) => c === cause).map(([, , f]) => f.expect);
      expect(mine.some((e) => e !== 'none')).toBe(true);
      expect(mine).toContain('none');
      expect(EVENT_RULES[cause].cause).toBe(cause);
    }
    // Both writers' shapes of an Event occur (core/v1 count + lastTimestamp, events.k8s.io series).
    expect(fixtures.some(([, , f]) => (f.event as { series?: unknown }).series !== undefined)).toBe(true);
  });

  test.each(fixtures)('%s', (_name, cause, fixture) => {
    // GIVEN
    const event = clusterEvent(fixture.event);
    const rule = EVENT_RULES[cause];

    // WHEN
    const found = rule.reasons.includes(event.reason) ? rule.explain(event) : undefined;

    // THEN
    if (fixture.expect === 'none') {
      expect(found).toBeUndefined();
      return;
    }
    expect(found).toEqual(fixture.expect);
    // No other rule claims it first.
    expect(explainEvent(event)).toEqual(fixture.expect);
  });
});

describe('clusterEvent', () => {
  test('reads the count and time of either writer', () => {
    // GIVEN
    const core = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'a', namespace: 'ns', creationTimestamp: '2025-01-01T00:00:00Z' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'ns', uid: 'u1' },
      type: 'Warning',
      reason: 'BackOff',
      message: ' Back-off ',
      count: 3,
      lastTimestamp: '2025-01-01T00:01:00Z',
    } as unknown as KubeObject;
    const series = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'b', namespace: 'ns' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'ns' },
      reason: 'FailedScheduling',
      message: 'x',
      eventTime: '2025-01-01T00:00:00.000000Z',
      series: { count: 9, lastObservedTime: '2025-01-01T00:02:00.000000Z' },
    } as unknown as KubeObject;

    // WHEN / THEN
    expect(clusterEvent(core)).toEqual({
      type: 'Warning',
      reason: 'BackOff',
      message: 'Back-off',
      involved: { kind: 'Pod', name: 'p', namespace: 'ns', uid: 'u1' },
      count: 3,
      lastSeen: Date.parse('2025-01-01T00:01:00Z'),
    });
    expect(clusterEvent(series)).toMatchObject({
      type: 'Normal',
      count: 9,
      lastSeen: Date.parse('2025-01-01T00:02:00Z'),
    });
  });
});
