import { CliIo } from '../io';
import { ProgressModel } from '../render/progress-model';
import { outputMode, Reporter, useColor } from '../render/reporter';
import { renderRunSummary } from '../render/summary';
import { exitCodeFor, locate, measured } from './cluster-command';
import { GlobalOptions, loadGraph, withCluster } from './common';
import { inventoryHashes, readInventory, verify } from '../../runtime';

/**
 * `stackwright verify [dir]`: reads every object (no writes) and reports each component verified
 * or not, with the object that is not Current, its status and a diagnosis. `--wait` gives
 * components that are still converging time to get there. Exit 0 when all verified, else 1.
 */
export async function verifyCommand(
  io: CliIo,
  dir: string | undefined,
  options: { waitMs: number },
  global: GlobalOptions,
): Promise<number> {
  const { graph, dir: resolved } = loadGraph(io, dir, global.cloud);
  const location = locate(graph); // a graph without a home for its inventory is a usage error, before connecting
  return withCluster(io, global, async (cluster) => {
    const reporter = new Reporter(
      io,
      outputMode(io, global.json),
      useColor(io, global.color),
      ProgressModel.forGraph(graph),
      `stackwright verify ${resolved} → ${cluster.context}`,
    );
    // What the last deploy applied: a Job its TTL removed since then still counts as completed.
    const recordedHashes = inventoryHashes(await readInventory(cluster.port, location));
    reporter.begin();
    let outcome;
    try {
      outcome = await measured(cluster, () =>
        verify(graph, cluster.port, {
          waitMs: options.waitMs,
          recordedHashes,
          onEvent: reporter.onEvent,
          signal: io.signal,
        }),
      );
    } finally {
      reporter.end();
    }
    const result = outcome.value;
    const code = exitCodeFor(result);
    reporter.summary(renderRunSummary(result, { requests: outcome.requests }, reporter.style));
    reporter.json({
      type: 'summary',
      command: 'verify',
      exitCode: code,
      ok: result.ok,
      counts: result.counts,
      components: result.components.map((c) => ({
        name: c.name,
        state: c.state,
        reason: c.reason,
        diagnosis: c.diagnosis,
      })),
    });
    return code;
  });
}
