import { Clock, isAbortError, systemClock } from './clock';
import { ExponentialBackOff } from './exponential-back-off';

/** Settings of a `RestartingTask`. */
export interface RestartingTaskOptions {
  /** @default systemClock */
  readonly clock?: Clock;
  /**
   * Delays between crash and restart.
   * @default 1 s doubling up to 120 s, jitter 0.1
   */
  readonly backOff?: ExponentialBackOff;
  /** Told about every crash and when the task restarts. Must not throw. */
  readonly onCrash?: (error: unknown, restartInMs: number) => void;
}

/**
 * A background async function that is restarted with exponential back-off (up to 120 s) whenever it
 * throws, modelled on Yaook's `RestartingTask`; the natural home of a watch loop.
 *
 * The function receives an `AbortSignal` that aborts on `stop()`; it should end promptly then.
 * Returning normally, or ending because of the abort, does not restart it.
 *
 * @example
 * const watcher = new RestartingTask(async (signal) => { for await (const e of stream(signal)) handle(e); });
 * watcher.start();
 * …
 * await watcher.waitForTermination();
 */
export class RestartingTask {
  private readonly clock: Clock;
  private readonly backOff: ExponentialBackOff;
  private controller: AbortController | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly fn: (signal: AbortSignal) => Promise<void>,
    private readonly options: RestartingTaskOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.backOff =
      options.backOff ?? new ExponentialBackOff({ base: 2, start: 1000, max: 120_000, jitter: 0.1 });
  }

  /** True from `start()` until the function ends for good (returned, or stopped). */
  get running(): boolean {
    return this.loop !== undefined;
  }

  /**
   * Starts the task, or, when it is already running, only resets the crash back-off (the caller
   * has reason to believe the next attempt will work, e.g. the connection came back).
   */
  start(): void {
    this.backOff.reset();
    if (this.loop) return;
    const controller = new AbortController();
    this.controller = controller;
    const loop = this.runLoop(controller.signal).finally(() => {
      if (this.loop === loop) {
        this.loop = undefined;
        this.controller = undefined;
      }
    });
    this.loop = loop;
  }

  /** Cancels the running function (through its signal) and any pending restart. Idempotent. */
  stop(): void {
    this.controller?.abort();
  }

  /** Stops, then starts afresh (once the previous run has ended). */
  restart(): void {
    const previous = this.loop;
    this.stop();
    if (!previous) {
      this.start();
      return;
    }
    this.loop = undefined;
    this.controller = undefined;
    const controller = new AbortController();
    this.controller = controller;
    this.backOff.reset();
    const loop = previous
      .then(() => (controller.signal.aborted ? undefined : this.runLoop(controller.signal)))
      .finally(() => {
        if (this.loop === loop) {
          this.loop = undefined;
          this.controller = undefined;
        }
      });
    this.loop = loop;
  }

  /** Stops the task and resolves when it has ended. Never rejects: crashes went to `onCrash`. */
  async waitForTermination(): Promise<void> {
    const loop = this.loop;
    this.stop();
    await loop;
  }

  private async runLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.fn(signal);
        return;
      } catch (error) {
        if (signal.aborted || isAbortError(error)) return;
        const delay = this.backOff.next();
        this.options.onCrash?.(error, delay);
        try {
          await this.clock.sleep(delay, signal);
        } catch (sleepError) {
          if (isAbortError(sleepError)) return;
          throw sleepError;
        }
      }
    }
  }
}
