/**
 * How strongly one component needs another.
 *
 * - `ready`: the dependency must be verified (ready) before the dependant starts.
 * - `completed`: the dependency is a Job that must have succeeded before the dependant starts.
 * - `same-node`: the dependant's pods need the dependency's pods on the same node
 *   (the OVN agent before nova-compute). Gating: the dependency must be verified first.
 * - `runtime`: a soft dependency reached through the service catalogue at run time. Recorded for
 *   documentation and graphs; it never gates a rollout and may form cycles.
 */
export type EdgeKind = 'ready' | 'completed' | 'same-node' | 'runtime';

/** Every edge kind, in the order used when rendering. */
export const EDGE_KINDS: readonly EdgeKind[] = ['ready', 'completed', 'same-node', 'runtime'];

/** True when the edge must be satisfied before the dependant may start. */
export function isGating(kind: EdgeKind): boolean {
  return kind !== 'runtime';
}

export function isEdgeKind(value: string): value is EdgeKind {
  return (EDGE_KINDS as readonly string[]).includes(value);
}
