import { isEndState, UnitScheduler } from './scheduler';
import { UnitOutcome } from './unit-outcome';
import { ApiAvailabilitySource, ApiState } from '../ports';
import { FailureCause, RunOutcome } from '../result';
import { Clock } from '../timing/clock';
import { PausableTimers } from '../timing/pausable-timers';
import { startTimer } from '../timing/timer';
import { ChangeSignal } from './change-signal';
import { errorMessage } from '../error-message';
import { formatMs } from '../timing/format-ms';
import { RunnerListener } from './runner-listener';
import { UnitTimesBook } from './unit-times';
import { UnitAction, UnitContext } from './unit-action';

/** Settings of one `DagRunner.execute`. */
export interface RunnerSettings {
  readonly clock: Clock;
  readonly signal?: AbortSignal;
  /** The reason running units fail with (and pending ones are left with) on abort. */
  readonly abortReason: string;
  /** Time limit of one unit, from its start. @default none (the action waits as it sees fit) */
  readonly unitTimeoutMs?: number;
  /** Time limit of the whole run. @default none */
  readonly runTimeoutMs?: number;
  /** Stops the run when nothing progressed for this long. @default none */
  readonly noProgressTimeoutMs?: number;
  /**
   * Whether the API server answers (the port's). While it is lost, unit timeouts, unit timers and
   * the no-progress check are paused (the run timeout is not: it is the caller's wall-clock
   * limit); when it is gone for good the run stops with outcome `unreachable`.
   */
  readonly availability?: ApiAvailabilitySource;
}

/**
 * The one DAG runner behind deploy, verify, destroy and prune. It asks the scheduler (the only
 * owner of unit state and blocked reasons) what may run, starts the unit's action, and owns what
 * every operation shares: concurrency, stopping (abort, run timeout, no progress), the per-unit
 * timeout, and turning a crash of the engine into a failed unit instead of a hung run. All state
 * changes happen on the event loop, one at a time.
 */
export class DagRunner {
  readonly times = new UnitTimesBook();
  private readonly controllers = new Map<string, AbortController>();
  private readonly work = new Set<Promise<void>>();
  private readonly cancels: (() => void)[] = [];
  /** Unit timeouts, unit timers and the no-progress check: paused while the API server is lost. */
  private readonly timers: PausableTimers;
  private readonly runController = new AbortController();
  private stopping?: { outcome: RunOutcome; reason: string };
  private lastProgressAt: number;
  private readonly changes = new ChangeSignal();

  constructor(
    readonly scheduler: UnitScheduler,
    private readonly actionOf: (name: string) => UnitAction,
    private readonly listener: RunnerListener,
    private readonly settings: RunnerSettings,
  ) {
    this.lastProgressAt = settings.clock.now();
    this.timers = new PausableTimers(settings.clock);
  }

  /** Aborted when the run stops early or ends: for work outside any unit (deploy's bootstrap). */
  get runSignal(): AbortSignal {
    return this.runController.signal;
  }

  /** Set once the run is stopping early; how it ends. */
  get stopped(): { readonly outcome: RunOutcome; readonly reason: string } | undefined {
    return this.stopping;
  }

