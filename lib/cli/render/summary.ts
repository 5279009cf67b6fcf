import { formatDuration } from '../duration';
import { Style } from './ansi';
import { nextSteps } from './hints';
import { unitResults } from '../../runtime';
import type { ComponentResult, DeletionResult, RequestCounts, RunMode, RunResult } from '../../runtime';

/** What a deploy adds to the rollout's own result in the summary (nothing for the other runs). */
export interface DeploySummaryExtras {
  readonly skippedUnchanged?: number;
  readonly requests?: RequestCounts;
  readonly orphans?: readonly string[];
  readonly prune?: DeletionResult;
}

/**
 * What a summary calls each run, its units' end states, and how it words a unit left waiting for
 * a failed one (a deletion keeps it in place).
 */
interface RunWording {
  readonly verb: string;
  readonly done: string;
  readonly blocked: string;
  readonly blockedBy: string;
}
const ROLLOUT_UNITS = { done: 'verified', blocked: 'blocked', blockedBy: 'blocked by' } as const;
const DELETION_UNITS = { done: 'deleted', blocked: 'kept', blockedBy: 'kept, blocked by' } as const;
const WORDING: Readonly<Record<RunMode, RunWording>> = {
  deploy: { verb: 'Deploy', ...ROLLOUT_UNITS },
  verify: { verb: 'Verify', ...ROLLOUT_UNITS },
  destroy: { verb: 'Destroy', ...DELETION_UNITS },
  prune: { verb: 'Prune', ...DELETION_UNITS },
};

/**
 * The end-of-run summary of any run (deploy, verify, destroy, prune): outcome, counts and duration
 * on the first line, then every unit that did not reach its goal with its reason (and diagnosis),
 * what to do next, and, for a deploy, what the run cost and what it pruned.
 */
export function renderRunSummary(result: RunResult, extras: DeploySummaryExtras, style: Style): string[] {
  const words = WORDING[result.mode];
  const c: Readonly<Record<string, number>> = result.counts;
  const head = result.ok
    ? style.green(`✓ ${words.verb} succeeded in ${formatDuration(result.durationMs)}`)
    : style.red(`✗ ${words.verb} ${result.outcome} after ${formatDuration(result.durationMs)}`);
  const lines = [
    `${head}: ${c[words.done]} ${words.done}, ${c.failed} failed, ${c.blocked} ${words.blocked}, ${c['not-started']} not started` +
      (c.skipped > 0 ? `, ${c.skipped} skipped` : ''),
  ];
  if ('bootstrap' in result && result.bootstrap.state === 'failed')
    lines.push(`  ${style.red('✗')} bootstrap: ${result.bootstrap.reason ?? 'failed'}`);
  const units = unitResults(result);
  for (const unit of units) {
    if (unit.state !== 'failed') continue;
    lines.push(`  ${style.red('✗')} ${unit.name}: ${unit.reason ?? 'failed'}`);
    for (const d of (unit as ComponentResult).diagnosis ?? []) lines.push(`      ${style.yellow('↳')} ${d}`);
  }
  for (const unit of units.filter((u) => u.state === 'blocked'))
    lines.push(
      `  ${style.yellow('⊘')} ${unit.name}: ${words.blockedBy} ${unit.blockedBy ?? 'a failed dependency'}`,
    );
  const notStarted = units.filter((u) => u.state === 'not-started');
  if (notStarted.length > 0) {
    lines.push(
      `  - not started (${notStarted[0].reason ?? 'run ended'}): ${notStarted.map((u) => u.name).join(', ')}`,
    );
  }
  for (const step of nextSteps(result)) lines.push(`  ${style.dim('→')} ${step}`);
  const cost: string[] = [];
  if (extras.skippedUnchanged !== undefined)
    cost.push(`${extras.skippedUnchanged} unchanged objects not written`);
  if (extras.requests) cost.push(`${extras.requests.total} API requests (${extras.requests.writes} writes)`);
  if (cost.length > 0) lines.push(style.dim(`  ${cost.join(', ')}`));
  if (extras.prune) lines.push(...renderRunSummary(extras.prune, {}, style).map((l) => `  ${l}`));
  if (extras.orphans && extras.orphans.length > 0) {
    lines.push(
      style.yellow(
        `  ${extras.orphans.length} object(s) left the manifests but are still deployed; run deploy --prune to delete them:`,
      ),
    );
    for (const ref of extras.orphans.slice(0, 20)) lines.push(`      ${ref}`);
    if (extras.orphans.length > 20) lines.push(`      … and ${extras.orphans.length - 20} more`);
  }
  return lines;
}
