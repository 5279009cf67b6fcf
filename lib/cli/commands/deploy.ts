import { ExitCode } from '../exit-codes';
import { CliIo } from '../io';
import { ProgressModel } from '../render/progress-model';
import { outputMode, Reporter, useColor } from '../render/reporter';
import { renderRunSummary } from '../render/summary';
import { exitCodeFor, locate, measured } from './cluster-command';
import { GlobalOptions, loadGraph, withCluster } from './common';
import { deploy, PreflightError, PreflightFinding } from '../../runtime';

export interface DeployCommandOptions {
  readonly concurrency: number;
  readonly forceConflicts?: boolean;
  /** Whole-run timeout, ms. */
  readonly timeoutMs?: number;
  /** Per-component timeout, ms. */
  readonly componentTimeoutMs?: number;
  readonly prune?: boolean;
  /** False with `--no-skip-unchanged`. */
  readonly skipUnchanged?: boolean;
  readonly preflight?: 'report' | 'strict' | 'off';
}

/**
 * `stackwright deploy [dir]`: ordered, verified rollout with the live view (terminal), one line
 * per event (CI, pipes) or JSON lines; a summary with counts, reasons and request counts.
 */
export async function deployCommand(
  io: CliIo,
  dir: string | undefined,
  options: DeployCommandOptions,
  global: GlobalOptions,
): Promise<number> {
  const { graph, dir: resolved } = loadGraph(io, dir, global.cloud);
  locate(graph); // a graph without a home for its inventory is a usage error, before connecting
  return withCluster(io, global, async (cluster) => {
    const mode = outputMode(io, global.json);
    const reporter = new Reporter(
      io,
      mode,
      useColor(io, global.color),
      ProgressModel.forGraph(graph),
      `stackwright deploy ${resolved} → ${cluster.context}`,
    );
    const onPreflight = (findings: readonly PreflightFinding[]) => {
      if (findings.length === 0) return;
      if (mode === 'json') reporter.json({ type: 'preflight', findings });
      else
        io.stdout.write(
          findings.map((f) => `preflight ${f.severity}: ${f.component}: ${f.message}`).join('\n') + '\n',
        );
    };
    let outcome;
    try {
      outcome = await measured(cluster, async () => {
        let started = false;
        return deploy(graph, {
          cluster: cluster.port,
          concurrency: options.concurrency,
          forceConflicts: options.forceConflicts,
          runTimeoutMs: options.timeoutMs,
          ...(options.componentTimeoutMs !== undefined
            ? { componentTimeoutMs: options.componentTimeoutMs }
            : {}),
          prune: options.prune,
          skipUnchanged: options.skipUnchanged,
          preflight: options.preflight,
          onPreflight,
          onUpgrade: (upgrade) => {
            if (mode === 'json') reporter.json({ type: 'upgrade', ...upgrade });
            else io.stdout.write(`${upgrade.phases.join('\n')}\n`);
          },
          signal: io.signal,
          onEvent: (event) => {
            if (!started) {
              started = true;
              reporter.begin();
            }
            reporter.onEvent(event);
          },
        });
      });
    } catch (error) {
      reporter.end();
      if (error instanceof PreflightError) {
        io.stderr.write(`stackwright: ${error.message}\n`);
        return ExitCode.FAILED;
      }
      throw error;
    }
    reporter.end();
    const result = outcome.value;
    const code =
      result.rollout.ok && result.prune && !result.prune.ok ? ExitCode.FAILED : exitCodeFor(result.rollout);
    reporter.summary(
      renderRunSummary(
        result.rollout,
        {
          skippedUnchanged: result.skippedUnchanged,
          requests: outcome.requests,
          orphans: result.inventory.orphans,
          prune: result.prune,
        },
        reporter.style,
      ),
    );
    reporter.json({
      type: 'summary',
      command: 'deploy',
      exitCode: code,
      ok: result.ok,
      outcome: result.rollout.outcome,
      counts: result.rollout.counts,
      durationMs: result.rollout.durationMs,
      skippedUnchanged: result.skippedUnchanged,
      inventory: result.inventory,
      ...(result.prune ? { prune: result.prune } : {}),
      ...(result.upgrade ? { upgrade: { from: result.upgrade.from, to: result.upgrade.to } } : {}),
      ...(outcome.requests ? { requests: outcome.requests } : {}),
    });
    return code;
  });
}
