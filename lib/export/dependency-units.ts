import {
  BOOTSTRAP_UNIT,
  ComponentGraph,
  EdgeKind,
  findCycle,
  GraphComponent,
  isGating,
  KubeObject,
  topologicalLevels,
} from '../graph';

/** How a gating edge of the component graph reaches a GitOps engine. */
export type UnitRule =
  /** The dependency unit must be Ready (workloads available, Jobs complete) first. */
  | 'ready'
  /** Same as `ready`, from a `same-node` edge: no engine orders pods per node (docs/gitops.md). */
  | 'ready-everywhere';

/** Which rule each edge kind maps to; `runtime` never gates, so it has none. */
export const UNIT_RULE_OF_EDGE: Readonly<Record<EdgeKind, UnitRule | undefined>> = {
  ready: 'ready',
  completed: 'ready',
  'same-node': 'ready-everywhere',
  runtime: undefined,
};

/** One dependency of a unit on another. */
export interface UnitDependency {
  readonly unit: string;
  readonly rule: UnitRule;
}

/**
 * What a GitOps engine applies and waits for as one: a whole service, or a single component when
 * the service's own components gate each other (an engine applies a unit all at once, so a gating
 * edge inside a unit would not be honoured).
 */
export interface DependencyUnit {
  /** DNS-1123 name, unique: the service's name, the component's name, or {@link BOOTSTRAP_UNIT}. */
  readonly name: string;
  readonly service: string;
  /** Folder of the unit, relative to the export root: `<service>` or `<service>/<component>`. */
  readonly path: string;
  readonly components: readonly string[];
  /** The unit's objects, in synthesis (apply) order. */
  readonly objects: readonly KubeObject[];
  /** Direct dependencies, sorted by unit name. */
  readonly dependsOn: readonly UnitDependency[];
  /** Longest path from a unit without dependencies (0 for those): the Argo CD sync wave. */
  readonly level: number;
}

/** The units of a component graph, in level order (ties by name). */
export interface UnitPlan {
  readonly units: readonly DependencyUnit[];
}

interface Draft {
  readonly name: string;
  readonly service: string;
  readonly path: string;
  readonly components: GraphComponent[];
}

/**
 * Groups a component graph into dependency units: one per service, except services whose
 * components gate each other or whose grouping would close a cycle between services, which get
 * one unit per component. Bootstrap objects form a unit every unit without dependencies depends on.
 * Deterministic: the same graph always gives the same plan.
 */
export function planUnits(graph: ComponentGraph): UnitPlan {
  const split = new Set(servicesWithInternalGating(graph));
  let drafts = draftUnits(graph, split);
  // A cycle between whole services (a -> b for one component, b -> a for another) is broken by
  // splitting every service on it; this terminates because the component graph itself is acyclic.
  for (;;) {
    const cycle = findCycle(
      drafts.map((d) => d.name),
      unitEdges(drafts).map(([from, to]) => ({ from, to, kind: 'ready' as const })),
    );
    if (!cycle) break;
    for (const name of cycle) split.add(serviceOfUnit(drafts, name));
    drafts = draftUnits(graph, split);
  }
  return { units: finish(graph, drafts) };
}

function servicesWithInternalGating(graph: ComponentGraph): string[] {
  const serviceOf = new Map(graph.components.map((c) => [c.name, c.service]));
  return graph.edges
    .filter((e) => isGating(e.kind) && serviceOf.get(e.from) === serviceOf.get(e.to))
    .map((e) => serviceOf.get(e.from) as string);
}

function draftUnits(graph: ComponentGraph, split: ReadonlySet<string>): Draft[] {
  const drafts = new Map<string, Draft>();
  for (const component of graph.components) {
    const name = split.has(component.service) ? component.name : component.service;
    const path = split.has(component.service) ? `${component.service}/${component.name}` : component.service;
    const draft = drafts.get(name);
    if (draft && draft.service !== component.service) {
      const other = draft.components[0];
      throw new Error(
        `[${component.constructPath}] component ${component.name} of service ${component.service} and component ${other.name} of service ${other.service} (${other.constructPath}) would both export as unit "${name}"; rename one of them`,
      );
    }
    if (draft) draft.components.push(component);
    else drafts.set(name, { name, service: component.service, path, components: [component] });
  }
  if (drafts.has(BOOTSTRAP_UNIT)) {
    throw new Error(
      `a service or component is named "${BOOTSTRAP_UNIT}", which the export reserves for the namespace and shared objects; rename it`,
    );
  }
  return [...drafts.values()];
}

function serviceOfUnit(drafts: readonly Draft[], name: string): string {
  return (drafts.find((d) => d.name === name) as Draft).service;
}

/** [from unit, to unit, rule] for every gating edge between two units, deduplicated. */
function unitEdges(drafts: readonly Draft[]): [string, string, UnitRule][] {
  const unitOf = new Map(drafts.flatMap((d) => d.components.map((c) => [c.name, d.name] as const)));
  const found = new Map<string, [string, string, UnitRule]>();
  for (const draft of drafts) {
    for (const edge of draft.components.flatMap((c) => c.edges)) {
      const rule = UNIT_RULE_OF_EDGE[edge.kind];
      const to = unitOf.get(edge.to) as string;
      if (rule === undefined || to === draft.name) continue;
      const key = `${draft.name}\0${to}`;
      // `ready` is the stronger statement when one unit reaches another by both kinds of edge.
      if (!found.has(key) || rule === 'ready') found.set(key, [draft.name, to, rule]);
    }
  }
  return [...found.values()];
}

function finish(graph: ComponentGraph, drafts: readonly Draft[]): DependencyUnit[] {
  const edges = unitEdges(drafts);
  const dependsOn = new Map<string, UnitDependency[]>();
  for (const [from, unit, rule] of edges)
    dependsOn.set(from, [...(dependsOn.get(from) ?? []), { unit, rule }]);
  const bootstrap: DependencyUnit = {
    name: BOOTSTRAP_UNIT,
    service: BOOTSTRAP_UNIT,
    path: BOOTSTRAP_UNIT,
    components: [],
    objects: graph.bootstrap,
    dependsOn: [],
    level: 0,
  };
  const hasBootstrap = graph.bootstrap.length > 0;
  const levels = topologicalLevels(
    drafts.map((d) => d.name),
    edges.map(([from, to]) => ({ from, to, kind: 'ready' as const })),
  );
  const offset = hasBootstrap ? 1 : 0;
  const units = levels.flatMap((names, level) =>
    names.map((name): DependencyUnit => {
      const draft = drafts.find((d) => d.name === name) as Draft;
      const own = [...(dependsOn.get(name) ?? [])].sort((a, b) => a.unit.localeCompare(b.unit));
      return {
        name,
        service: draft.service,
        path: draft.path,
        components: draft.components.map((c) => c.name),
        objects: draft.components.flatMap((c) => c.objects),
        dependsOn: own.length === 0 && hasBootstrap ? [{ unit: BOOTSTRAP_UNIT, rule: 'ready' }] : own,
        level: level + offset,
      };
    }),
  );
  return hasBootstrap ? [bootstrap, ...units] : units;
}
