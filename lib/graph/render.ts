import { ComponentGraph } from './component-graph';
import { EdgeKind } from './edge-kind';

const DOT_STYLE: Record<EdgeKind, string> = {
  ready: 'solid',
  completed: 'bold',
  'same-node': 'dashed',
  runtime: 'dotted',
};

const MERMAID_ARROW: Record<EdgeKind, string> = {
  ready: '-->',
  completed: '==>',
  'same-node': '-.->',
  runtime: '-.-',
};

/** Graphviz DOT: one cluster per service, edges labelled with their kind (dependant -> dependency). */
export function renderDot(graph: ComponentGraph): string {
  const lines = ['digraph stackwright {', '  rankdir=RL;', '  node [shape=box, fontname="Helvetica"];'];
  for (const [service, names] of byService(graph)) {
    lines.push(`  subgraph "cluster_${service}" {`, `    label="${service}";`);
    for (const name of names) lines.push(`    "${name}";`);
    lines.push('  }');
  }
  for (const e of sortedEdges(graph)) {
    lines.push(`  "${e.from}" -> "${e.to}" [label="${e.kind}", style=${DOT_STYLE[e.kind]}];`);
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}

/** Mermaid flowchart: one subgraph per service; `==>` completed, `-->` ready, `-.->` same-node, `-.-` runtime. */
export function renderMermaid(graph: ComponentGraph): string {
  const id = (name: string) => name.replace(/[^A-Za-z0-9_]/g, '_');
  const lines = ['flowchart RL'];
  for (const [service, names] of byService(graph)) {
    lines.push(`  subgraph ${id(`svc_${service}`)}["${service}"]`);
    for (const name of names) lines.push(`    ${id(name)}["${name}"]`);
    lines.push('  end');
  }
  for (const e of sortedEdges(graph)) {
    lines.push(`  ${id(e.from)} ${MERMAID_ARROW[e.kind]}|${e.kind}| ${id(e.to)}`);
  }
  return lines.join('\n') + '\n';
}

function byService(graph: ComponentGraph): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const c of graph.components) groups.set(c.service, [...(groups.get(c.service) ?? []), c.name]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => [s, n.sort()]);
}

function sortedEdges(graph: ComponentGraph) {
  return [...graph.edges].sort((a, b) => `${a.from} ${a.to}`.localeCompare(`${b.from} ${b.to}`));
}
