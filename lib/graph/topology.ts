import { Edge } from './annotations';
import { isGating } from './edge-kind';

/**
 * Finds one cycle among the gating edges, returned as the path of names with the first repeated at
 * the end (`a -> b -> c -> a`), or undefined when the graph is acyclic. Deterministic: nodes and
 * edges are visited in sorted order, so the same graph always reports the same cycle.
 */
export function findCycle(names: readonly string[], edges: readonly Edge[]): string[] | undefined {
  const next = gatingAdjacency(names, edges);
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];

  const visit = (name: string): string[] | undefined => {
    state.set(name, 'visiting');
    stack.push(name);
    for (const to of next.get(name) ?? []) {
      const seen = state.get(to);
      if (seen === 'visiting') return [...stack.slice(stack.indexOf(to)), to];
      if (seen === undefined) {
        const found = visit(to);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(name, 'done');
    return undefined;
  };

  for (const name of [...names].sort()) {
    if (!state.has(name)) {
      const found = visit(name);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Orders names so that every gating dependency comes before its dependants; ties are broken by
 * name so the order never depends on construction order. Throws on a cycle (validate first).
 */
export function topologicalOrder(names: readonly string[], edges: readonly Edge[]): string[] {
  return topologicalLevels(names, edges).flat();
}

/**
 * Groups names into levels: level 0 has no gating dependency, level n depends on something in
 * level n-1 at most. Used for rendering and for the wave-barrier baseline; the runtime itself never
 * waits for a whole level.
 */
export function topologicalLevels(names: readonly string[], edges: readonly Edge[]): string[][] {
  const next = gatingAdjacency(names, edges);
  const level = new Map<string, number>();
  const remaining = new Map<string, number>(names.map((n) => [n, next.get(n)?.length ?? 0]));
  const dependants = new Map<string, string[]>();
  for (const [from, tos] of next) {
    for (const to of tos) dependants.set(to, [...(dependants.get(to) ?? []), from]);
  }
  let frontier = names.filter((n) => remaining.get(n) === 0);
  const levels: string[][] = [];
  while (frontier.length > 0) {
    levels.push([...frontier].sort());
    const upcoming: string[] = [];
    for (const done of frontier) {
      level.set(done, levels.length - 1);
      for (const dependant of dependants.get(done) ?? []) {
        const left = (remaining.get(dependant) ?? 0) - 1;
        remaining.set(dependant, left);
        if (left === 0) upcoming.push(dependant);
      }
    }
    frontier = upcoming;
  }
  if (level.size !== names.length) {
    const cycle = findCycle(names, edges);
    throw new Error(`dependency cycle: ${(cycle ?? []).join(' -> ')}`);
  }
  return levels;
}

function gatingAdjacency(names: readonly string[], edges: readonly Edge[]): Map<string, string[]> {
  const known = new Set(names);
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (!isGating(edge.kind) || !known.has(edge.from) || !known.has(edge.to)) continue;
    const targets = next.get(edge.from) ?? [];
    if (!targets.includes(edge.to)) targets.push(edge.to);
    next.set(edge.from, targets);
  }
  for (const targets of next.values()) targets.sort();
  return next;
}
