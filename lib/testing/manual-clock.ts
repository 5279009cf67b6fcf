import { AbortError, Clock } from '../runtime/timing/clock';

interface Sleeper {
  readonly wakeAt: number;
  readonly sequence: number;
  readonly resolve: () => void;
}

/**
 * A clock that only moves when told to, for deterministic tests of back-off, timeouts and the
 * rollout engine: no test waits for real time, and no assertion depends on how fast the machine is.
 *
 * @example
 * const clock = new ManualClock();
 * const done = runSomethingThatSleeps(clock);
 * await clock.runUntilSettled(done); // fires timers in order until `done` settles
 */
export class ManualClock implements Clock {
  private current: number;
  private sequence = 0;
  private sleepers: Sleeper[] = [];

  constructor(start = Date.UTC(2025, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new AbortError());
        return;
      }
      const sleeper: Sleeper = {
        wakeAt: this.current + Math.max(0, ms),
        sequence: this.sequence++,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(new AbortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(sleeper);
    });
  }

  /** How many sleeps are waiting. */
  get pendingTimers(): number {
    return this.sleepers.length;
  }

  /** When the earliest pending sleep wakes, or undefined when nothing sleeps. */
  nextWakeAt(): number | undefined {
    return this.ordered()[0]?.wakeAt;
  }

  /**
   * Moves time forward by `ms`, waking every sleep that falls due in order, and letting the code it
   * resumes run (and schedule further sleeps) before moving on.
   */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    await flushMicrotasks();
    for (;;) {
      const next = this.ordered()[0];
      if (!next || next.wakeAt > target) break;
      this.current = Math.max(this.current, next.wakeAt);
      this.sleepers = this.sleepers.filter((s) => s !== next);
      next.resolve();
      await flushMicrotasks();
    }
    this.current = target;
    await flushMicrotasks();
  }

  /**
   * Fires timers one after the other until `promise` settles, and returns its outcome. Throws when
   * the promise is still pending with no timer left (a deadlock in the code under test) or after
   * `maxSteps` timers (a livelock).
   */
  async runUntilSettled<T>(promise: Promise<T>, maxSteps = 10_000): Promise<T> {
    let settled = false;
    const observed = promise.then(
      (value) => {
        settled = true;
        return value;
      },
      (error: unknown) => {
        settled = true;
        throw error;
      },
    );
    observed.catch(() => undefined);
    for (let step = 0; step < maxSteps; step++) {
      await flushMicrotasks();
      if (settled) return observed;
      const next = this.nextWakeAt();
      if (next === undefined) {
        await flushMicrotasks();
        if (settled) return observed;
        throw new Error('ManualClock.runUntilSettled: the promise is pending and no timer is left to fire');
      }
      await this.advance(next - this.current);
    }
    throw new Error(`ManualClock.runUntilSettled: still pending after ${maxSteps} timers`);
  }

  private ordered(): Sleeper[] {
    return [...this.sleepers].sort((a, b) => a.wakeAt - b.wakeAt || a.sequence - b.sequence);
  }
}

/** Lets queued promise callbacks and immediate callbacks run, without advancing any clock. */
export async function flushMicrotasks(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
