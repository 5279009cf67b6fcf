import { ComponentGraph, isGating } from '../../../lib/graph';
import { RunEvent } from '../../../lib/runtime/events';

/** Milliseconds of each component's start and verification, replayed from recorded events. */
export function intervals(events: readonly RunEvent[]): Map<string, { start: number; end?: number }> {
  const result = new Map<string, { start: number; end?: number }>();
  for (const e of events) {
    if (e.type === 'unit-started') result.set(e.unit, { start: Date.parse(e.at) });
    if (e.type === 'unit-done' || e.type === 'unit-failed') {
      const entry = result.get(e.unit);
      if (entry) entry.end = Date.parse(e.at);
    }
  }
  return result;
}

/**
 * Gating edges whose dependant started before its dependency was verified, by event order (the
 * engine emits synchronously, so order is exact where timestamps might tie).
 */
export function orderViolations(graph: ComponentGraph, events: readonly RunEvent[]): string[] {
  const index = (type: RunEvent['type'], component: string) =>
    events.findIndex((e) => e.type === type && 'unit' in e && e.unit === component);
  return graph.edges
    .filter((edge) => isGating(edge.kind))
    .filter((edge) => {
      const started = index('unit-started', edge.from);
      const verified = index('unit-done', edge.to);
      return started >= 0 && (verified < 0 || started < verified);
    })
    .map((edge) => `${edge.from} started before ${edge.to} (${edge.kind}) was verified`);
}

/** Pairs of components that were running at the same time. */
export function overlapping(events: readonly RunEvent[]): [string, string][] {
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
export function deletionOrderViolations(graph: ComponentGraph, events: readonly RunEvent[]): string[] {
  const index = (type: RunEvent['type'], unit: string) =>
    events.findIndex((e) => e.type === type && 'unit' in e && e.unit === unit);
  return graph.edges
    .filter((edge) => isGating(edge.kind))
    .filter((edge) => {
      const dependantGone = index('unit-done', edge.from);
      const dependencyStarts = index('unit-started', edge.to);
      return dependencyStarts >= 0 && (dependantGone < 0 || dependencyStarts < dependantGone);
    })
    .map((edge) => `${edge.to} was deleted before its dependant ${edge.from} was gone`);
}
