import { stripAnsi, style } from '../../lib/cli/render/ansi';
import { formatRunEvent } from '../../lib/cli/render/line-view';
import { ProgressModel } from '../../lib/cli/render/progress-model';
import { renderFrame } from '../../lib/cli/render/tty-view';
import { nextSteps } from '../../lib/cli/render/hints';
import { renderRunSummary } from '../../lib/cli/render/summary';
import { exitCodeFor } from '../../lib/cli/commands/cluster-command';
import { ExitCode } from '../../lib/cli/exit-codes';
import { RunEvent } from '../../lib/runtime/events';
import {
  COMPONENT_STATES,
  countStates,
  DELETION_STATES,
  DeletionResult,
  FailureCause,
  RolloutResult,
} from '../../lib/runtime/result';
import { component, deployment, testGraph, job, namespace } from '../runtime/support/manifests';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const at = (ms: number) => new Date(T0 + ms).toISOString();

const graph = testGraph(
  [namespace()],
  component('mariadb', { service: 'infra' }, deployment('mariadb')),
  component('memcached', { service: 'infra' }, deployment('memcached')),
  component(
    'keystone-db-sync',
    { service: 'keystone', needs: { mariadb: 'ready' } },
    job('keystone-db-sync'),
  ),
  component(
    'keystone-api',
    { service: 'keystone', needs: { 'keystone-db-sync': 'completed', memcached: 'ready' } },
    deployment('keystone-api'),
  ),
  component(
    'glance-api',
    { service: 'glance', needs: { 'keystone-api': 'ready' } },
    deployment('glance-api'),
  ),
  component('nova-api', { service: 'nova', needs: { mariadb: 'ready' } }, deployment('nova-api')),
);

/** A recorded run, mid-way: infra verified, db-sync failed with a diagnosis, nova-api still verifying. */
const EVENTS: RunEvent[] = [
  {
    type: 'run-started',
    at: at(0),
    mode: 'deploy',
    units: graph.components.map((c) => c.name),
    bootstrapObjects: 1,
  },
  { type: 'unit-started', at: at(100), unit: 'mariadb' },
  { type: 'unit-started', at: at(100), unit: 'memcached' },
  { type: 'unit-done', at: at(1100), unit: 'memcached', durationMs: 1000 },
  { type: 'unit-done', at: at(2100), unit: 'mariadb', durationMs: 2000 },
  { type: 'unit-started', at: at(2100), unit: 'keystone-db-sync' },
  { type: 'unit-started', at: at(2100), unit: 'nova-api' },
  {
    type: 'object-status',
    at: at(2200),
    unit: 'nova-api',
    ref: 'Deployment/openstack/nova-api',
    status: 'InProgress',
    message: '0/1 replicas available',
  },
  {
    type: 'unit-failed',
    at: at(5100),
    unit: 'keystone-db-sync',
    reason: 'Job/openstack/keystone-db-sync: failed: BackoffLimitExceeded',
    diagnosis: ['pod keystone-db-sync-x exited with code 1'],
  },
  {
    type: 'unit-blocked',
    at: at(5100),
    unit: 'keystone-api',
    blockedBy: 'keystone-db-sync',
    reason: 'dependency keystone-db-sync failed',
  },
  {
    type: 'unit-blocked',
    at: at(5100),
    unit: 'glance-api',
    blockedBy: 'keystone-db-sync',
    reason: 'dependency keystone-db-sync failed',
  },
];

function modelAfter(events: readonly RunEvent[]): ProgressModel {
  const model = ProgressModel.forGraph(graph);
  for (const e of events) model.onEvent(e);
  return model;
}

const frame = (model: ProgressModel, height = 40) =>
  renderFrame(model, {
    title: 'stackwright deploy dist → e2e',
    now: T0 + 6000,
    width: 120,
    height,
    spinner: 0,
    style: style(false),
  });

