/** Settings of an `ExponentialBackOff`. */
export interface ExponentialBackOffOptions {
  /**
   * Factor by which the delay grows after each step.
   * @default 2
   */
  readonly base?: number;
  /**
   * First delay, in milliseconds.
   * @default 1000
   */
  readonly start?: number;
  /**
   * Largest delay, in milliseconds; once reached it repeats forever.
   * @default 120000
   */
  readonly max?: number;
  /**
   * Jitter ratio in [0, 1): each delay is spread uniformly over `delay * (1 ± jitter)` so that many
   * clients failing together (every watch after an API server restart) do not retry in lockstep.
   * @default 0
   */
  readonly jitter?: number;
  /**
   * Source of randomness in [0, 1), for deterministic tests.
   * @default Math.random
   */
  readonly random?: () => number;
}

/**
 * The delays of an exponential back-off, as an endless iterable: `start`, `start*base`, … up to
 * `max`, then `max` forever, each optionally jittered. Modelled on Yaook's `ExponentialBackOff`.
 *
 * @example
 * const backOff = new ExponentialBackOff({ start: 500, max: 30_000, jitter: 0.2 });
 * for (;;) {
 *   try { await connect(); backOff.reset(); break; }
 *   catch { await clock.sleep(backOff.next()); }
 * }
 */
export class ExponentialBackOff implements Iterable<number> {
  readonly base: number;
  readonly start: number;
  readonly max: number;
  readonly jitter: number;
  private readonly random: () => number;
  private current: number;
  private drawn = false;

  constructor(options: ExponentialBackOffOptions = {}) {
    this.base = options.base ?? 2;
    this.start = options.start ?? 1000;
    this.max = options.max ?? 120_000;
    this.jitter = options.jitter ?? 0;
    this.random = options.random ?? Math.random;
    if (!(this.base >= 1)) throw new Error(`ExponentialBackOff: base must be >= 1, got ${this.base}`);
    if (!(this.start >= 0)) throw new Error(`ExponentialBackOff: start must be >= 0, got ${this.start}`);
    if (!(this.max >= this.start))
      throw new Error(`ExponentialBackOff: max (${this.max}) must be >= start (${this.start})`);
    if (!(this.jitter >= 0 && this.jitter < 1))
      throw new Error(`ExponentialBackOff: jitter must be in [0, 1), got ${this.jitter}`);
    this.current = this.start;
  }

  /**
   * True once a delay has been drawn since construction or the last `reset()`: the guarded
   * operation is in a failure streak.
   */
  get failing(): boolean {
    return this.drawn;
  }

  /** The next delay in milliseconds (jittered), advancing the sequence. */
  next(): number {
    const delay = this.current;
    this.current = Math.min(this.max, this.current * this.base);
    this.drawn = true;
    if (this.jitter === 0) return delay;
    return delay * (1 + this.jitter * (2 * this.random() - 1));
  }

  /** Starts over at `start` and clears `failing`; call it after a success. */
  reset(): void {
    this.current = this.start;
    this.drawn = false;
  }

  *[Symbol.iterator](): Iterator<number> {
    for (;;) yield this.next();
  }
}
