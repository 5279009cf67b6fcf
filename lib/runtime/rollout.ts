import { ComponentGraph, GraphComponent, KubeObject } from '../graph';
import { bootstrapOrder, componentPhases } from './apply-order';
import { diagnoseComponent } from './diagnose-component';
import { RolloutEvent } from './events';
import { ApplyConflictError, ClusterPort } from './ports';
import { ComponentResult, countStates, isRunningState, RolloutResult, RunOutcome } from './result';
import { RolloutOptions, VerifyOptions } from './rollout-options';
import { RolloutScheduler } from './scheduler';
import { Clock, isAbortError, systemClock } from './tasks/clock';
import { ExponentialBackOff } from './tasks/exponential-back-off';
import { startTimer } from './timers';
import { TrackedObject } from './tracked-object';
import { WatchHub } from './watch-hub';

/**
 * Deploys the graph and verifies it, per component:
 *
 * 1. bootstrap objects (namespaces, CRDs, cluster RBAC — objects of no component) are applied and
 *    waited for;
 * 2. each component starts the moment its own gating edges are verified (never a level barrier),
 *    within `concurrency`; it applies its objects in order (its Namespaces and CRDs first, waited
 *    for), then waits until every object is Current — observed through one shared watch per
 *    (apiVersion, kind, namespace), never by polling, and only once our own write is observed;
 * 3. a failure (apply rejected, object Failed, timeout) blocks only the failed component's
 *    transitive dependants; independent branches finish.
 *
 * Never rejects for cluster errors: everything that went wrong is in the result, with reasons.
 *
 * @example
 * const result = await rollout(graphFromManifests(loadManifests('dist/')), cluster, {
 *   concurrency: 8, onEvent: (e) => console.log(JSON.stringify(e)),
 * });
 * process.exitCode = result.ok ? 0 : 1;
 */
export async function rollout(
  graph: ComponentGraph,
  cluster: ClusterPort,
  options: RolloutOptions = {},
): Promise<RolloutResult> {
  return new RolloutRun(graph, cluster, 'deploy', {
    concurrency: options.concurrency ?? 8,
    fieldManager: options.fieldManager ?? 'stackwright',
    forceConflicts: options.forceConflicts ?? false,
    componentTimeoutMs: options.componentTimeoutMs ?? 600_000,
    runTimeoutMs: options.runTimeoutMs,
    noProgressTimeoutMs: options.noProgressTimeoutMs,
    diagnoseAfterMs: options.diagnoseAfterMs ?? 30_000,
    onEvent: options.onEvent,
    signal: options.signal,
    skip: options.skip ?? [],
    applyAttempts: Math.max(1, options.applyAttempts ?? 5),
    waitForLoadBalancer: options.waitForLoadBalancer ?? false,
    clock: options.clock ?? systemClock,
    diagnose: true,
  }).execute();
}

/**
 * Observes the graph's objects without writing anything and reports every component as `rollout`
 * would: verified when all its objects are Current, failed (with the object and its status) when
 * not — after waiting up to `waitMs` for them. Ordering does not matter when nothing is written,
 * so every component is checked at once (within `concurrency`); the same readiness table, watches
 * and diagnostics as `rollout`.
 */
export async function verify(
  graph: ComponentGraph,
  cluster: ClusterPort,
  options: VerifyOptions = {},
): Promise<RolloutResult> {
  const unordered: ComponentGraph = {
    ...graph,
    edges: [],
    components: graph.components.map((c) => ({ ...c, edges: [] })),
  };
  return new RolloutRun(unordered, cluster, 'verify', {
    concurrency: options.concurrency ?? 8,
    fieldManager: 'stackwright',
    forceConflicts: false,
    componentTimeoutMs: options.waitMs ?? 0,
    runTimeoutMs: undefined,
    noProgressTimeoutMs: undefined,
    diagnoseAfterMs: undefined,
    onEvent: options.onEvent,
    signal: options.signal,
    skip: [],
    applyAttempts: 1,
    waitForLoadBalancer: options.waitForLoadBalancer ?? false,
    clock: options.clock ?? systemClock,
    diagnose: options.diagnose ?? true,
  }).execute();
}

