import { objectRef, renderDot, renderMermaid } from '../../graph';
import { ExitCode } from '../exit-codes';
import { CliIo } from '../io';
import { loadGraph, UsageError } from './common';

export type GraphFormat = 'dot' | 'mermaid' | 'json';

/**
 * `stackwright graph [dir]`: the component graph of synthesised manifests (of `cloud`, when they
 * hold several), as DOT, Mermaid or JSON.
 */
export function graphCommand(io: CliIo, dir: string | undefined, format: string, cloud?: string): number {
  if (format !== 'dot' && format !== 'mermaid' && format !== 'json') {
    throw new UsageError(`unknown graph format "${format}": use dot, mermaid or json`);
  }
  const { graph } = loadGraph(io, dir, cloud);
  if (format === 'dot') io.stdout.write(renderDot(graph));
  else if (format === 'mermaid') io.stdout.write(renderMermaid(graph));
  else {
    const json = {
      components: graph.components.map((c) => ({
        name: c.name,
        service: c.service,
        constructPath: c.constructPath,
        edges: c.edges.map((e) => ({ to: e.to, kind: e.kind })),
        objects: c.objects.map(objectRef),
      })),
      bootstrap: graph.bootstrap.map(objectRef),
    };
    io.stdout.write(JSON.stringify(json, null, 2) + '\n');
  }
  return ExitCode.OK;
}
