// Values several parts of the runtime (and the CLI's option defaults) must agree on, written once.
// No imports: the CLI reads this file while printing --help.

/**
 * The server-side apply field manager. Keep it stable: renaming it orphans field ownership.
 */
export const FIELD_MANAGER = 'stackwright';

/** Most components (or deletion units) running at once, unless told otherwise. */
export const DEFAULT_CONCURRENCY = 8;

/** How long a run waits for an API server that stopped answering (`--api-loss-timeout`). */
export const DEFAULT_API_LOSS_TIMEOUT_MS = 120_000;