interface RunSettings {
  readonly concurrency: number;
  readonly fieldManager: string;
  readonly forceConflicts: boolean;
  /** deploy: start -> verified; verify: how long to wait after reading. */
  readonly componentTimeoutMs: number;
  readonly runTimeoutMs: number | undefined;
  readonly noProgressTimeoutMs: number | undefined;
  readonly diagnoseAfterMs: number | undefined;
  readonly onEvent: ((event: RolloutEvent) => void) | undefined;
  readonly signal: AbortSignal | undefined;
  readonly skip: readonly string[];
  readonly applyAttempts: number;
  readonly waitForLoadBalancer: boolean;
  readonly clock: Clock;
  readonly diagnose: boolean;
}

/** Per-component bookkeeping of one run. */
interface ComponentRun {
  readonly component: GraphComponent;
  readonly objects: TrackedObject[];
  /** Aborted when the component ends, to cancel its timers, back-off sleeps and listeners. */
  readonly controller: AbortController;
  readonly stopListening: (() => void)[];
  startedAt?: number;
  appliedAt?: number;
  verifiedAt?: number;
  failedAt?: number;
  reason?: string;
  diagnosis?: string[];
  /** The object being applied right now, for "timed out applying …". */
  applying?: string;
}

/** Outcome of applying one object. */
type ApplyAttempt = { ok: true } | { ok: false; reason: string };

/** One execution of `rollout` or `verify`. All state changes happen on the event loop, one at a time. */
class RolloutRun {
  private readonly scheduler: RolloutScheduler;
  private readonly hub: WatchHub;
  private readonly runs = new Map<string, ComponentRun>();
  private readonly bootstrap: TrackedObject[];
  private bootstrapState: 'verified' | 'failed' | 'not-started' = 'not-started';
  private bootstrapReason?: string;
  private readonly work = new Set<Promise<void>>();
  private readonly runController = new AbortController();
  private readonly cancels: (() => void)[] = [];
  private stopping?: { outcome: RunOutcome; reason: string };
  private lastProgressAt: number;
  private readonly startedAt: number;
  private wake!: () => void;
  private changed: Promise<void>;

  constructor(
    private readonly graph: ComponentGraph,
    private readonly cluster: ClusterPort,
    private readonly mode: 'deploy' | 'verify',
    private readonly settings: RunSettings,
  ) {
    this.scheduler = new RolloutScheduler(graph, { concurrency: settings.concurrency, skip: settings.skip });
    this.hub = new WatchHub(cluster);
    const readiness = { waitForLoadBalancer: settings.waitForLoadBalancer };
    for (const component of graph.components) {
      this.runs.set(component.name, {
        component,
        objects: component.objects.map((o) => new TrackedObject(o, component.name, readiness)),
        controller: new AbortController(),
        stopListening: [],
      });
    }
    this.bootstrap = bootstrapOrder(graph.bootstrap).map((o) => new TrackedObject(o, undefined, readiness));
    this.startedAt = settings.clock.now();
    this.lastProgressAt = this.startedAt;
    this.changed = new Promise((resolve) => (this.wake = resolve));
  }

