/** Retry policy for transient failures (429, 5xx, resets). Deterministic in tests via `random`. */
export interface RetryPolicy {
  readonly attempts: number;
  readonly baseMs: number;
  readonly maxMs: number;
  readonly random: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseMs: 200, maxMs: 5_000, random: Math.random };

/** Statuses the API server documents as transient: the request is sent again after a back-off. */
export const RETRYABLE_STATUS: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** Statuses that, once retries are spent, make the transport ask whether the API server is down. */
export const SERVER_TROUBLE_STATUS: ReadonlySet<number> = new Set([500, 502, 503, 504]);

/** Socket errors that say the server cannot be reached at all (as opposed to a reset connection). */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
]);

/**
 * How long to wait before attempt `attempt + 1`: the server's `retryAfterSeconds` when it gave one,
 * else exponential from `baseMs`, capped at `maxMs`, with jitter between half and all of it (so
 * many clients retrying together spread out).
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined && retryAfterSeconds > 0) return retryAfterSeconds * 1000;
  const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  return exponential * (0.5 + policy.random() / 2);
}
