/**
 * The API server's audit log of the cluster under test (JSON lines at level Metadata, written by
 * scripts/cluster/up.sh's policy): which client wrote what, independent of the client's own account.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { kubeconfigFromEnv } from './cluster';

/** The verbs that change an object. */
const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'];

interface AuditEvent {
  readonly verb: string;
  readonly userAgent?: string;
  readonly user?: { readonly username?: string };
  readonly responseStatus?: { readonly code?: number };
  readonly requestURI: string;
  readonly objectRef?: {
    readonly resource?: string;
    readonly namespace?: string;
    readonly name?: string;
    readonly subresource?: string;
  };
}

/** The audit log file, as `cluster.env` next to the kubeconfig names it; undefined for a foreign cluster. */
export function auditLogFile(): string | undefined {
  const env = path.join(path.dirname(kubeconfigFromEnv()), 'cluster.env');
  if (!fs.existsSync(env)) return undefined;
  const match = /^STACKWRIGHT_CLUSTER_AUDIT_LOG=(.+)$/m.exec(fs.readFileSync(env, 'utf8'));
  return match && fs.existsSync(match[1]) ? match[1] : undefined;
}

/** The audit log, for tests that cannot run without it (a cluster not started by `up.sh` has none). */
export function requiredAuditLogFile(): string {
  const file = auditLogFile();
  if (!file) throw new Error('this test reads the audit log of the cluster scripts/cluster/up.sh starts');
  return file;
}

/** Where the log ends now: pass it to `auditedWrites` to see only what happens afterwards. */
export function auditLogOffset(file: string): number {
  return fs.statSync(file).size;
}

/**
 * Writes (not dry runs) to objects of `namespace` since byte `offset`, by clients whose user agent
 * starts with `userAgent`, as `<verb> <resource>[/<subresource>] <name>` in log order. The audit
 * backend writes asynchronously: wait a moment after the last request before reading.
 */
export function auditedWrites(file: string, offset: number, userAgent: string, namespace: string): string[] {
  const text = fs.readFileSync(file).subarray(offset).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.includes(`"userAgent":"${userAgent}`))
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter(
      (e) =>
        WRITE_VERBS.includes(e.verb) &&
        e.objectRef?.namespace === namespace &&
        !e.requestURI.includes('dryRun'),
    )
    .map((e) => {
      const ref = e.objectRef ?? {};
      const resource = ref.subresource ? `${ref.resource}/${ref.subresource}` : ref.resource;
      return `${e.verb} ${resource} ${ref.name ?? ''}`.trim();
    });
}

/**
 * Requests of `username` since byte `offset` that the API server answered 403 Forbidden (RBAC
 * refused them), as `<verb> <requestURI>` in log order. Wait a moment after the last request.
 */
export function auditedForbidden(file: string, offset: number, username: string): string[] {
  const text = fs.readFileSync(file).subarray(offset).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.includes(`"username":"${username}"`))
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((e) => e.user?.username === username && e.responseStatus?.code === 403)
    .map((e) => `${e.verb} ${e.requestURI}`);
}