  async execute(): Promise<RolloutResult> {
    const { signal } = this.settings;
    this.emit({
      type: 'run-started',
      at: this.iso(this.startedAt),
      mode: this.mode,
      components: this.graph.components.map((c) => c.name).sort(),
      bootstrapObjects: this.bootstrap.length,
    });
    const onAbort = () => this.stop('aborted', 'rollout aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
    if (this.settings.runTimeoutMs !== undefined) {
      const ms = this.settings.runTimeoutMs;
      this.cancels.push(
        startTimer(this.settings.clock, ms, () =>
          this.stop('timed-out', `run timed out after ${formatMs(ms)}`),
        ),
      );
    }
    if (this.settings.noProgressTimeoutMs !== undefined)
      this.armNoProgress(this.settings.noProgressTimeoutMs);
    if (signal?.aborted) onAbort();

    try {
      await this.runBootstrap();
      // Verify reports every component even when a bootstrap object is missing; deploy cannot go on.
      const canStart = this.bootstrapState === 'verified' || this.mode === 'verify';
      if (!this.stopping && !canStart) {
        this.scheduler.markRemainingNotStarted(
          `bootstrap failed: ${this.bootstrapReason ?? 'unknown reason'}`,
        );
      }
      for (;;) {
        if (!this.stopping && canStart) this.pump();
        if (this.scheduler.isFinished() && this.work.size === 0) break;
        await this.nextChange();
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      for (const cancel of this.cancels) cancel();
      this.runController.abort();
      for (const run of this.runs.values()) run.controller.abort();
      this.hub.close();
    }
    const result = this.result();
    this.emit({ type: 'run-finished', at: result.finishedAt, result });
    return result;
  }

  // ---- bootstrap ------------------------------------------------------------------------------

  private async runBootstrap(): Promise<void> {
    if (this.stopping) return;
    if (this.bootstrap.length === 0) {
      this.bootstrapState = 'verified';
      return;
    }
    const signal = this.runController.signal;
    for (const tracked of this.bootstrap) {
      if (this.stopping) return;
      this.hub.observe(tracked.desired, (type, live) => this.onWatch(tracked, type, live));
      const attempt =
        this.mode === 'deploy' ? await this.applyObject(tracked, signal) : await this.readObject(tracked);
      if (!attempt.ok) {
        this.bootstrapState = 'failed';
        this.bootstrapReason = attempt.reason;
        return;
      }
    }
    let timedOut = false;
    const ms = this.settings.componentTimeoutMs;
    const cancel = startTimer(this.settings.clock, ms, () => {
      timedOut = true;
      this.notify();
    });
    try {
      for (;;) {
        if (this.stopping) return;
        const failed = this.bootstrap.find((t) => t.status === 'Failed');
        if (failed) {
          this.bootstrapState = 'failed';
          this.bootstrapReason = `${failed.ref}: ${failed.message}`;
          return;
        }
        const waiting = this.bootstrap.find((t) => t.status !== 'Current');
        if (!waiting) {
          this.bootstrapState = 'verified';
          return;
        }
        if (timedOut) {
          this.bootstrapState = 'failed';
          this.bootstrapReason =
            this.mode === 'deploy'
              ? `timed out after ${formatMs(ms)} waiting for ${waiting.ref}: ${waiting.status}: ${waiting.message}`
              : `${waiting.ref} is ${waiting.status}: ${waiting.message}`;
          return;
        }
        await this.nextChange();
      }
    } finally {
      cancel();
    }
  }

  // ---- components -----------------------------------------------------------------------------

  /** Starts every component the scheduler says may run. */
  private pump(): void {
    for (const name of this.scheduler.nextRunnable()) {
      this.scheduler.markApplying(name);
      this.track(this.runComponent(name));
    }
  }

  private async runComponent(name: string): Promise<void> {
    const run = this.requireRun(name);
    const { clock } = this.settings;
    run.startedAt = clock.now();
    this.emit({ type: 'component-started', at: this.iso(run.startedAt), component: name });
    this.progress();
    // An event handler may have aborted the run on `component-started`.
    if (!this.isRunning(name)) return;
    const signal = run.controller.signal;
    if (this.mode === 'deploy') {
      const ms = this.settings.componentTimeoutMs;
      this.cancelOnEnd(
        run,
        startTimer(clock, ms, () => this.timeoutComponent(name, ms)),
      );
      const diagnoseAfter = this.settings.diagnoseAfterMs;
      if (diagnoseAfter !== undefined)
        this.cancelOnEnd(
          run,
          startTimer(clock, diagnoseAfter, () => this.diagnoseSlow(name)),
        );
    }
    for (const tracked of run.objects) {
      run.stopListening.push(
        this.hub.observe(tracked.desired, (type, live) => this.onWatch(tracked, type, live)),
      );
    }

    const { prerequisites, rest } = componentPhases(run.component.objects);
    const trackedOf = (o: KubeObject) => run.objects[run.component.objects.indexOf(o)];
    for (const phase of [prerequisites, rest]) {
      for (const object of phase) {
        if (!this.isRunning(name)) return;
        const tracked = trackedOf(object);
        run.applying = tracked.ref;
        const attempt =
          this.mode === 'deploy' ? await this.applyObject(tracked, signal) : await this.readObject(tracked);
        run.applying = undefined;
        if (!attempt.ok) {
          this.failComponent(name, attempt.reason);
          return;
        }
      }
      if (this.mode === 'deploy' && phase === prerequisites && prerequisites.length > 0 && rest.length > 0) {
        // CRs need their CRD established and namespaced objects their namespace Active.
        const prereqs = prerequisites.map(trackedOf);
        while (this.isRunning(name) && !prereqs.every((t) => t.status === 'Current')) await this.nextChange();
      }
    }
    if (!this.isRunning(name)) return;
    this.scheduler.markVerifying(name);
    run.appliedAt = clock.now();
    this.emit({
      type: 'component-applied',
      at: this.iso(run.appliedAt),
      component: name,
      durationMs: run.appliedAt - (run.startedAt ?? run.appliedAt),
    });
    this.progress();
    if (this.mode === 'verify') {
      const ms = this.settings.componentTimeoutMs;
      if (ms > 0)
        this.cancelOnEnd(
          run,
          startTimer(clock, ms, () => this.notVerified(name, ms)),
        );
      this.checkComponent(name);
      if (ms <= 0) this.notVerified(name, 0);
      return;
    }
    this.checkComponent(name);
  }

  /** Applies one object, retrying errors the port marks `retryable` with jittered back-off. */
  private async applyObject(tracked: TrackedObject, signal: AbortSignal): Promise<ApplyAttempt> {
    const backOff = new ExponentialBackOff({ start: 500, base: 2, max: 10_000, jitter: 0.2 });
    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await this.cluster.apply(tracked.desired, {
          fieldManager: this.settings.fieldManager,
          force: this.settings.forceConflicts,
          dryRun: false,
        });
        const now = this.settings.clock.now();
        this.emit({
          type: 'object-applied',
          at: this.iso(now),
          ...(tracked.component ? { component: tracked.component } : {}),
          ref: tracked.ref,
          action: outcome.action,
        });
        this.afterChange(tracked, tracked.onApplied(outcome, now));
        return { ok: true };
      } catch (error) {
        const reason =
          error instanceof ApplyConflictError
            ? error.message
            : `${tracked.ref}: apply failed: ${errorMessage(error)}`;
        if (!isRetryable(error) || attempt >= this.settings.applyAttempts || signal.aborted) {
          return { ok: false, reason: attempt > 1 ? `${reason} (after ${attempt} attempts)` : reason };
        }
        try {
          await this.settings.clock.sleep(backOff.next(), signal);
        } catch (sleepError) {
          if (isAbortError(sleepError)) return { ok: false, reason };
          throw sleepError;
        }
      }
    }
  }

