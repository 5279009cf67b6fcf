import { Clock, isAbortError, systemClock } from './clock';
import { ExponentialBackOff } from './exponential-back-off';

/** Settings of a `TaskQueue`. */
export interface TaskQueueOptions {
  /** @default 2 */
  readonly backOffBase?: number;
  /**
   * First retry delay of a failed task, in milliseconds.
   * @default 1000
   */
  readonly backOffStart?: number;
  /**
   * Largest retry delay, in milliseconds.
   * @default 120000
   */
  readonly backOffMax?: number;
  /**
   * Jitter ratio of the retry delays, so tasks that failed together do not retry together.
   * @default 0.1
   */
  readonly jitter?: number;
  /**
   * How many tasks run at the same time.
   * @default 1
   */
  readonly concurrency?: number;
  /** @default systemClock */
  readonly clock?: Clock;
  /** @default Math.random */
  readonly random?: () => number;
  /** Told about every failure and when the task will be tried again. Must not throw. */
  readonly onError?: (key: string, error: unknown, retryInMs: number) => void;
}

/** The work a queue entry does. */
export type Task = () => Promise<void>;

interface Entry {
  readonly key: string;
  task: Task;
  dueAt: number;
  readonly sequence: number;
  readonly backOff: ExponentialBackOff;
}

/**
 * A de-duplicating, retrying queue of keyed tasks, modelled on Yaook's `TaskQueue`.
 *
 * - Enqueueing a key that is already waiting replaces its task and makes it due now (the newest
 *   intent wins, and a retry waiting on back-off is not worth waiting for any more).
 * - Enqueueing a key that is running schedules one more run after the current one.
 * - A task that throws is retried after a jittered exponential back-off (per key) without
 *   blocking the others; it is never dropped. A success forgets the key's back-off.
 * - Nothing runs unless `run()` is running. Tasks start in the order they became due, so the
 *   order cannot express dependencies (that is the scheduler's job).
 */
export class TaskQueue {
  private readonly clock: Clock;
  private readonly concurrency: number;
  private readonly options: TaskQueueOptions;
  private readonly waiting = new Map<string, Entry>();
  private readonly running = new Map<string, Promise<void>>();
  private sequence = 0;
  private stopped = false;
  private wake: AbortController = new AbortController();

  constructor(options: TaskQueueOptions = {}) {
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.concurrency = options.concurrency ?? 1;
    if (!(this.concurrency >= 1))
      throw new Error(`TaskQueue: concurrency must be >= 1, got ${this.concurrency}`);
  }

  /** Tasks waiting (due or backing off) plus tasks running. */
  get size(): number {
    const runningOnly = [...this.running.keys()].filter((k) => !this.waiting.has(k)).length;
    return this.waiting.size + runningOnly;
  }

  /** Adds (or refreshes) the task for `key`; see the class comment for de-duplication. */
  enqueue(key: string, task: Task): void {
    const now = this.clock.now();
    const existing = this.waiting.get(key);
    if (existing) {
      existing.task = task;
      existing.dueAt = Math.min(existing.dueAt, now);
    } else {
      this.waiting.set(key, { key, task, dueAt: now, sequence: this.sequence++, backOff: this.newBackOff() });
    }
    this.poke();
  }

  /**
   * Runs tasks until `stop()`; resolves once stopped and the tasks that were running have finished.
   */
  async run(): Promise<void> {
    this.stopped = false;
    while (!this.stopped) {
      const now = this.clock.now();
      const due = [...this.waiting.values()]
        .filter((e) => e.dueAt <= now && !this.running.has(e.key))
        .sort((a, b) => a.dueAt - b.dueAt || a.sequence - b.sequence);
      for (const entry of due) {
        if (this.running.size >= this.concurrency) break;
        this.waiting.delete(entry.key);
        this.start(entry);
      }
      await this.idle();
    }
    await Promise.all(this.running.values());
  }

  /** Stops `run()` after the running tasks finish; waiting tasks stay queued for the next `run()`. */
  stop(): void {
    this.stopped = true;
    this.poke();
  }

  private start(entry: Entry): void {
    const attempt = (async () => {
      try {
        await entry.task();
        entry.backOff.reset();
      } catch (error) {
        const delay = entry.backOff.next();
        this.options.onError?.(entry.key, error, delay);
        const newer = this.waiting.get(entry.key);
        // A newer enqueue while we ran already made the key due; keep that, it carries the newest task.
        if (!newer) this.waiting.set(entry.key, { ...entry, dueAt: this.clock.now() + delay });
      } finally {
        this.running.delete(entry.key);
        this.poke();
      }
    })();
    this.running.set(entry.key, attempt);
  }

  /** Waits until something may have changed: a task finished, one was enqueued, or one fell due. */
  private async idle(): Promise<void> {
    if (this.stopped) return;
    // Something changed since the last look (an enqueue, a task finished): look again first.
    if (this.wake.signal.aborted) {
      this.wake = new AbortController();
      return;
    }
    const signal = this.wake.signal;
    const now = this.clock.now();
    const nextDue = Math.min(
      ...[...this.waiting.values()].filter((e) => !this.running.has(e.key)).map((e) => e.dueAt),
    );
    try {
      if (Number.isFinite(nextDue) && this.running.size < this.concurrency) {
        await this.clock.sleep(Math.max(0, nextDue - now), signal);
      } else {
        await new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
      }
    } catch (error) {
      if (!isAbortError(error)) throw error;
    }
  }

  private poke(): void {
    this.wake.abort();
  }

  private newBackOff(): ExponentialBackOff {
    return new ExponentialBackOff({
      base: this.options.backOffBase ?? 2,
      start: this.options.backOffStart ?? 1000,
      max: this.options.backOffMax ?? 120_000,
      jitter: this.options.jitter ?? 0.1,
      random: this.options.random,
    });
  }
}
