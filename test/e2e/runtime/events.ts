import { ComponentGraph, isGating } from '../../../lib/graph';
import { RolloutEvent } from '../../../lib/runtime/events';
import { DeletionEvent } from '../../../lib/runtime/operations/delete-in-reverse-order';

/** Milliseconds of each component's start and verification, replayed from recorded events. */
export function intervals(events: readonly RolloutEvent[]): Map<string, { start: number; end?: number }> {
  const result = new Map<string, { start: number; end?: number }>();
  for (const e of events) {
    if (e.type === 'component-started') result.set(e.component, { start: Date.parse(e.at) });
    if (e.type === 'component-verified' || e.type === 'component-failed') {
      const entry = result.get(e.component);
      if (entry) entry.end = Date.parse(e.at);
    }
  }
  return result;
}

/**
 * Gating edges whose dependant started before its dependency was verified, by event order (the
 * engine emits synchronously, so order is exact where timestamps might tie).
 */
export function orderViolations(graph: ComponentGraph, events: readonly RolloutEvent[]): string[] {
  const index = (type: RolloutEvent['type'], component: string) =>
    events.findIndex((e) => e.type === type && 'component' in e && e.component === component);
  return graph.edges
    .filter((edge) => isGating(edge.kind))
    .filter((edge) => {
      const started = index('component-started', edge.from);
      const verified = index('component-verified', edge.to);
      return started >= 0 && (verified < 0 || started < verified);
    })
    .map((edge) => `${edge.from} started before ${edge.to} (${edge.kind}) was verified`);
}

/** Pairs of components that were running at the same time. */
export function overlapping(events: readonly RolloutEvent[]): [string, string][] {
  const spans = [...intervals(events)].filter(([, s]) => s.end !== undefined);
  const pairs: [string, string][] = [];
  for (let i = 0; i < spans.length; i++) {
    for (let j = i + 1; j < spans.length; j++) {
      const [a, sa] = spans[i];
      const [b, sb] = spans[j];
      if (sa.start < (sb.end ?? 0) && sb.start < (sa.end ?? 0)) pairs.push([a, b]);
    }
  }
  return pairs;
}

/** Gating edges whose dependency started deleting before its dependant was gone. */
export function deletionOrderViolations(graph: ComponentGraph, events: readonly DeletionEvent[]): string[] {
  const index = (type: DeletionEvent['type'], unit: string) =>
    events.findIndex((e) => e.type === type && 'unit' in e && e.unit === unit);
  return graph.edges
    .filter((edge) => isGating(edge.kind))
    .filter((edge) => {
      const dependantGone = index('unit-deleted', edge.from);
      const dependencyStarts = index('unit-deleting', edge.to);
      return dependencyStarts >= 0 && (dependantGone < 0 || dependencyStarts < dependantGone);
    })
    .map((edge) => `${edge.to} was deleted before its dependant ${edge.from} was gone`);
}
