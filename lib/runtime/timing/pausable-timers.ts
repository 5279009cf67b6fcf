import { Clock } from './clock';
import { startTimer } from './timer';

interface Entry {
  remaining: number;
  dueAt: number;
  cancel?: () => void;
  readonly fn: () => void;
}

/**
 * Timers that can be paused and resumed together: the engine's component timeouts, diagnosis
 * rounds and no-progress check stop counting while the API server is lost, and go on with the
 * time they had left when it is back. Built on `startTimer`, so a `ManualClock` drives them.
 *
 * @example
 * const timers = new PausableTimers(clock);
 * timers.start(60_000, () => fail('timed out'));
 * timers.pause(); // … API server lost for 20 s …
 * timers.resume(); // fires 20 s later than it would have
 */
export class PausableTimers {
  private readonly entries = new Set<Entry>();
  private pausedSince?: number;

  constructor(private readonly clock: Clock) {}

  /** True between `pause()` and `resume()`. */
  get paused(): boolean {
    return this.pausedSince !== undefined;
  }

  /** Calls `fn` after `ms` of unpaused time unless cancelled first; returns the cancel function. */
  start(ms: number, fn: () => void): () => void {
    const entry: Entry = { remaining: Math.max(0, ms), dueAt: 0, fn };
    this.entries.add(entry);
    if (!this.paused) this.arm(entry);
    return () => {
      entry.cancel?.();
      this.entries.delete(entry);
    };
  }

  /** Stops every timer's count; a no-op when paused already. */
  pause(): void {
    if (this.paused) return;
    const now = this.clock.now();
    this.pausedSince = now;
    for (const entry of this.entries) {
      entry.cancel?.();
      entry.cancel = undefined;
      entry.remaining = Math.max(0, entry.dueAt - now);
    }
  }

  /** Goes on counting from where `pause()` stopped; returns how long the pause lasted. */
  resume(): number {
    if (this.pausedSince === undefined) return 0;
    const lasted = this.clock.now() - this.pausedSince;
    this.pausedSince = undefined;
    for (const entry of this.entries) this.arm(entry);
    return lasted;
  }

  /** Cancels every timer. */
  cancelAll(): void {
    for (const entry of this.entries) entry.cancel?.();
    this.entries.clear();
  }

  private arm(entry: Entry): void {
    entry.dueAt = this.clock.now() + entry.remaining;
    entry.cancel = startTimer(this.clock, entry.remaining, () => {
      this.entries.delete(entry);
      entry.fn();
    });
  }
}