  /** Reads one object (verify mode). */
  private async readObject(tracked: TrackedObject): Promise<ApplyAttempt> {
    try {
      const live = await this.cluster.get(tracked.desired);
      this.afterChange(tracked, tracked.onRead(live, this.settings.clock.now()));
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: `${tracked.ref}: could not read it: ${errorMessage(error)}` };
    }
  }

  private onWatch(tracked: TrackedObject, type: 'ADDED' | 'MODIFIED' | 'DELETED', live: KubeObject): void {
    // Only while the object matters: its component running, or bootstrap not finished.
    if (tracked.component !== undefined && !this.isRunning(tracked.component)) return;
    if (tracked.component === undefined && this.bootstrapState !== 'not-started') return;
    this.afterChange(tracked, tracked.onWatchEvent(type, live, this.settings.clock.now()));
  }

  private afterChange(tracked: TrackedObject, changed: boolean): void {
    if (changed) {
      this.emit({
        type: 'object-status',
        at: this.iso(this.settings.clock.now()),
        ...(tracked.component ? { component: tracked.component } : {}),
        ref: tracked.ref,
        status: tracked.status,
        message: tracked.message,
      });
      this.progress();
      if (tracked.desired.kind === 'CustomResourceDefinition' && tracked.status === 'Current')
        this.invalidateDiscovery();
    }
    if (tracked.component !== undefined) this.checkComponent(tracked.component);
    this.notify();
  }

  /** Decides a running component from its objects: any Failed fails it, all Current verifies it. */
  private checkComponent(name: string): void {
    const state = this.scheduler.state(name);
    if (!isRunningState(state)) return;
    const run = this.requireRun(name);
    const failed = run.objects.find((t) => t.status === 'Failed');
    if (failed) {
      this.failComponent(name, `${failed.ref}: ${failed.message}`);
      return;
    }
    if (state === 'verifying' && run.objects.every((t) => t.status === 'Current')) this.verifyComponent(name);
  }

  private verifyComponent(name: string): void {
    const run = this.requireRun(name);
    this.scheduler.markVerified(name);
    run.verifiedAt = this.settings.clock.now();
    this.endComponent(run);
    this.emit({
      type: 'component-verified',
      at: this.iso(run.verifiedAt),
      component: name,
      durationMs: run.verifiedAt - (run.startedAt ?? run.verifiedAt),
    });
    this.progress();
    this.notify();
  }

  /** Fails a running component, blocks its dependants, and diagnoses it off the hot path. */
  private failComponent(name: string, reason: string, diagnose = this.settings.diagnose): void {
    if (!isRunningState(this.scheduler.state(name))) return;
    const run = this.requireRun(name);
    const blocked = this.scheduler.markFailed(name, reason);
    run.failedAt = this.settings.clock.now();
    run.reason = reason;
    this.endComponent(run);
    const at = this.iso(run.failedAt);
    this.emit({
      type: 'component-failed',
      at,
      component: name,
      reason,
      ...(run.diagnosis ? { diagnosis: run.diagnosis } : {}),
    });
    for (const b of blocked)
      this.emit({
        type: 'component-blocked',
        at,
        component: b.name,
        blockedBy: b.blockedBy,
        reason: b.reason,
      });
    this.progress();
    if (diagnose) {
      this.track(
        this.diagnose(run).then((diagnosis) => {
          if (diagnosis.length === 0) return;
          run.diagnosis = diagnosis;
          this.emit({
            type: 'component-diagnosis',
            at: this.iso(this.settings.clock.now()),
            component: name,
            diagnosis,
          });
        }),
      );
    }
    this.notify();
  }

  private timeoutComponent(name: string, ms: number): void {
    if (!this.isRunning(name)) return;
    const run = this.requireRun(name);
    if (run.applying) {
      this.failComponent(name, `timed out after ${formatMs(ms)} applying ${run.applying}`);
      return;
    }
    const waiting = run.objects.find((t) => t.status !== 'Current');
    this.failComponent(
      name,
      waiting
        ? `timed out after ${formatMs(ms)} waiting for ${waiting.ref}: ${waiting.status}: ${waiting.message}`
        : `timed out after ${formatMs(ms)}`,
    );
  }

  /** Verify mode: the component is not Current within the wait. */
  private notVerified(name: string, ms: number): void {
    if (!this.isRunning(name)) return;
    const waiting = this.requireRun(name).objects.filter((t) => t.status !== 'Current');
    const first = waiting[0];
    if (!first) return;
    const more = waiting.length > 1 ? ` (and ${waiting.length - 1} more object(s) not Current)` : '';
    const waited = ms > 0 ? ` after waiting ${formatMs(ms)}` : '';
    this.failComponent(
      name,
      `not verified${waited}: ${first.ref} is ${first.status}: ${first.message}${more}`,
    );
  }

  private diagnoseSlow(name: string): void {
    if (!this.isRunning(name)) return;
    const run = this.requireRun(name);
    this.track(
      this.diagnose(run).then((diagnosis) => {
        if (diagnosis.length === 0 || !this.isRunning(name)) return;
        run.diagnosis = diagnosis;
        this.emit({
          type: 'component-diagnosis',
          at: this.iso(this.settings.clock.now()),
          component: name,
          diagnosis,
        });
      }),
    );
  }

  private async diagnose(run: ComponentRun): Promise<string[]> {
    const byManifest = new Map(run.component.objects.map((o, i) => [o, run.objects[i]]));
    try {
      return await diagnoseComponent(run.component, this.cluster, (o) => byManifest.get(o)?.live);
    } catch (error) {
      return [`could not diagnose: ${errorMessage(error)}`];
    }
  }

  private endComponent(run: ComponentRun): void {
    run.controller.abort();
    for (const stop of run.stopListening.splice(0)) stop();
  }

  private cancelOnEnd(run: ComponentRun, cancel: () => void): void {
    if (run.controller.signal.aborted) cancel();
    else run.controller.signal.addEventListener('abort', cancel, { once: true });
  }

  // ---- run-wide -------------------------------------------------------------------------------

  /** Ends the run early: nothing new starts, running components fail with `reason`. */
  private stop(outcome: RunOutcome, reason: string): void {
    if (this.stopping) return;
    this.stopping = { outcome, reason };
    this.scheduler.markRemainingNotStarted(reason);
    for (const name of this.scheduler.running()) {
      const run = this.requireRun(name);
      const waiting = run.objects.find((t) => t.status !== 'Current')?.ref;
      const nothingApplied = this.mode === 'deploy' && run.objects.every((t) => t.applied === undefined);
      const detail = run.applying
        ? ` while applying ${run.applying}`
        : nothingApplied
          ? ' before any of its objects was applied'
          : waiting
            ? ` while waiting for ${waiting}`
            : '';
      this.failComponent(name, `${reason}${detail}`, outcome !== 'aborted' && this.settings.diagnose);
    }
    this.runController.abort();
    this.notify();
  }

  private armNoProgress(limit: number): void {
    const check = () => {
      const idle = this.settings.clock.now() - this.lastProgressAt;
      if (idle >= limit) {
        this.stop('no-progress', `no progress for ${formatMs(limit)}`);
        return;
      }
      this.cancels.push(startTimer(this.settings.clock, limit - idle, check));
    };
    this.cancels.push(startTimer(this.settings.clock, limit, check));
  }

  private progress(): void {
    this.lastProgressAt = this.settings.clock.now();
  }

  private isRunning(name: string): boolean {
    return isRunningState(this.scheduler.state(name));
  }

  private track(promise: Promise<void>): void {
    const tracked = promise
      .catch((error: unknown) => {
        // A bug in the engine itself: surface it in the result instead of hanging the run.
        for (const name of this.scheduler.running())
          this.failComponent(name, `internal error: ${errorMessage(error)}`, false);
      })
      .finally(() => {
        this.work.delete(tracked);
        this.notify();
      });
    this.work.add(tracked);
  }

  private notify(): void {
    const wake = this.wake;
    this.changed = new Promise((resolve) => (this.wake = resolve));
    wake();
  }

  private nextChange(): Promise<void> {
    return this.changed;
  }

  private invalidateDiscovery(): void {
    // The real port caches discovery; a CRD that just became established must become visible.
    const port = this.cluster as ClusterPort & { invalidateDiscovery?: () => void };
    if (typeof port.invalidateDiscovery === 'function') port.invalidateDiscovery();
  }

  private emit(event: RolloutEvent): void {
    try {
      this.settings.onEvent?.(event);
    } catch {
      // A broken renderer must not break the rollout.
    }
  }

  private requireRun(name: string): ComponentRun {
    const run = this.runs.get(name);
    if (!run) throw new Error(`unknown component ${name}`);
    return run;
  }

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }

  private result(): RolloutResult {
    const finishedAt = this.settings.clock.now();
    const components: ComponentResult[] = this.scheduler.snapshot().map((entry) => {
      const run = this.requireRun(entry.name);
      const { startedAt, appliedAt, verifiedAt, failedAt } = run;
      const endedAt = verifiedAt ?? failedAt;
      const reason = run.reason ?? entry.reason;
      return {
        name: entry.name,
        service: run.component.service,
        constructPath: run.component.constructPath,
        state: entry.state,
        ...(reason !== undefined && entry.state !== 'verified' ? { reason } : {}),
        ...(entry.blockedBy !== undefined ? { blockedBy: entry.blockedBy } : {}),
        ...(run.diagnosis ? { diagnosis: run.diagnosis } : {}),
        ...(startedAt !== undefined ? { startedAt: this.iso(startedAt) } : {}),
        ...(appliedAt !== undefined ? { appliedAt: this.iso(appliedAt) } : {}),
        ...(verifiedAt !== undefined ? { verifiedAt: this.iso(verifiedAt) } : {}),
        ...(failedAt !== undefined ? { failedAt: this.iso(failedAt) } : {}),
        durations: {
          ...(startedAt !== undefined && appliedAt !== undefined ? { applyMs: appliedAt - startedAt } : {}),
          ...(appliedAt !== undefined && endedAt !== undefined ? { verifyMs: endedAt - appliedAt } : {}),
          ...(startedAt !== undefined && endedAt !== undefined ? { totalMs: endedAt - startedAt } : {}),
        },
        objects: run.objects.map((t) => t.toResult((ms) => this.iso(ms))),
      };
    });
    const counts = countStates(components);
    const allGood =
      this.bootstrapState === 'verified' &&
      components.every((c) => c.state === 'verified' || c.state === 'skipped');
    const outcome: RunOutcome = this.stopping?.outcome ?? (allGood ? 'succeeded' : 'failed');
    return {
      mode: this.mode,
      outcome,
      ok: outcome === 'succeeded',
      startedAt: this.iso(this.startedAt),
      finishedAt: this.iso(finishedAt),
      durationMs: finishedAt - this.startedAt,
      bootstrap: {
        state: this.bootstrapState,
        ...(this.bootstrapReason !== undefined ? { reason: this.bootstrapReason } : {}),
        objects: this.bootstrap.map((t) => t.toResult((ms) => this.iso(ms))),
      },
      components,
      counts,
    };
  }
}

function isRetryable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `1m 30s`, `45s`, `250ms`: durations as people read them in reasons. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const totalSeconds = Math.round(ms / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  if (minutes === 0) return `${seconds}s`;
  return seconds === 0 ? `${minutes}m` : `${minutes}m ${seconds}s`;
}
