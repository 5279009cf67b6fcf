import { ExitCode } from '../exit-codes';
import { CliIo } from '../io';
import { ProgressModel } from '../render/progress-model';
import { outputMode, Reporter, useColor } from '../render/reporter';
import { renderRunSummary } from '../render/summary';
import { exitCodeFor, locate, measured } from './cluster-command';
import { GlobalOptions, loadGraph, UsageError, withCluster } from './common';
import { planDestroy, runDestroy } from '../../runtime';

export interface DestroyCommandOptions {
  readonly yes?: boolean;
  readonly concurrency: number;
  /** How long one component may take to disappear. */
  readonly componentTimeoutMs?: number;
  /**
   * `--timeout`, which meant the same per-component limit in destroy while it limits the whole run
   * in deploy. @deprecated kept until 0.3 with a warning; then `--timeout` limits the whole run here too.
   */
  readonly deprecatedTimeoutMs?: number;
  readonly cascade: 'foreground' | 'background';
}

/**
 * `stackwright destroy [dir]`: deletes the cloud in reverse dependency order, waiting until each
 * component's objects are gone before deleting what it needs. Asks first on a terminal; without a
 * terminal it needs `--yes`.
 */
export async function destroyCommand(
  io: CliIo,
  dir: string | undefined,
  options: DestroyCommandOptions,
  global: GlobalOptions,
): Promise<number> {
  const { graph, dir: resolved } = loadGraph(io, dir, global.cloud);
  const unitTimeoutMs = options.componentTimeoutMs ?? options.deprecatedTimeoutMs;
  if (options.deprecatedTimeoutMs !== undefined)
    io.stderr.write(
      'stackwright: warning: destroy --timeout is deprecated: it limits each component, which is what --component-timeout says; ' +
        'from 0.3 on --timeout will limit the whole run, as in deploy\n',
    );
  const location = locate(graph);
  // Usage errors before connecting: off a terminal there is nobody to ask.
  const confirmByPrompt = !options.yes;
  if (confirmByPrompt && (global.json || io.stdout.isTTY !== true))
    throw new UsageError('destroy deletes the whole cloud: pass --yes to confirm when not on a terminal');
  return withCluster(io, global, async (cluster) => {
    const plan = await planDestroy(graph, location, cluster.port);
    if (confirmByPrompt) {
      const question = `Destroy cloud ${plan.cloud} (${plan.components} components, ${plan.objects} objects${plan.orphans.length ? `, ${plan.orphans.length} only in the inventory` : ''}) on context ${cluster.context}?`;
      if (!(await io.confirm(question))) {
        io.stderr.write('stackwright: destroy cancelled\n');
        return ExitCode.OK;
      }
    }
    const reporter = new Reporter(
      io,
      outputMode(io, global.json),
      useColor(io, global.color),
      ProgressModel.forUnits(plan.units.map((u) => u.name)),
      `stackwright destroy ${resolved} → ${cluster.context}`,
    );
    reporter.begin();
    let outcome;
    try {
      outcome = await measured(cluster, () =>
        runDestroy(plan, cluster.port, {
          concurrency: options.concurrency,
          propagationPolicy: options.cascade === 'background' ? 'Background' : 'Foreground',
          ...(unitTimeoutMs !== undefined ? { unitTimeoutMs } : {}),
          signal: io.signal,
          onEvent: reporter.onEvent,
        }),
      );
    } finally {
      reporter.end();
    }
    const { deletion: result, orphans } = outcome.value;
    const code = exitCodeFor(result);
    reporter.summary(renderRunSummary(result, {}, reporter.style));
    reporter.json({
      type: 'summary',
      command: 'destroy',
      exitCode: code,
      ...result,
      orphans,
      ...(outcome.requests ? { requests: outcome.requests } : {}),
    });
    return code;
  });
}