  /**
   * Runs every unit the scheduler lets run until none is pending or running. `before` runs first
   * under the same stop conditions (deploy's bootstrap); when it returns a reason, nothing starts
   * and every unit is reported `not-started` with it.
   */
  async execute(before?: () => Promise<string | undefined>): Promise<void> {
    const { signal, clock } = this.settings;
    const onAbort = () => this.stop('aborted', this.settings.abortReason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const runTimeout = this.settings.runTimeoutMs;
    if (runTimeout !== undefined)
      this.cancels.push(
        startTimer(clock, runTimeout, () =>
          this.stop('timed-out', `run timed out after ${formatMs(runTimeout)}`),
        ),
      );
    if (this.settings.noProgressTimeoutMs !== undefined)
      this.armNoProgress(this.settings.noProgressTimeoutMs);
    const availability = this.settings.availability;
    if (availability) {
      this.cancels.push(availability.subscribe((state) => this.onApiState(state)));
      if (availability.current.state !== 'available') this.onApiState(availability.current);
    }
    if (signal?.aborted) onAbort();
    try {
      const cannotStart = before && !this.stopping ? await before() : undefined;
      if (cannotStart !== undefined && !this.stopping) this.scheduler.markRemainingNotStarted(cannotStart);
      for (;;) {
        if (!this.stopping) this.pump();
        if (this.scheduler.isFinished() && this.work.size === 0) break;
        await this.changed();
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      for (const cancel of this.cancels) cancel();
      this.timers.cancelAll();
      this.runController.abort();
      for (const controller of this.controllers.values()) controller.abort();
    }
  }

  /** How every unit ended, sorted by name: call once `execute` has returned. */
  outcomes(): UnitOutcome[] {
    const stoppedBecause = this.stopping ? stopCause(this.stopping.outcome) : undefined;
    return this.scheduler.snapshot().map(({ name, state, reason, blockedBy }) => {
      if (!isEndState(state)) throw new Error(`internal error: ${name} is still ${state} after the run`);
      const { startedAt, appliedAt, doneAt, failedAt, cause: failure } = this.times.get(name) ?? {};
      const cause: FailureCause | undefined =
        state === 'failed'
          ? failure
          : state === 'blocked'
            ? 'blocked'
            : state === 'not-started'
              ? (stoppedBecause ?? 'blocked')
              : undefined;
      return {
        name,
        state,
        ...(reason !== undefined && state !== 'done' ? { reason } : {}),
        ...(cause !== undefined ? { cause } : {}),
        ...(blockedBy !== undefined ? { blockedBy } : {}),
        ...(startedAt !== undefined ? { startedAt } : {}),
        ...(appliedAt !== undefined ? { appliedAt } : {}),
        ...(doneAt !== undefined ? { doneAt } : {}),
        ...(failedAt !== undefined ? { failedAt } : {}),
      };
    });
  }

  /** The outcome of the run: its stop reason when stopped early, else from `allGood`. */
  outcome(allGood: boolean): RunOutcome {
    return this.stopping?.outcome ?? (allGood ? 'succeeded' : 'failed');
  }

  /** Resolves on the next change anywhere in the run. */
  changed(): Promise<void> {
    return this.changes.wait();
  }

  notify(): void {
    this.changes.notify();
  }

  progress(): void {
    this.lastProgressAt = this.settings.clock.now();
  }

  isRunning(name: string): boolean {
    return this.scheduler.state(name) === 'running';
  }

  /** Runs `work` alongside the units; a rejection is an engine bug and fails what is running. */
  track(work: Promise<void>): void {
    const tracked = work
      .catch((error: unknown) => {
        for (const name of this.scheduler.running())
          this.fail(name, `internal error: ${errorMessage(error)}`, 'internal', false);
      })
      .finally(() => {
        this.work.delete(tracked);
        this.notify();
      });
    this.work.add(tracked);
  }

  /** Fails a running unit and blocks its dependants (through the scheduler). */
  fail(name: string, reason: string, cause: FailureCause, diagnose = true): void {
    if (!this.isRunning(name)) return;
    const blocked = this.scheduler.markFailed(name, reason);
    const times = this.times.of(name);
    times.failedAt = this.settings.clock.now();
    times.cause = cause;
    this.end(name);
    this.listener.failed(name, times.failedAt, reason, blocked, diagnose);
    this.progress();
    this.notify();
  }

  /** Ends the run early: nothing new starts, running units fail with `reason` and what they did. */
  stop(outcome: RunOutcome, reason: string): void {
    if (this.stopping) return;
    this.stopping = { outcome, reason };
    this.scheduler.markRemainingNotStarted(reason);
    const cause = stopCause(outcome);
    for (const name of this.scheduler.running())
      this.fail(name, `${reason}${this.actionOf(name).stoppedWhile()}`, cause, outcome !== 'aborted');
    this.runController.abort();
    this.notify();
  }

  private pump(): void {
    for (const name of this.scheduler.nextRunnable()) {
      this.scheduler.markStarted(name);
      this.track(this.runUnit(name));
    }
  }

  private async runUnit(name: string): Promise<void> {
    const { clock } = this.settings;
    const action = this.actionOf(name);
    const controller = new AbortController();
    this.controllers.set(name, controller);
    const times = this.times.of(name);
    times.startedAt = clock.now();
    this.listener.started(name, times.startedAt);
    this.progress();
    // A listener may have stopped the run on `started`.
    if (!this.isRunning(name)) return;
    const context = this.contextFor(name, controller);
    const limit = this.settings.unitTimeoutMs;
    if (limit !== undefined) context.after(limit, () => this.fail(name, action.timedOut(limit), 'timeout'));
    await action.start(context);
  }

  private contextFor(name: string, controller: AbortController): UnitContext {
    const { clock } = this.settings;
    return {
      name,
      clock,
      signal: controller.signal,
      isRunning: () => this.isRunning(name),
      applied: () => {
        if (!this.isRunning(name)) return;
        this.times.of(name).appliedAt = clock.now();
        this.listener.applied(name, clock.now());
        this.progress();
      },
      done: () => {
        if (!this.isRunning(name)) return;
        this.scheduler.markDone(name);
        const at = clock.now();
        this.times.of(name).doneAt = at;
        this.end(name);
        this.listener.done(name, at);
        this.progress();
        this.notify();
      },
      fail: (reason, cause) => this.fail(name, reason, cause),
      progress: () => this.progress(),
      notify: () => this.notify(),
      changed: () => this.changed(),
      track: (work) => this.track(work),
      after: (ms, fn) => {
        const cancel = this.timers.start(ms, fn);
        if (controller.signal.aborted) cancel();
        else controller.signal.addEventListener('abort', cancel, { once: true });
      },
    };
  }

  private end(name: string): void {
    this.controllers.get(name)?.abort();
  }

  private armNoProgress(limit: number): void {
    const check = () => {
      const idle = this.settings.clock.now() - this.lastProgressAt;
      if (idle >= limit) {
        this.stop('no-progress', `no progress for ${formatMs(limit)}`);
        return;
      }
      this.timers.start(limit - idle, check);
    };
    this.timers.start(limit, check);
  }

  /** Pauses the unit timers while the API server is lost, stops the run when it is gone. */
  private onApiState(state: ApiState): void {
    const now = this.settings.clock.now();
    switch (state.state) {
      case 'lost':
        if (this.timers.paused) return;
        this.timers.pause();
        this.listener.apiLost?.(now, state);
        return;
      case 'available': {
        if (!this.timers.paused) return;
        // Time without an API server is not time without progress.
        this.progress();
        const lostFor = this.timers.resume();
        this.listener.apiRestored?.(now, lostFor);
        this.notify();
        return;
      }
      case 'gone':
        this.stop('unreachable', `the API server stopped answering (${state.reason})`);
        return;
    }
  }
}

/** The cause of the units a stopped run fails or leaves not started. */
function stopCause(outcome: RunOutcome): FailureCause {
  if (outcome === 'aborted') return 'aborted';
  if (outcome === 'unreachable') return 'cluster-unreachable';
  return 'timeout';
}
