/** The verbs the counter distinguishes; `apply` is a server-side-apply PATCH. */
export type RequestVerb =
  'get' | 'list' | 'watch' | 'apply' | 'dry-run' | 'create' | 'update' | 'patch' | 'delete';

const WRITE_VERBS: ReadonlySet<RequestVerb> = new Set(['apply', 'create', 'update', 'patch', 'delete']);

/** A snapshot of the counts: per verb, and the total of requests that may write to etcd. */
export interface RequestCounts {
  readonly total: number;
  /** apply + create + update + patch + delete (dry runs excluded: they never persist). */
  readonly writes: number;
  readonly byVerb: Readonly<Record<RequestVerb, number>>;
}

/**
 * Counts API requests by verb, so benchmarks and tests can assert "a no-op re-run wrote nothing"
 * without an audit log. Retries count as separate requests, as they do at the API server.
 */
export class RequestCounter {
  private counts: Record<RequestVerb, number> = emptyCounts();

  record(verb: RequestVerb): void {
    this.counts[verb] += 1;
  }

  snapshot(): RequestCounts {
    const byVerb = { ...this.counts };
    const entries = Object.entries(byVerb) as [RequestVerb, number][];
    return {
      total: entries.reduce((sum, [, n]) => sum + n, 0),
      writes: entries.filter(([verb]) => WRITE_VERBS.has(verb)).reduce((sum, [, n]) => sum + n, 0),
      byVerb,
    };
  }

  reset(): void {
    this.counts = emptyCounts();
  }
}

/** `after - before`, verb by verb: what one phase of a run cost. */
export function diffCounts(before: RequestCounts, after: RequestCounts): RequestCounts {
  const byVerb = emptyCounts();
  for (const verb of Object.keys(byVerb) as RequestVerb[])
    byVerb[verb] = after.byVerb[verb] - before.byVerb[verb];
  return { total: after.total - before.total, writes: after.writes - before.writes, byVerb };
}

function emptyCounts(): Record<RequestVerb, number> {
  return { get: 0, list: 0, watch: 0, apply: 0, 'dry-run': 0, create: 0, update: 0, patch: 0, delete: 0 };
}
