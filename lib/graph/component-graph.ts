import { Annotations, decodeDependsOn, Edge } from './annotations';
import { KubeObject, objectRef } from './manifest';
import { findCycle, topologicalLevels } from './topology';
import { objectSource } from './load-manifests';
import { manifestProblems } from './manifest-contract';
import { HowToChooseCloud, selectCloud } from './cloud-selection';

/** How a program chooses: the `cloud` of `graphFromManifests`. */
const CLOUD_ARGUMENT: HowToChooseCloud = (example) =>
  `choose one with graphFromManifests(objects, { cloud: '${example}' })`;

/** One deployable unit as seen from its manifests. */
export interface GraphComponent {
  /** Unique name within the cloud, e.g. `keystone-api`. */
  readonly name: string;
  readonly service: string;
  readonly cloud: string;
  /** Construct path, for messages that point back at the code. */
  readonly constructPath: string;
  /** This component's outgoing edges (it needs `to`). */
  readonly edges: readonly Edge[];
  /** The objects the component owns, in synthesis order. */
  readonly objects: readonly KubeObject[];
}

/**
 * The component graph rebuilt from manifests alone: what `stackwright deploy dist/`, the Pulumi
 * adapter and the exporters work from. Objects without a component annotation are `bootstrap`
 * objects (only the kinds the kinds table marks `bootstrap`: namespaces, CRDs, shared RBAC and
 * configuration), applied before any component.
 */
export interface ComponentGraph {
  readonly components: readonly GraphComponent[];
  readonly bootstrap: readonly KubeObject[];
  readonly edges: readonly Edge[];
}

/** Which cloud of the manifests a graph is built for. */
export interface CloudChoice {
  /**
   * The cloud (its `stackwright.io/cloud` annotation) when the manifests hold several.
   * @default - the only cloud of the manifests
   */
  readonly cloud?: string;
  /**
   * How the caller chooses a cloud, for the message when the manifests hold several.
   * @default - the `cloud` argument of `graphFromManifests`
   */
  readonly how?: HowToChooseCloud;
}

/**
 * Builds the graph of one cloud from synthesised objects; throws, listing every problem, when
 * they break the manifest contract (see `manifest-contract.ts`, checked on all of them: two
 * clouds rendering one object is a duplicate) or the annotations are inconsistent, and when they
 * hold several clouds and `choice.cloud` names none of them (`SeveralCloudsError`: component
 * names are unique within a cloud only, see `selectCloud`).
 */
export function graphFromManifests(all: readonly KubeObject[], choice: CloudChoice = {}): ComponentGraph {
  const problems = manifestProblems(all, objectSource);
  if (problems.length > 0) throw new Error(`invalid manifests:\n  ${problems.join('\n  ')}`);
  const objects = selectCloud(all, choice.cloud, choice.how ?? CLOUD_ARGUMENT);
  const byName = new Map<string, { first: KubeObject; objects: KubeObject[] }>();
  const bootstrap: KubeObject[] = [];
  for (const object of objects) {
    const name = object.metadata.annotations?.[Annotations.COMPONENT];
    if (!name) {
      bootstrap.push(object);
      continue;
    }
    const entry = byName.get(name);
    if (entry) entry.objects.push(object);
    else byName.set(name, { first: object, objects: [object] });
  }

  const components: GraphComponent[] = [];
  for (const [name, { first, objects: owned }] of byName) {
    const annotations = first.metadata.annotations ?? {};
    for (const other of owned) {
      if (
        (other.metadata.annotations?.[Annotations.DEPENDS_ON] ?? '') !==
        (annotations[Annotations.DEPENDS_ON] ?? '')
      ) {
        throw new Error(
          `component ${name}: ${objectRef(other)} and ${objectRef(first)} disagree on ${Annotations.DEPENDS_ON}; re-synthesise instead of editing the YAML`,
        );
      }
    }
    components.push({
      name,
      service: annotations[Annotations.SERVICE] ?? name,
      cloud: annotations[Annotations.CLOUD] ?? '',
      constructPath: annotations[Annotations.CONSTRUCT_PATH] ?? name,
      edges: decodeDependsOn(name, annotations[Annotations.DEPENDS_ON]),
      objects: owned,
    });
  }
  components.sort((a, b) => a.name.localeCompare(b.name));
  const edges = components.flatMap((c) => c.edges);
  const graph: ComponentGraph = { components, bootstrap, edges };
  assertGraphIsClosedAndAcyclic(graph);
  return graph;
}

/** Every edge points at a known component and the gating edges form no cycle. */
export function assertGraphIsClosedAndAcyclic(graph: ComponentGraph): void {
  const names = graph.components.map((c) => c.name);
  const known = new Set(names);
  for (const edge of graph.edges) {
    if (!known.has(edge.to)) {
      throw new Error(
        `component ${edge.from} depends on ${edge.to} (${edge.kind}), which is not in the manifests`,
      );
    }
  }
  const cycle = findCycle(names, graph.edges);
  if (cycle) throw new Error(`dependency cycle between components: ${cycle.join(' -> ')}`);
}

/** Components grouped by topological level (see `topologicalLevels`). */
export function componentLevels(graph: ComponentGraph): string[][] {
  return topologicalLevels(
    graph.components.map((c) => c.name),
    graph.edges,
  );
}

/** Names of the components that (transitively, over gating edges) depend on `name`. */
export function transitiveDependants(graph: ComponentGraph, name: string): string[] {
  const found = new Set<string>();
  const queue = [name];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    for (const edge of graph.edges) {
      if (edge.to === current && edge.kind !== 'runtime' && !found.has(edge.from)) {
        found.add(edge.from);
        queue.push(edge.from);
      }
    }
  }
  return [...found].sort();
}
