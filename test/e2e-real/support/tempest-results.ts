/**
 * Tempest's results, counted per service: pure functions over the per-test records the Tempest
 * pod reads from stestr's subunit stream (support/tempest.ts), so the counting is tested without a
 * cloud (tempest-results.test.ts).
 */

/** One test as subunit reports it: `status` is testtools' (success, fail, skip, xfail, ...). */
export interface TempestTestResult {
  readonly id: string;
  readonly status: string;
  /** Why a test was skipped (the `reason` detail), when it was. */
  readonly reason?: string;
  /** The end of a failed test's traceback (the `traceback` detail): the exception and its message. */
  readonly traceback?: string;
}

/** A failed test and the end of its traceback, so a CI log's last lines say why it failed. */
export interface TempestFailure {
  readonly id: string;
  readonly cause: string;
}

export interface TempestServiceCounts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

/** What a run reports: counts per service (`identity`, `image`, `network`, `compute`, `scenario`, ...). */
export interface TempestCounts {
  readonly byService: Readonly<Record<string, TempestServiceCounts>>;
  readonly total: TempestServiceCounts;
  /** The failed tests (class-level failures appear as `setUpClass (tempest....)`) and why. */
  readonly failures: readonly TempestFailure[];
  /** Skipped tests with their reason, for the test output. */
  readonly skips: readonly { readonly id: string; readonly reason: string }[];
}

type Outcome = keyof TempestServiceCounts;

/**
 * testtools' statuses: an expected failure counts as passed, an unexpected success or a test
 * still `inprogress` at the end of the stream (its worker died) as failed; `exists` is a listing
 * record, not a run, and is not counted.
 */
function outcomeOf(status: string): Outcome | undefined {
  if (status === 'success' || status === 'xfail') return 'passed';
  if (status === 'skip') return 'skipped';
  if (status === 'exists') return undefined;
  return 'failed';
}

/**
 * The service a test belongs to: the package under `tempest.api` (`compute`, `network`, ...), or
 * `scenario`. Class fixtures carry the class in parentheses (`setUpClass (tempest.api....)`), so
 * the id is searched, not matched from its start; anything else is `other`.
 */
export function serviceOf(id: string): string {
  const match = /\btempest\.(?:api\.([a-z_]+)|(scenario))\./.exec(id);
  return match?.[1] ?? match?.[2] ?? 'other';
}

/** Passed, failed and skipped per service and in total. */
export function tempestCounts(results: readonly TempestTestResult[]): TempestCounts {
  const zero = (): Record<Outcome, number> => ({ passed: 0, failed: 0, skipped: 0 });
  const byService: Record<string, Record<Outcome, number>> = {};
  const total = zero();
  const failures: TempestFailure[] = [];
  const skips: { id: string; reason: string }[] = [];
  for (const result of results) {
    const outcome = outcomeOf(result.status);
    if (outcome === undefined) continue;
    const service = serviceOf(result.id);
    byService[service] ??= zero();
    byService[service][outcome] += 1;
    total[outcome] += 1;
    if (outcome === 'failed') failures.push({ id: result.id, cause: causeOf(result) });
    if (outcome === 'skipped') skips.push({ id: result.id, reason: result.reason ?? '' });
  }
  return { byService, total, failures, skips };
}

/**
 * Why a test failed, in a line: the traceback's last non-empty lines (the exception and its
 * message; Tempest puts a server's fault there), or its status when there is no traceback (a
 * worker that died leaves its test `inprogress`).
 */
function causeOf(result: TempestTestResult): string {
  const lines = (result.traceback ?? '')
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '');
  if (lines.length === 0) return `status ${result.status}, no traceback`;
  return lines
    .slice(-3)
    .map((line) => line.trim())
    .join(' | ');
}
