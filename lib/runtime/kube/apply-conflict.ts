import { ApplyConflictError } from '../ports';
import { KubeApiError, KubeStatus } from './errors';

/** One field owned by another manager, as the API server names it. */
export interface FieldConflict {
  readonly manager: string;
  readonly field: string;
}

const MANAGER = /conflicts? with "((?:[^"\\]|\\.)*)"/;

/**
 * Reads the field-manager conflicts out of a server-side-apply 409. The API server lists one
 * `FieldManagerConflict` cause per field (`message: conflict with "kubectl-edit" using apps/v1`,
 * `field: .spec.replicas`); older servers or proxies may only keep the summary message
 * (`Apply failed with 2 conflicts: conflicts with "m" using v1:\n- .data.a\n- .data.b`), which is
 * parsed as a fallback. Returns an empty list when the status is not an apply conflict (an
 * optimistic-concurrency 409 or AlreadyExists, which are retried or reported as they are).
 */
export function parseApplyConflicts(status: KubeStatus | undefined): FieldConflict[] {
  if (!status || status.code !== 409 || status.reason !== 'Conflict') return [];
  const causes = status.details?.causes ?? [];
  const fromCauses = causes
    .filter((c) => c.reason === 'FieldManagerConflict')
    .map((c) => ({
      manager: managerOf(c.message) ?? 'unknown manager',
      field: c.field ?? '(unknown field)',
    }));
  if (fromCauses.length > 0) return fromCauses;
  return fromSummary(status.message ?? '');
}

/** Turns a 409 from an apply into `ApplyConflictError` when it is a field-manager conflict. */
export function toApplyConflict(ref: string, error: unknown): ApplyConflictError | undefined {
  if (!(error instanceof KubeApiError)) return undefined;
  const conflicts = parseApplyConflicts(error.body);
  return conflicts.length > 0 ? new ApplyConflictError(ref, conflicts) : undefined;
}

function managerOf(message: string | undefined): string | undefined {
  const match = message ? MANAGER.exec(message) : null;
  return match ? match[1].replace(/\\"/g, '"') : undefined;
}

function fromSummary(message: string): FieldConflict[] {
  if (!message.startsWith('Apply failed with')) return [];
  const conflicts: FieldConflict[] = [];
  let manager: string | undefined;
  for (const raw of message.split('\n')) {
    const line = raw.trim();
    const found = managerOf(line);
    if (found) {
      manager = found;
      // Single-conflict form: `... conflict with "m" using apps/v1: .spec.replicas`
      const inline = /using [^:]+: (\S.*)$/.exec(line);
      if (inline) conflicts.push({ manager, field: inline[1] });
    } else if (line.startsWith('- ') && manager) {
      conflicts.push({ manager, field: line.slice(2) });
    }
  }
  return conflicts;
}
