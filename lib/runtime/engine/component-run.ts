import { ComponentGraph } from '../../graph';
import { RunEvent } from '../events';
import { ClusterPort } from '../ports';
import { COMPONENT_STATES, ComponentResult, countStates, RolloutResult, RunOutcome } from '../result';
import { UnitScheduler } from './scheduler';
import { unitGraphOf } from './unit-graph';
import { endStateAs } from './unit-outcome';
import { Clock } from '../timing/clock';
import { ApplyAndWait } from './apply-and-wait';
import { Bootstrap } from './bootstrap';
import { ComponentUnit } from './component-unit';
import { DagRunner } from './dag-runner';
import { unitEvents } from './unit-events';
import { iso, ObjectSession } from './object-session';
import { ReadAndJudge } from './read-and-judge';

/** Everything `rollout` and `verify` decide before the engine runs (defaults applied). */
export interface ComponentRunSettings {
  readonly mode: 'deploy' | 'verify';
  readonly concurrency: number;
  readonly fieldManager: string;
  readonly forceConflicts: boolean;
  /** deploy: start -> verified; verify: how long to wait after reading. */
  readonly componentTimeoutMs: number;
  readonly runTimeoutMs?: number;
  readonly noProgressTimeoutMs?: number;
  readonly diagnoseAfterMs?: number;
  readonly onEvent?: (event: RunEvent) => void;
  readonly signal?: AbortSignal;
  readonly skip: readonly string[];
  readonly applyAttempts: number;
  readonly waitForLoadBalancer: boolean;
  /** See `ReadinessOptions.recordedHashes`. */
  readonly recordedHashes?: ReadonlyMap<string, string>;
  readonly clock: Clock;
  /** Diagnose failed components. */
  readonly diagnose: boolean;
}

/**
 * One run of deploy or verify on the DAG runner: the bootstrap phase first, then each component as
 * a unit (apply-and-wait or read-and-judge), events as they happen, and the result.
 */
export async function runComponents(
  graph: ComponentGraph,
  cluster: ClusterPort,
  settings: ComponentRunSettings,
): Promise<RolloutResult> {
  const { clock, mode } = settings;
  const emit = (event: RunEvent) => {
    try {
      settings.onEvent?.(event);
    } catch {
      // A broken renderer must not break the rollout.
    }
  };
  const startedAt = clock.now();
  const scheduler = new UnitScheduler(unitGraphOf(graph), {
    concurrency: settings.concurrency,
    skip: settings.skip,
  });
  const units = new Map<string, ComponentUnit>();
  const listener = unitEvents(emit, (unit) => runner.times.get(unit), {
    diagnosisOf: (component) => unitOf(component).diagnosis,
    afterFailure: (component, at, diagnose) => {
      if (diagnose && settings.diagnose)
        unitOf(component).diagnoseInBackground(
          { track: (w) => runner.track(w), clock },
          () => true,
          runner.times.get(component)?.startedAt ?? at,
        );
    },
  });
  const runner: DagRunner = new DagRunner(scheduler, (name) => unitOf(name), listener, {
    clock,
    availability: cluster.availability,
    signal: settings.signal,
    abortReason: 'rollout aborted',
    unitTimeoutMs: mode === 'deploy' ? settings.componentTimeoutMs : undefined,
    runTimeoutMs: settings.runTimeoutMs,
    noProgressTimeoutMs: settings.noProgressTimeoutMs,
  });
  const session = new ObjectSession(
    cluster,
    {
      fieldManager: settings.fieldManager,
      forceConflicts: settings.forceConflicts,
      applyAttempts: settings.applyAttempts,
      clock,
      emit,
    },
    (tracked, changed) => {
      if (changed) runner.progress();
      if (tracked.component !== undefined) {
        if (changed) unitOf(tracked.component).changed(clock.now());
        unitOf(tracked.component).judge();
      }
      runner.notify();
    },
  );
  const readiness = {
    waitForLoadBalancer: settings.waitForLoadBalancer,
    recordedHashes: settings.recordedHashes,
  };
  const deps = { session, cluster, readiness, emit };
  for (const component of graph.components)
    units.set(
      component.name,
      mode === 'deploy'
        ? new ApplyAndWait(component, deps, settings.diagnoseAfterMs)
        : new ReadAndJudge(component, deps, settings.componentTimeoutMs),
    );
  const bootstrap = new Bootstrap(graph.bootstrap, readiness);

  function unitOf(name: string): ComponentUnit {
    const unit = units.get(name);
    if (!unit) throw new Error(`unknown component ${name}`);
    return unit;
  }

  emit({
    type: 'run-started',
    at: iso(startedAt),
    mode,
    units: graph.components.map((c) => c.name).sort(),
    bootstrapObjects: bootstrap.objects.length,
  });
  try {
    await runner.execute(async () => {
      await bootstrap.run(mode, session, runner, clock, settings.componentTimeoutMs);
      // Verify reports every component even when a bootstrap object is missing; deploy cannot go on.
      if (bootstrap.state === 'verified' || mode === 'verify') return undefined;
      return `bootstrap failed: ${bootstrap.reason ?? 'unknown reason'}`;
    });
  } finally {
    session.close();
  }
  const result = assemble();
  emit({ type: 'run-finished', at: result.finishedAt, result });
  return result;

  function assemble(): RolloutResult {
    const finishedAt = clock.now();
    const components: ComponentResult[] = runner.outcomes().map((outcome) => {
      const unit = unitOf(outcome.name);
      const { startedAt: started, appliedAt, doneAt: verifiedAt, failedAt } = outcome;
      const endedAt = verifiedAt ?? failedAt;
      return {
        name: outcome.name,
        service: unit.component.service,
        constructPath: unit.component.constructPath,
        state: endStateAs(outcome.state, 'verified'),
        ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
        ...(outcome.cause !== undefined ? { cause: outcome.cause } : {}),
        ...(outcome.blockedBy !== undefined ? { blockedBy: outcome.blockedBy } : {}),
        ...(unit.diagnosis ? { diagnosis: unit.diagnosis } : {}),
        ...(unit.findings && unit.findings.length > 0 ? { findings: unit.findings } : {}),
        ...(started !== undefined ? { startedAt: iso(started) } : {}),
        ...(appliedAt !== undefined ? { appliedAt: iso(appliedAt) } : {}),
        ...(verifiedAt !== undefined ? { verifiedAt: iso(verifiedAt) } : {}),
        ...(failedAt !== undefined ? { failedAt: iso(failedAt) } : {}),
        durations: {
          ...(started !== undefined && appliedAt !== undefined ? { applyMs: appliedAt - started } : {}),
          ...(appliedAt !== undefined && endedAt !== undefined ? { verifyMs: endedAt - appliedAt } : {}),
          ...(started !== undefined && endedAt !== undefined ? { totalMs: endedAt - started } : {}),
        },
        objects: unit.objects.map((t) => t.toResult(iso)),
      };
    });
    const allGood =
      bootstrap.state === 'verified' &&
      components.every((c) => c.state === 'verified' || c.state === 'skipped');
    const outcome: RunOutcome = runner.outcome(allGood);
    return {
      mode,
      outcome,
      ok: outcome === 'succeeded',
      startedAt: iso(startedAt),
      finishedAt: iso(finishedAt),
      durationMs: finishedAt - startedAt,
      bootstrap: bootstrap.toResult(),
      components,
      counts: countStates(components, COMPONENT_STATES),
    };
  }
}
