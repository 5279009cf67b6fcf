import { ExitCode } from '../exit-codes';
import { CliIo } from '../io';
import { style as makeStyle } from '../render/ansi';
import { useColor } from '../render/reporter';
import { locate } from './cluster-command';
import { GlobalOptions, loadGraph, withCluster } from './common';
import { graphHash, inventoryHashes, inventoryRef, objectsNotIn, readInventory, verify } from '../../runtime';

/**
 * `stackwright status [dir]`: a snapshot, no waiting: what the inventory records (last deploy,
 * whether the graph changed since, objects that left the manifests) and each component's state
 * right now. Informational: exit 0 whenever the cluster answered.
 */
export async function statusCommand(
  io: CliIo,
  dir: string | undefined,
  global: GlobalOptions,
): Promise<number> {
  const { graph } = loadGraph(io, dir, global.cloud);
  const location = locate(graph);
  return withCluster(io, global, async (cluster) => {
    const inventory = await readInventory(cluster.port, location);
    const result = await verify(graph, cluster.port, {
      waitMs: 0,
      diagnose: false,
      signal: io.signal,
      recordedHashes: inventoryHashes(inventory),
    });
    const orphans = inventory ? objectsNotIn(inventory, graph).map(inventoryRef) : [];
    const graphChanged = inventory ? inventory.graphHash !== graphHash(graph) : undefined;
    if (global.json) {
      io.stdout.write(
        JSON.stringify({
          type: 'status',
          context: cluster.context,
          inventory: inventory
            ? {
                ...location,
                state: inventory.state,
                objects: inventory.objects.length,
                graphChanged,
                orphans,
              }
            : null,
          counts: result.counts,
          components: result.components.map((c) => ({
            name: c.name,
            state: c.state === 'failed' ? 'not-ready' : c.state,
            reason: c.reason,
          })),
        }) + '\n',
      );
      return ExitCode.OK;
    }
    const s = makeStyle(useColor(io, global.color));
    const lines: string[] = [];
    if (!inventory)
      lines.push(
        `No inventory for cloud ${location.cloud} in namespace ${location.namespace} (${cluster.context}): never deployed here.`,
      );
    else {
      lines.push(
        `Cloud ${location.cloud} in namespace ${location.namespace} (${cluster.context}): inventory ${inventory.state}, ${inventory.objects.length} objects` +
          (graphChanged ? s.yellow('; the component graph changed since the last deploy') : ''),
      );
    }
    const width = Math.max(12, ...result.components.map((c) => c.name.length));
    for (const c of result.components) {
      const ready = c.state === 'verified';
      const mark = ready ? s.green('✓') : s.yellow('…');
      lines.push(`  ${mark} ${c.name.padEnd(width)} ${ready ? 'ready' : `not ready: ${c.reason ?? ''}`}`);
    }
    lines.push(`${result.counts.verified}/${result.components.length} components ready`);
    if (orphans.length > 0)
      lines.push(
        s.yellow(
          `${orphans.length} deployed object(s) are no longer in the manifests (deploy --prune deletes them): ${orphans.join(', ')}`,
        ),
      );
    io.stdout.write(lines.join('\n') + '\n');
    return ExitCode.OK;
  });
}
