import * as fs from 'fs';

/** One request as the API server's audit log (JSON lines, level Metadata) records it. */
interface AuditEvent {
  readonly auditID: string;
  readonly verb: string;
  readonly userAgent?: string;
  readonly requestURI: string;
}

/**
 * Counts requests in the audit log written after byte `offset` whose user agent starts with
 * `userAgent`, by verb (a watch logs twice, ResponseStarted and ResponseComplete: counted once).
 */
export function auditCounts(
  file: string,
  offset: number,
  userAgent: string,
): { total: number; writes: number; byVerb: Record<string, number> } {
  const text = fs.readFileSync(file).subarray(offset).toString('utf8');
  const seen = new Set<string>();
  const byVerb: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.includes(`"userAgent":"${userAgent}`)) continue;
    let event: AuditEvent;
    try {
      event = JSON.parse(line) as AuditEvent;
    } catch {
      continue; // a line being written while we read
    }
    if (!event.userAgent?.startsWith(userAgent) || seen.has(event.auditID)) continue;
    seen.add(event.auditID);
    const verb = event.verb === 'patch' && event.requestURI.includes('dryRun') ? 'dry-run' : event.verb;
    byVerb[verb] = (byVerb[verb] ?? 0) + 1;
  }
  const writes = ['create', 'update', 'patch', 'delete', 'deletecollection'].reduce(
    (n, v) => n + (byVerb[v] ?? 0),
    0,
  );
  return { total: seen.size, writes, byVerb };
}

export function fileSize(file: string): number {
  return fs.existsSync(file) ? fs.statSync(file).size : 0;
}
