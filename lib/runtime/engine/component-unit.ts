import { GraphComponent, KubeObject } from '../../graph';
import { ComponentDiagnosis, diagnoseComponent } from '../diagnose/diagnose-component';
import { Finding } from '../diagnose/finding';
import { RunEvent } from '../events';
import { ClusterPort } from '../ports';
import { ReadinessOptions } from '../readiness/readiness-table';
import { TrackedObject } from './tracked-object';
import { errorMessage } from '../error-message';
import { formatMs } from '../timing/format-ms';
import { iso, ObjectAttempt, ObjectSession } from './object-session';
import { StuckDetector } from './stuck-detector';
import { UnitAction, UnitContext } from './unit-action';

/** What every component unit of one rollout shares. */
export interface ComponentUnitDeps {
  readonly session: ObjectSession;
  readonly cluster: ClusterPort;
  readonly readiness: ReadinessOptions;
  readonly emit: (event: RunEvent) => void;
}

/**
 * The part of apply-and-wait and read-and-judge that is the same: a component's tracked objects,
 * observed through the shared watches while it runs, and judged after every change — any Failed
 * object fails it, all Current (once its writes or reads are done) verifies it.
 */
export abstract class ComponentUnit implements UnitAction {
  readonly objects: TrackedObject[];
  /** What the cluster said about its pods, once diagnosed. */
  diagnosis?: string[];
  /** The typed causes in `diagnosis`. */
  findings?: Finding[];
  /** Confirms stuck states over diagnosis rounds. */
  protected readonly stuck = new StuckDetector();
  /** The object being written or read right now, for "timed out applying …". */
  protected current?: string;
  protected context?: UnitContext;
  private waiting = false;

  constructor(
    readonly component: GraphComponent,
    protected readonly deps: ComponentUnitDeps,
  ) {
    this.objects = component.objects.map((o) => new TrackedObject(o, component.name, deps.readiness));
  }

  abstract start(context: UnitContext): Promise<void>;

  /** Called after any change of one of its objects: fail on Failed, verify when all are Current. */
  judge(): void {
    const context = this.context;
    if (!context?.isRunning()) return;
    const failed = this.objects.find((t) => t.status === 'Failed');
    if (failed) {
      context.fail(`${failed.ref}: ${failed.message}`, failed.cause ?? 'object-failed');
      return;
    }
    if (this.waiting && this.objects.every((t) => t.status === 'Current')) context.done();
  }

  timedOut(ms: number): string {
    if (this.current) return `timed out after ${formatMs(ms)} applying ${this.current}`;
    const waiting = this.firstNotCurrent();
    return waiting
      ? `timed out after ${formatMs(ms)} waiting for ${waiting.ref}: ${waiting.status}: ${waiting.message}`
      : `timed out after ${formatMs(ms)}`;
  }

  stoppedWhile(): string {
    if (this.current) return ` while applying ${this.current}`;
    if (this.nothingWritten()) return ' before any of its objects was applied';
    const waiting = this.firstNotCurrent();
    return waiting ? ` while waiting for ${waiting.ref}` : '';
  }

  /** An object of the unit changed status or message (progress, as far as being stuck goes). */
  changed(at: number): void {
    this.stuck.changed(at);
  }

  /** Lists the pods behind its workloads and says why they are not ready; never throws. */
  async diagnose(since?: number): Promise<ComponentDiagnosis> {
    const byManifest = new Map(this.component.objects.map((o, i) => [o, this.objects[i]]));
    try {
      return await diagnoseComponent(
        this.component,
        this.deps.cluster,
        (o) => byManifest.get(o)?.live,
        since,
      );
    } catch (error) {
      return { messages: [`could not diagnose: ${errorMessage(error)}`], findings: [] };
    }
  }

  /**
   * Diagnoses off the hot path and reports it while `stillMatters()`: a `component-diagnosis`
   * event when what the cluster says changed. When `context` lends `fail` (a running unit), a
   * blocking finding that the previous round saw too, with nothing changed in between, fails the
   * unit with its cause (see `StuckDetector`).
   */
  diagnoseInBackground(
    context: Pick<UnitContext, 'track' | 'clock'> & Partial<Pick<UnitContext, 'fail'>>,
    stillMatters: () => boolean,
    since?: number,
  ): void {
    const at = context.clock.now();
    context.track(
      this.diagnose(since).then(({ messages, findings }) => {
        if (!stillMatters()) return;
        const confirmed = this.stuck.round(findings, at);
        if (messages.length > 0 && messages.join('\n') !== this.diagnosis?.join('\n')) {
          this.diagnosis = messages;
          this.findings = findings;
          this.deps.emit({
            type: 'unit-diagnosis',
            at: iso(context.clock.now()),
            unit: this.component.name,
            diagnosis: messages,
            findings,
          });
        }
        if (confirmed && context.fail) context.fail(confirmed.message, confirmed.cause);
      }),
    );
  }

  /** Observes every object while the unit runs. */
  protected observeAll(context: UnitContext): void {
    this.context = context;
    for (const tracked of this.objects) {
      const stop = this.deps.session.observe(tracked, () => context.isRunning());
      context.signal.addEventListener('abort', stop, { once: true });
    }
  }

  /** Writes (or reads) `objects` one by one; false when one failed (the unit is failed then). */
  protected async each(
    context: UnitContext,
    objects: readonly KubeObject[],
    step: (tracked: TrackedObject) => Promise<ObjectAttempt>,
  ): Promise<boolean> {
    for (const object of objects) {
      if (!context.isRunning()) return false;
      const tracked = this.trackedOf(object);
      this.current = tracked.ref;
      const attempt = await step(tracked);
      this.current = undefined;
      if (!attempt.ok) {
        context.fail(attempt.reason, attempt.cause);
        return false;
      }
    }
    return context.isRunning();
  }

  /** Writes are done: from now on all-Current verifies the unit. */
  protected startWaiting(context: UnitContext): void {
    context.applied();
    this.waiting = true;
  }

  protected trackedOf(object: KubeObject): TrackedObject {
    return this.objects[this.component.objects.indexOf(object)];
  }

  protected nothingWritten(): boolean {
    return false;
  }

  protected firstNotCurrent(): TrackedObject | undefined {
    return this.objects.find((t) => t.status !== 'Current');
  }
}