describe('the live view', () => {
  test('groups components by service in dependency order with state, duration and reason', () => {
    // WHEN
    const lines = frame(modelAfter(EVENTS)).map((l) => l.trimEnd());

    // THEN
    expect(lines).toEqual([
      'stackwright deploy dist → e2e',
      '  ✓ bootstrap        verified       0.1s',
      'infra',
      '  ✓ mariadb          verified       2.0s',
      '  ✓ memcached        verified       1.0s',
      'keystone',
      '  ✗ keystone-db-sync failed         3.0s  Job/openstack/keystone-db-sync: failed: BackoffLimitExceeded',
      '      ↳ pod keystone-db-sync-x exited with code 1',
      '  ⊘ keystone-api     blocked              by keystone-db-sync',
      'nova',
      '  ⠋ nova-api         applying       3.9s  Deployment/openstack/nova-api InProgress: 0/1 replicas available',
      'glance',
      '  ⊘ glance-api       blocked              by keystone-db-sync',
      '3 done · 1 failed · 2 blocked · 1 running · 0 pending · 6.0s',
    ]);
  });

  test('folds finished services and then lists only what needs attention when the terminal is short', () => {
    // GIVEN a terminal of 10 rows
    const folded = frame(modelAfter(EVENTS), 12);
    const tiny = frame(modelAfter(EVENTS), 6);

    // THEN the infra group is one line; in the tiny one, only running/failed/blocked rows remain
    expect(folded).toContain('✓ infra (2 verified)');
    expect(folded.length).toBeLessThanOrEqual(12);
    expect(tiny.length).toBeLessThanOrEqual(6);
    expect(tiny.some((l) => l.includes('keystone-db-sync'))).toBe(true);
    expect(tiny.some((l) => l.includes('mariadb'))).toBe(false);
  });

  test('never draws a line wider than the terminal', () => {
    const lines = renderFrame(modelAfter(EVENTS), {
      title: 't',
      now: T0,
      width: 40,
      height: 40,
      spinner: 3,
      style: style(true),
    });
    expect(lines.every((l) => stripAnsi(l).length <= 40)).toBe(true);
  });
});

describe('one line per event', () => {
  test('stamps lines relative to the start and prints the diagnosis under a failure', () => {
    // WHEN
    const lines = EVENTS.flatMap((e) => formatRunEvent(e, T0, 'deploy', style(false)));

    // THEN
    expect(lines[0]).toBe('[   0.0s] deploying 6 components (1 bootstrap objects)');
    expect(lines).toContain('[   2.1s] verified  mariadb (2.0s)');
    expect(lines).toContain(
      '[   5.1s] FAILED    keystone-db-sync: Job/openstack/keystone-db-sync: failed: BackoffLimitExceeded',
    );
    expect(lines).toContain('                    ↳ pod keystone-db-sync-x exited with code 1');
    expect(lines).toContain('[   5.1s] blocked   glance-api: blocked by keystone-db-sync');
  });
});

describe('a lost API server', () => {
  test('is said in one line when lost and when back, and in the live view while it is away', () => {
    // GIVEN
    const lost: RunEvent = {
      type: 'api-lost',
      at: at(12_300),
      reason: 'connect ECONNREFUSED 127.0.0.1:16443',
      waitingUntil: at(132_300),
    };
    const back: RunEvent = { type: 'api-restored', at: at(40_000), lostForMs: 27_700 };
    const model = ProgressModel.forGraph(graph);
    model.onEvent({
      type: 'run-started',
      at: at(0),
      mode: 'deploy',
      units: [],
      bootstrapObjects: 0,
    });
    model.onEvent(lost);

    // WHEN
    const lines = [lost, back].flatMap((e) => formatRunEvent(e, T0, 'deploy', style(false)));
    const frame = renderFrame(model, {
      title: 't',
      width: 200,
      height: 40,
      now: T0 + 22_300,
      spinner: 0,
      style: style(false),
    });

    // THEN
    expect(lines).toEqual([
      '[  12.3s] API LOST  the API server does not answer (connect ECONNREFUSED 127.0.0.1:16443); waiting up to 2m 00s for it, component timers paused',
      '[  40.0s] API back  after 27.7s; resuming where the run was',
    ]);
    expect(frame[frame.length - 1]).toContain(
      'API server lost (connect ECONNREFUSED 127.0.0.1:16443); waiting 1m 50s more, timers paused',
    );
    model.onEvent(back);
    expect(model.apiLost).toBeUndefined();
  });
});

