import { formatDuration } from '../duration';
import { Style } from './ansi';
import { deletionNextSteps, nextSteps } from './hints';
import type { DeletionResult, RequestCounts, RolloutResult } from '../../runtime';

/** What a deploy adds to the rollout's own result in the summary. */
export interface DeploySummaryExtras {
  readonly skippedUnchanged?: number;
  readonly requests?: RequestCounts;
  readonly orphans?: readonly string[];
  readonly prune?: DeletionResult;
}

/**
 * The end-of-run summary: outcome, counts and duration on the first line, then every component
 * that did not verify with its reason (and diagnosis), then what the run cost.
 */
export function renderRolloutSummary(
  result: RolloutResult,
  extras: DeploySummaryExtras,
  style: Style,
): string[] {
  const c = result.counts;
  const verb = result.mode === 'deploy' ? 'Deploy' : 'Verify';
  const head = result.ok
    ? style.green(`✓ ${verb} succeeded in ${formatDuration(result.durationMs)}`)
    : style.red(
        `✗ ${verb} ${result.outcome === 'failed' ? 'failed' : result.outcome} after ${formatDuration(result.durationMs)}`,
      );
  const lines = [
    `${head}: ${c.verified} verified, ${c.failed} failed, ${c.blocked} blocked, ${c['not-started']} not started` +
      (c.skipped > 0 ? `, ${c.skipped} skipped` : ''),
  ];
  if (result.bootstrap.state === 'failed')
    lines.push(`  ${style.red('✗')} bootstrap: ${result.bootstrap.reason ?? 'failed'}`);
  for (const component of result.components) {
    if (component.state === 'failed') {
      lines.push(`  ${style.red('✗')} ${component.name}: ${component.reason ?? 'failed'}`);
      for (const d of component.diagnosis ?? []) lines.push(`      ${style.yellow('↳')} ${d}`);
    }
  }
  const blocked = result.components.filter((x) => x.state === 'blocked');
  for (const component of blocked)
    lines.push(
      `  ${style.yellow('⊘')} ${component.name}: blocked by ${component.blockedBy ?? 'a failed dependency'}`,
    );
  const notStarted = result.components.filter((x) => x.state === 'not-started');
  if (notStarted.length > 0) {
    lines.push(
      `  - not started (${notStarted[0].reason ?? 'run ended'}): ${notStarted.map((x) => x.name).join(', ')}`,
    );
  }
  for (const step of nextSteps(result)) lines.push(`  ${style.dim('→')} ${step}`);
  const cost: string[] = [];
  if (extras.skippedUnchanged !== undefined)
    cost.push(`${extras.skippedUnchanged} unchanged objects not written`);
  if (extras.requests) cost.push(`${extras.requests.total} API requests (${extras.requests.writes} writes)`);
  if (cost.length > 0) lines.push(style.dim(`  ${cost.join(', ')}`));
  if (extras.prune) lines.push(...renderDeletionSummary(extras.prune, style).map((l) => `  ${l}`));
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

/** Summary of a destroy or prune: counts, every unit that failed or was kept, what to do next. */
export function renderDeletionSummary(result: DeletionResult, style: Style): string[] {
  const verb = result.mode === 'destroy' ? 'Destroy' : 'Prune';
  const c = result.counts;
  const head = result.ok
    ? style.green(`✓ ${verb} succeeded in ${formatDuration(result.durationMs)}`)
    : style.red(`✗ ${verb} ${result.outcome} after ${formatDuration(result.durationMs)}`);
  const lines = [
    `${head}: ${c.deleted} deleted, ${c.failed} failed, ${c.blocked} kept, ${c['not-started']} not started`,
  ];
  for (const unit of result.units) {
    if (unit.state === 'failed') lines.push(`  ${style.red('✗')} ${unit.name}: ${unit.reason ?? 'failed'}`);
    if (unit.state === 'blocked') lines.push(`  ${style.yellow('⊘')} ${unit.name}: ${unit.reason ?? 'kept'}`);
  }
  for (const step of deletionNextSteps(result)) lines.push(`  ${style.dim('→')} ${step}`);
  return lines;
}
