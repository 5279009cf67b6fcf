import { DagRunner } from '../../../lib/runtime/engine/dag-runner';
import { RunnerListener } from '../../../lib/runtime/engine/runner-listener';
import { UnitScheduler } from '../../../lib/runtime/engine/scheduler';
import { unitGraphOf } from '../../../lib/runtime/engine/unit-graph';
import { UnitAction, UnitContext } from '../../../lib/runtime/engine/unit-action';
import { ManualClock } from '../../../lib/testing';
import { component, configMap, testGraph } from '../support/manifests';

/** A unit that applies after `applyMs`, then is done after `doneMs` (or fails / never ends). */
class ScriptedAction implements UnitAction {
  constructor(
    private readonly script: {
      applyMs?: number;
      doneMs?: number;
      fails?: string;
      hangs?: boolean;
      throws?: boolean;
    },
  ) {}

  async start(context: UnitContext): Promise<void> {
    const { applyMs = 0, doneMs = 0 } = this.script;
    if (this.script.throws) throw new Error('boom');
    await context.clock.sleep(applyMs, context.signal).catch(() => undefined);
    context.applied();
    if (this.script.hangs) return;
    await context.clock.sleep(doneMs, context.signal).catch(() => undefined);
    if (this.script.fails !== undefined) context.fail(this.script.fails, 'object-failed');
    else context.done();
  }

  timedOut(ms: number): string {
    return `still waiting after ${ms} ms`;
  }

  stoppedWhile(): string {
    return ' while scripted';
  }
}

/** Records every listener call as `<event> <unit> @<ms since start>`. */
function recorder(clock: ManualClock) {
  const t0 = clock.now();
  const log: string[] = [];
  const listener: RunnerListener = {
    started: (name, at) => log.push(`started ${name} @${at - t0}`),
    applied: (name, at) => log.push(`applied ${name} @${at - t0}`),
    done: (name, at) => log.push(`done ${name} @${at - t0}`),
    failed: (name, at, reason, blocked) =>
      log.push(`failed ${name} @${at - t0}: ${reason}${blocked.map((b) => ` [blocks ${b.name}]`).join('')}`),
  };
  return { log, listener };
}

/** a <- b <- c (chain), d independent. */
const chain = () =>
  testGraph(
    component('a', {}, configMap('a')),
    component('b', { needs: { a: 'ready' } }, configMap('b')),
    component('c', { needs: { b: 'ready' } }, configMap('c')),
    component('d', {}, configMap('d')),
  );

function runner(
  scripts: Record<string, ConstructorParameters<typeof ScriptedAction>[0]>,
  settings: {
    concurrency?: number;
    unitTimeoutMs?: number;
    runTimeoutMs?: number;
    noProgressTimeoutMs?: number;
    signal?: AbortSignal;
  } = {},
) {
  const clock = new ManualClock();
  const { log, listener } = recorder(clock);
  const scheduler = new UnitScheduler(unitGraphOf(chain()), { concurrency: settings.concurrency ?? 8 });
  const actions = new Map(Object.entries(scripts).map(([n, s]) => [n, new ScriptedAction(s)]));
  const run = new DagRunner(scheduler, (name) => actions.get(name) ?? new ScriptedAction({}), listener, {
    clock,
    abortReason: 'interrupted',
    ...settings,
  });
  return { clock, log, run, scheduler };
}

const states = (scheduler: UnitScheduler) =>
  Object.fromEntries(scheduler.snapshot().map((c) => [c.name, c.state]));