describe('the summary', () => {
  test('names every failure with its diagnosis, every blocked component with its cause, what to do next, and the cost', () => {
    // GIVEN a result
    const components = [
      { name: 'mariadb', state: 'verified' },
      {
        name: 'keystone-db-sync',
        state: 'failed',
        reason: 'Job failed',
        cause: 'object-failed',
        diagnosis: ['exit code 1'],
      },
      { name: 'keystone-api', state: 'blocked', cause: 'blocked', blockedBy: 'keystone-db-sync' },
      { name: 'nova-api', state: 'not-started', reason: 'rollout aborted' },
    ].map((c) => ({
      service: 's',
      constructPath: 'p',
      durations: {},
      objects: [],
      ...c,
    })) as RolloutResult['components'];
    const result: RolloutResult = {
      mode: 'deploy',
      outcome: 'aborted',
      ok: false,
      startedAt: at(0),
      finishedAt: at(9000),
      durationMs: 9000,
      bootstrap: { state: 'verified', objects: [] },
      components,
      counts: countStates(components, COMPONENT_STATES),
    };

    // WHEN
    const lines = renderRunSummary(
      result,
      { skippedUnchanged: 3, requests: { total: 20, writes: 5, byVerb: {} as never } },
      style(false),
    );

    // THEN
    expect(lines).toEqual([
      '✗ Deploy aborted after 9.0s: 1 verified, 1 failed, 1 blocked, 1 not started',
      '  ✗ keystone-db-sync: Job failed',
      '      ↳ exit code 1',
      '  ⊘ keystone-api: blocked by keystone-db-sync',
      '  - not started (rollout aborted): nova-api',
      '  → a workload or Job failed (see the diagnosis): `kubectl logs` / `kubectl describe` the pods it names, fix, and re-run',
      '  → blocked components start once the failure they wait for is fixed and the command is run again',
      '  3 unchanged objects not written, 20 API requests (5 writes)',
    ]);
  });
});

describe('next steps', () => {
  const failedWith = (mode: RolloutResult['mode'], ...causes: FailureCause[]): RolloutResult =>
    ({
      mode,
      outcome: 'failed',
      ok: false,
      bootstrap: { state: 'verified', objects: [] },
      components: causes.map((cause, i) => ({ name: `c${i}`, state: 'failed', cause })),
    }) as unknown as RolloutResult;

  test('one hint per distinct cause, in the order they first appear', () => {
    const steps = nextSteps(failedWith('deploy', 'timeout', 'conflict', 'timeout'));
    expect(steps).toHaveLength(2);
    expect(steps[0]).toContain('--component-timeout');
    expect(steps[1]).toContain('--force-conflicts');
  });

  test('verify never suggests a flag only deploy has', () => {
    const steps = nextSteps(failedWith('verify', 'timeout', 'conflict', 'aborted'));
    expect(steps.join('\n')).not.toContain('--component-timeout');
    expect(steps[0]).toContain('--wait');
    expect(steps[2]).toBe('the run was stopped: run verify again');
  });

  test('a successful run has none', () => {
    expect(nextSteps(failedWith('deploy'))).toEqual([]);
  });
});

describe('a destroy, folded and printed by the same code as a deploy', () => {
  const events: RunEvent[] = [
    {
      type: 'run-started',
      at: at(0),
      mode: 'destroy',
      units: ['glance-api', 'keystone-api', 'bootstrap'],
      bootstrapObjects: 0,
    },
    { type: 'unit-started', at: at(100), unit: 'glance-api' },
    { type: 'object-deleted', at: at(150), unit: 'glance-api', ref: 'Deployment/openstack/glance-api' },
    { type: 'unit-done', at: at(1100), unit: 'glance-api', durationMs: 1000 },
    { type: 'unit-started', at: at(1100), unit: 'keystone-api' },
    { type: 'unit-failed', at: at(1200), unit: 'keystone-api', reason: 'forbidden' },
    {
      type: 'unit-blocked',
      at: at(1200),
      unit: 'bootstrap',
      blockedBy: 'keystone-api',
      reason: 'blocked by keystone-api, which failed: forbidden',
    },
  ];

  test('rows say deleted and kept, lines say deleting, deleted and kept', () => {
    // GIVEN
    const model = ProgressModel.forUnits(['glance-api', 'keystone-api', 'bootstrap']);

    // WHEN
    for (const e of events) model.onEvent(e);
    const lines = events.flatMap((e) => formatRunEvent(e, T0, 'destroy', style(false)));

    // THEN
    expect([...model.rows.values()].map((r) => [r.name, r.state, r.phase, r.detail])).toEqual([
      ['glance-api', 'done', 'deleted', undefined],
      ['keystone-api', 'failed', 'failed', 'forbidden'],
      ['bootstrap', 'blocked', 'kept', 'blocked by keystone-api, which failed: forbidden'],
    ]);
    expect(lines).toEqual([
      '[   0.0s] deleting 3 units in reverse dependency order',
      '[   0.1s] deleting  glance-api',
      '[   0.1s] deleted   glance-api Deployment/openstack/glance-api (waiting until gone)',
      '[   1.1s] deleted   glance-api (1.0s)',
      '[   1.1s] deleting  keystone-api',
      '[   1.2s] FAILED    keystone-api: forbidden',
      '[   1.2s] kept      bootstrap: blocked by keystone-api, which failed: forbidden',
    ]);
  });
});

