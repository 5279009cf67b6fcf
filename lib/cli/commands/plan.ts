import { ExitCode } from '../exit-codes';
import { CliIo } from '../io';
import { useColor } from '../render/reporter';
import { locate, measured } from './cluster-command';
import { GlobalOptions, loadGraph, withCluster } from './common';
import { planGraph, readInventory, renderPlan } from '../../runtime';

export interface PlanCommandOptions {
  readonly forceConflicts?: boolean;
  readonly showUnchanged?: boolean;
}

/**
 * `stackwright plan [dir]`: server-side dry run of every object and a readable diff. Exit 0 when
 * the plan is clean, 4 when another field manager owns fields we set, 2 when the API server
 * rejects an object.
 */
export async function planCommand(
  io: CliIo,
  dir: string | undefined,
  options: PlanCommandOptions,
  global: GlobalOptions,
): Promise<number> {
  const { graph } = loadGraph(io, dir, global.cloud);
  const location = locate(graph);
  return withCluster(io, global, async (cluster) => {
    const { value: result, requests } = await measured(cluster, async () => {
      const inventory = await readInventory(cluster.port, location);
      return planGraph(graph, cluster.port, inventory, {
        forceConflicts: options.forceConflicts,
        signal: io.signal,
      });
    });
    const code =
      result.counts.conflict > 0
        ? ExitCode.CONFLICT
        : result.counts.invalid > 0
          ? ExitCode.USAGE
          : ExitCode.OK;
    if (global.json)
      io.stdout.write(
        JSON.stringify({ type: 'plan', exitCode: code, ...result, ...(requests ? { requests } : {}) }) + '\n',
      );
    else
      io.stdout.write(
        renderPlan(result, { color: useColor(io, global.color), showUnchanged: options.showUnchanged }),
      );
    return code;
  });
}
