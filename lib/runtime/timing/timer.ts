import { Clock, isAbortError } from './clock';

/**
 * Calls `fn` after `ms` on `clock` unless cancelled first. Returns the cancel function. Built on
 * `clock.sleep` so a `ManualClock` drives every engine timeout in tests.
 */
export function startTimer(clock: Clock, ms: number, fn: () => void): () => void {
  const controller = new AbortController();
  clock.sleep(ms, controller.signal).then(
    () => {
      if (!controller.signal.aborted) fn();
    },
    (error: unknown) => {
      if (!isAbortError(error)) throw error;
    },
  );
  return () => controller.abort();
}
