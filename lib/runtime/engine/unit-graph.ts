import { assertGraphIsClosedAndAcyclic, ComponentGraph, isGating } from '../../graph';

/** `from` may start only once `to` is done. */
export interface UnitNeed {
  readonly from: string;
  readonly to: string;
}

/**
 * What the scheduler orders, and nothing else: unit names and the needs between them. Deploy and
 * verify make it from the component graph's gating edges ({@link unitGraphOf}); destroy and prune
 * from their deletion units, reversed (a unit needs its dependants gone).
 */
export interface UnitGraph {
  readonly units: readonly string[];
  readonly needs: readonly UnitNeed[];
}

/**
 * The units of a rollout: one per component, a need per gating edge (`runtime` edges never gate).
 * Throws, naming the component, when an edge points outside the graph or the edges form a cycle.
 */
export function unitGraphOf(graph: ComponentGraph): UnitGraph {
  assertGraphIsClosedAndAcyclic(graph);
  return {
    units: graph.components.map((c) => c.name),
    needs: graph.edges.filter((e) => isGating(e.kind)).map((e) => ({ from: e.from, to: e.to })),
  };
}
