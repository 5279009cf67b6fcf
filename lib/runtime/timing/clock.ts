/**
 * Time as the runtime sees it. Everything that waits (back-off, timeouts, restarts) goes through a
 * `Clock`, so tests drive time with a `ManualClock` instead of waiting for real.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds, or rejects with an `AbortError` as soon as `signal` aborts
   * (immediately when it already has), so a stopped task never lingers on a timer.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The error a clock's `sleep` rejects with when its signal aborts. */
export class AbortError extends Error {
  constructor(message = 'aborted') {
    super(message);
    this.name = 'AbortError';
  }
}

/** True when `error` is the rejection of an aborted sleep (ours or the platform's). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** The real clock: `Date.now()` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new AbortError());
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(new AbortError());
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