describe('DagRunner', () => {
  test('starts each unit when its own dependencies are done, independent units at once', async () => {
    const { clock, log, run, scheduler } = runner({
      a: { doneMs: 10 },
      b: { doneMs: 10 },
      d: { doneMs: 25 },
    });
    await clock.runUntilSettled(run.execute());
    expect(log.filter((l) => l.startsWith('started'))).toEqual([
      'started a @0',
      'started d @0',
      'started b @10',
      'started c @20',
    ]);
    expect(run.outcome(true)).toBe('succeeded');
    expect(Object.values(states(scheduler)).every((s) => s === 'done')).toBe(true);
  });

  test('never runs more units than the concurrency allows', async () => {
    const { clock, log, run } = runner({ a: { doneMs: 10 }, d: { doneMs: 10 } }, { concurrency: 1 });
    await clock.runUntilSettled(run.execute());
    expect(log.filter((l) => !l.startsWith('applied'))).toEqual([
      'started a @0',
      'done a @10',
      'started b @10',
      'done b @10',
      'started c @10',
      'done c @10',
      'started d @10',
      'done d @20',
    ]);
    let running = 0;
    let most = 0;
    for (const line of log) {
      if (line.startsWith('started')) most = Math.max(most, ++running);
      if (line.startsWith('done') || line.startsWith('failed')) running--;
    }
    expect(most).toBe(1);
  });

  test('a failed unit blocks exactly its dependants; the rest still runs', async () => {
    const { clock, log, run, scheduler } = runner({ a: { doneMs: 5, fails: 'Job failed' } });
    await clock.runUntilSettled(run.execute());
    expect(log).toContain('failed a @5: Job failed [blocks b] [blocks c]');
    expect(states(scheduler)).toEqual({ a: 'failed', b: 'blocked', c: 'blocked', d: 'done' });
    expect(run.times.get('a')?.cause).toBe('object-failed');
    expect(run.outcome(false)).toBe('failed');
  });

  test("the unit time limit fails a unit with its action's own words and cause timeout", async () => {
    const { clock, log, run } = runner({ b: { hangs: true } }, { unitTimeoutMs: 1000 });
    await clock.runUntilSettled(run.execute());
    expect(log).toContain('failed b @1000: still waiting after 1000 ms [blocks c]');
    expect(run.times.get('b')?.cause).toBe('timeout');
  });

  test('the run time limit stops the run: running units fail, pending ones do not start', async () => {
    const { clock, log, run, scheduler } = runner({ a: { doneMs: 100 } }, { runTimeoutMs: 50 });
    await clock.runUntilSettled(run.execute());
    expect(log).toContain('failed a @50: run timed out after 50ms while scripted');
    expect(run.outcome(false)).toBe('timed-out');
    expect(states(scheduler)).toMatchObject({ a: 'failed', b: 'not-started', c: 'not-started' });
  });

  test('no progress for the limit stops the run, and any progress resets that clock', async () => {
    const { clock, run } = runner(
      { a: { applyMs: 40, doneMs: 40 }, d: { hangs: true } },
      { noProgressTimeoutMs: 60 },
    );
    await clock.runUntilSettled(run.execute());
    // a applied at 40 and was done at 80 (progress each time); d hung from 0: the run stops at 80 + 60.
    expect(run.stopped).toEqual({ outcome: 'no-progress', reason: 'no progress for 60ms' });
    expect(clock.now() - Date.UTC(2025, 0, 1)).toBe(140);
  });

  test('an abort fails running units with the abort reason and cause aborted', async () => {
    const controller = new AbortController();
    const { clock, log, run } = runner(
      { a: { doneMs: 100 }, d: { doneMs: 100 } },
      { signal: controller.signal },
    );
    const done = run.execute();
    await clock.advance(30);
    controller.abort();
    await clock.runUntilSettled(done);
    expect(log).toContain('failed a @30: interrupted while scripted');
    expect(run.times.get('d')?.cause).toBe('aborted');
    expect(run.outcome(false)).toBe('aborted');
  });

  test('an action that throws fails the running units as internal instead of hanging the run', async () => {
    const { clock, run, scheduler } = runner({ a: { throws: true } });
    await clock.runUntilSettled(run.execute());
    expect(scheduler.state('a')).toBe('failed');
    expect(run.times.get('a')?.cause).toBe('internal');
  });
});
