import { RequestLine, summariseLoad, unitWindows } from './load-report';

const at = (s: number) => new Date(s * 1000).toISOString();
const request = (t: number, ok = true, ms = 10): RequestLine => ({
  t,
  op: 'token-issue',
  status: ok ? 201 : 0,
  ok,
  ms,
});

describe('the upgrade suite’s load report', () => {
  // GIVEN a deploy whose keystone-expand ran 100–110 s and whose keystone-api rolled 110–130 s
  const output = [
    'not json',
    JSON.stringify({
      type: 'upgrade',
      phases: [
        'upgrade real: 2024.2 -> 2025.1',
        '  keystone-roll: roll keystone-api (after keystone-expand)',
      ],
    }),
    JSON.stringify({ type: 'unit-started', unit: 'keystone-expand', at: at(100) }),
    JSON.stringify({ type: 'unit-done', unit: 'keystone-expand', at: at(110) }),
    JSON.stringify({ type: 'unit-started', unit: 'keystone-api', at: at(110) }),
    JSON.stringify({ type: 'unit-applied', unit: 'keystone-api', at: at(112) }),
    JSON.stringify({ type: 'unit-done', unit: 'keystone-api', at: at(130) }),
    JSON.stringify({ type: 'unit-started', unit: 'keystone-roll', at: at(130) }),
    JSON.stringify({ type: 'unit-done', unit: 'keystone-roll', at: at(130) }),
    JSON.stringify({ type: 'unit-started', unit: 'nova-roll-2', at: at(140) }),
    JSON.stringify({ type: 'unit-done', unit: 'nova-roll-2', at: at(150) }),
    JSON.stringify({ type: 'summary', ok: true }),
  ].join('\n');

  test('reads each unit’s window from the --json events', () => {
    expect(unitWindows(output)).toEqual([
      { unit: 'keystone-expand', startedAt: 100, appliedAt: 100, doneAt: 110 },
      { unit: 'keystone-api', phase: 'roll', startedAt: 110, appliedAt: 112, doneAt: 130 },
      { unit: 'keystone-roll', startedAt: 130, appliedAt: 130, doneAt: 130 },
      { unit: 'nova-roll-2', startedAt: 140, appliedAt: 140, doneAt: 150 },
    ]);
  });

  test('counts requests and failures per phase, the percentiles, and what was served while pods were mixed', () => {
    // GIVEN requests at 95–150 s, one failing at 105 s (during the expand), slow ones at 120 s
    const requests = [
      request(95),
      request(105, false, 10000),
      request(108),
      request(115),
      request(120, true, 900),
      request(125),
      request(145),
    ];
    // WHEN
    const report = summariseLoad(requests, unitWindows(output));
    // THEN
    expect(report.total).toMatchObject({ requests: 7, failed: 1, p50ms: 10 });
    expect(report.total.p99ms).toBe(10000);
    expect(report.phases.expand).toMatchObject({ requests: 2, failed: 1 });
    expect(report.phases.roll).toMatchObject({ requests: 4, failed: 0 });
    expect(report.failures.map((f) => f.t)).toEqual([105]);
    expect(report.servedWhileRolling).toEqual({ 'keystone-api': 3 });
  });
});
