import { KubeObject } from '../../graph';
import { bootstrapOrder } from './apply-order';
import { ReadinessOptions } from '../readiness/readiness-table';
import { BootstrapResult, FailureCause } from '../result';
import { Clock } from '../timing/clock';
import { startTimer } from '../timing/timer';
import { TrackedObject } from './tracked-object';
import { DagRunner } from './dag-runner';
import { formatMs } from '../timing/format-ms';
import { iso, ObjectSession } from './object-session';

/**
 * The objects of no component (namespaces, CRDs, cluster RBAC), handled before any component:
 * applied (deploy) or read (verify) in dependency order, then waited for until all are Current.
 */
export class Bootstrap {
  readonly objects: TrackedObject[];
  state: BootstrapResult['state'] = 'not-started';
  reason?: string;
  cause?: FailureCause;

  constructor(objects: readonly KubeObject[], readiness: ReadinessOptions) {
    this.objects = bootstrapOrder(objects).map((o) => new TrackedObject(o, undefined, readiness));
  }

  /**
   * Runs the phase under the runner's stop conditions; resolves once it is verified, failed, or
   * the run stopped. In verify mode waiting ends after `timeoutMs` with the first object not Current.
   */
  async run(
    mode: 'deploy' | 'verify',
    session: ObjectSession,
    runner: DagRunner,
    clock: Clock,
    timeoutMs: number,
  ): Promise<void> {
    if (this.objects.length === 0) {
      this.state = 'verified';
      return;
    }
    for (const tracked of this.objects) {
      if (runner.stopped) return;
      session.observe(tracked, () => this.state === 'not-started');
      const attempt =
        mode === 'deploy' ? await session.apply(tracked, runner.runSignal) : await session.read(tracked);
      if (!attempt.ok) return this.fail(attempt.reason, attempt.cause);
    }
    let timedOut = false;
    const cancel = startTimer(clock, timeoutMs, () => {
      timedOut = true;
      runner.notify();
    });
    try {
      for (;;) {
        if (runner.stopped) return;
        const failed = this.objects.find((t) => t.status === 'Failed');
        if (failed) return this.fail(`${failed.ref}: ${failed.message}`, 'object-failed');
        const waiting = this.objects.find((t) => t.status !== 'Current');
        if (!waiting) {
          this.state = 'verified';
          return;
        }
        if (timedOut)
          return this.fail(
            mode === 'deploy'
              ? `timed out after ${formatMs(timeoutMs)} waiting for ${waiting.ref}: ${waiting.status}: ${waiting.message}`
              : `${waiting.ref} is ${waiting.status}: ${waiting.message}`,
            'timeout',
          );
        await runner.changed();
      }
    } finally {
      cancel();
    }
  }

  toResult(): BootstrapResult {
    return {
      state: this.state,
      ...(this.reason !== undefined ? { reason: this.reason } : {}),
      ...(this.cause !== undefined ? { cause: this.cause } : {}),
      objects: this.objects.map((t) => t.toResult(iso)),
    };
  }

  private fail(reason: string, cause: FailureCause): void {
    this.state = 'failed';
    this.reason = reason;
    this.cause = cause;
  }
}