describe('next steps after a destroy or prune', () => {
  const deletion = (...causes: FailureCause[]): DeletionResult => ({
    mode: 'destroy',
    ok: causes.length === 0,
    outcome: causes.length === 0 ? 'succeeded' : 'failed',
    units: causes.map((cause, i) => ({
      name: `u${i}`,
      state: cause === 'blocked' ? 'blocked' : 'failed',
      reason: `reason ${i}`,
      cause,
      objects: [],
    })),
    counts: { deleted: 0, failed: causes.length, blocked: 0, 'not-started': 0 },
    startedAt: at(0),
    finishedAt: at(1000),
    durationMs: 1000,
  });

  test('a failed destroy ends with what to do about each cause, in destroy terms', () => {
    // GIVEN a unit held by a finalizer, a refused deletion and the unit kept behind them
    const result = deletion('timeout', 'apply-rejected', 'blocked', 'timeout');

    // WHEN
    const lines = renderRunSummary(result, {}, style(false));

    // THEN one hint per distinct cause, after the units
    expect(lines.slice(-3)).toEqual([
      "  → an object was still there at the limit, usually held by a finalizer (`kubectl get <object> -o jsonpath='{.metadata.finalizers}'` names it): let its controller finish, or remove the finalizer if that controller is gone, then run destroy again (or allow longer with --component-timeout)",
      '  → the API server refused a deletion (the reason quotes it): check that you may delete it (`kubectl auth can-i delete <kind> -n <namespace>`), then run destroy again',
      '  → kept units are deleted once the unit they wait for is gone: fix its failure and run destroy again',
    ]);
  });

  test('a prune is run again through deploy, and never suggests a rollout fix', () => {
    // WHEN
    const steps = nextSteps({
      ...deletion('timeout', 'aborted', 'cluster-unreachable', 'apply-rejected'),
      mode: 'prune',
    });

    // THEN
    expect(steps).toHaveLength(4);
    for (const step of steps) expect(step).toContain('run deploy --prune again');
    const all = steps.join('\n');
    expect(all).not.toContain('--component-timeout');
    expect(all).not.toContain('synthesise again');
    expect(all).not.toContain('verified components are skipped');
  });

  test('a successful destroy has none', () => {
    expect(renderRunSummary(deletion(), {}, style(false))).toHaveLength(1);
  });
});

describe('a destroy summarised and judged by the same code as a deploy', () => {
  const units: DeletionResult['units'] = [
    { name: 'glance-api', state: 'deleted', objects: ['Deployment/openstack/glance-api'] },
    { name: 'keystone-api', state: 'failed', reason: 'forbidden', cause: 'apply-rejected', objects: [] },
    {
      name: 'bootstrap',
      state: 'blocked',
      reason: 'blocked by keystone-api, which failed: forbidden',
      cause: 'blocked',
      blockedBy: 'keystone-api',
      objects: [],
    },
    { name: 'memcached', state: 'not-started', reason: 'run aborted', cause: 'aborted', objects: [] },
  ];
  const destroy = (outcome: DeletionResult['outcome']): DeletionResult => ({
    mode: 'destroy',
    ok: false,
    outcome,
    startedAt: at(0),
    finishedAt: at(4000),
    durationMs: 4000,
    units,
    counts: countStates(units, DELETION_STATES),
  });

  test('every unit that was not deleted is named, in deletion words, with one next step per cause', () => {
    // WHEN
    const lines = renderRunSummary(destroy('aborted'), {}, style(false));

    // THEN
    expect(lines.slice(0, 4)).toEqual([
      '✗ Destroy aborted after 4.0s: 1 deleted, 1 failed, 1 kept, 1 not started',
      '  ✗ keystone-api: forbidden',
      '  ⊘ bootstrap: kept, blocked by keystone-api',
      '  - not started (run aborted): memcached',
    ]);
    expect(lines.slice(4)).toHaveLength(3);
    for (const line of lines.slice(4)) expect(line).toContain('run destroy again');
  });

  test('its exit code comes from the same rule as a rollout’s', () => {
    expect(exitCodeFor(destroy('aborted'))).toBe(ExitCode.INTERRUPTED);
    expect(exitCodeFor(destroy('unreachable'))).toBe(ExitCode.UNREACHABLE);
    expect(exitCodeFor(destroy('failed'))).toBe(ExitCode.FAILED);
    expect(exitCodeFor({ ...destroy('succeeded'), ok: true })).toBe(ExitCode.OK);
  });
});
