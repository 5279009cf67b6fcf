import {
  Annotations,
  ComponentGraph,
  Edge,
  encodeDependsOn,
  graphFromManifests,
  KubeObject,
  topologicalLevels,
} from '../../lib/graph';

/** kwok reads this pod annotation and turns the pod Ready that long after it started (scripts/cluster/kwok/). */
export const READY_DELAY = 'stackwright.io/e2e-ready-delay';

/** One benchmark graph: components with their readiness delay and their dependencies. */
export interface Shape {
  readonly name: string;
  readonly components: readonly {
    readonly name: string;
    readonly delayMs: number;
    readonly needs: readonly string[];
  }[];
}

/** a0 <- a1 <- … : every hand-off is on the critical path. */
export function chain(n: number, delayMs: number): Shape {
  return {
    name: `chain-${n}`,
    components: range(n).map((i) => ({ name: `c${i}`, delayMs, needs: i === 0 ? [] : [`c${i - 1}`] })),
  };
}

/** One root, n-1 leaves that need it: concurrency. */
export function fanOut(n: number, delayMs: number): Shape {
  return {
    name: `fan-out-${n}`,
    components: [
      { name: 'root', delayMs, needs: [] },
      ...range(n - 1).map((i) => ({ name: `leaf${i}`, delayMs, needs: ['root'] })),
    ],
  };
}

/** root <- n-2 middles <- sink: fan-out then fan-in. */
export function diamond(n: number, delayMs: number): Shape {
  const middles = range(n - 2).map((i) => `mid${i}`);
  return {
    name: `diamond-${n}`,
    components: [
      { name: 'root', delayMs, needs: [] },
      ...middles.map((name) => ({ name, delayMs, needs: ['root'] })),
      { name: 'sink', delayMs, needs: middles },
    ],
  };
}

/**
 * A spine of `links` components (spine0 <- spine1 <- …) with `leaves` leaves that need its first
 * link only: when spine0 is verified, spine1 and every leaf are ready at once, and the spine is the
 * critical path. Whether spine1 waits behind the leaves' Deployments in the controller-manager's
 * queue (20 requests/s by default) is what the start order decides.
 */
export function comb(links: number, leaves: number, spineMs: number, leafMs: number): Shape {
  return {
    name: `comb-${links}x${leaves}`,
    components: [
      ...range(links).map((i) => ({
        name: `spine${i}`,
        delayMs: spineMs,
        needs: i === 0 ? [] : [`spine${i - 1}`],
      })),
      ...range(leaves).map((i) => ({ name: `leaf${i}`, delayMs: leafMs, needs: ['spine0'] })),
    ],
  };
}

/**
 * `levels` levels of `width` parallel chains (component j of level i needs component j of level
 * i-1); in every level one component is slow, a different chain each time. A per-component
 * scheduler pays the slow delay about once per chain; a level barrier pays it on every level.
 */
export function skewedLevels(levels: number, width: number, fastMs: number, slowMs: number): Shape {
  return {
    name: `skewed-${levels}x${width}`,
    components: range(levels).flatMap((i) =>
      range(width).map((j) => ({
        name: `l${i}-c${j}`,
        delayMs: j === i % width ? slowMs : fastMs,
        needs: i === 0 ? [] : [`l${i - 1}-c${j}`],
      })),
    ),
  };
}

/** The manifests of a shape: per component a ConfigMap and a one-replica Deployment whose pod turns Ready after its delay. */
export function manifests(shape: Shape, cloud: string, namespace: string): KubeObject[] {
  const objects: KubeObject[] = [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: namespace, labels: { 'stackwright.io/bench': 'rollout' } },
    },
  ];
  for (const c of shape.components) {
    const annotations = {
      [Annotations.CLOUD]: cloud,
      [Annotations.COMPONENT]: c.name,
      [Annotations.SERVICE]: shape.name,
      [Annotations.CONSTRUCT_PATH]: `${cloud}/${c.name}`,
      ...(c.needs.length > 0
        ? { [Annotations.DEPENDS_ON]: encodeDependsOn(c.needs.map((to) => ({ to, kind: 'ready' as const }))) }
        : {}),
    };
    const labels = { 'app.kubernetes.io/name': c.name };
    objects.push(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `${c.name}-config`, namespace, annotations },
        data: { component: c.name },
      },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: c.name, namespace, annotations, labels },
        spec: {
          replicas: 1,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels, annotations: { [READY_DELAY]: `${c.delayMs}ms` } },
            spec: {
              containers: [{ name: 'main', image: `registry.example.com/${c.name}:1` }],
              terminationGracePeriodSeconds: 0,
            },
          },
        },
      },
    );
  }
  return objects;
}

/**
 * The same graph with level barriers: every component of level i depends on every component of
 * level i-1 — how sync waves (Argo CD) or phase-by-phase appliers (cli-utils) order it.
 */
export function withLevelBarriers(graph: ComponentGraph): ComponentGraph {
  const levels = topologicalLevels(
    graph.components.map((c) => c.name),
    graph.edges,
  );
  const levelOf = new Map(levels.flatMap((names, i) => names.map((n) => [n, i] as const)));
  const components = graph.components.map((c) => {
    const level = levelOf.get(c.name) ?? 0;
    const edges: Edge[] =
      level === 0 ? [] : levels[level - 1].map((to) => ({ from: c.name, to, kind: 'ready' }));
    return { ...c, edges };
  });
  return { components, bootstrap: graph.bootstrap, edges: components.flatMap((c) => c.edges) };
}

/** The graph of a shape's manifests. */
export function graphOf(shape: Shape, cloud: string, namespace: string): ComponentGraph {
  return graphFromManifests(manifests(shape, cloud, namespace));
}

/**
 * The physical limit of a shape: the longest dependency path, counting for every component its
 * readiness delay plus `perComponentMs` (one apply round trip, plus the measured controller latency
 * when calibrated).
 */
export function criticalPathMs(shape: Shape, perComponentMs: number): number {
  const byName = new Map(shape.components.map((c) => [c.name, c]));
  const memo = new Map<string, number>();
  const finish = (name: string): number => {
    const cached = memo.get(name);
    if (cached !== undefined) return cached;
    const c = byName.get(name);
    if (!c) throw new Error(`unknown component ${name}`);
    const value = Math.max(0, ...c.needs.map(finish)) + c.delayMs + perComponentMs;
    memo.set(name, value);
    return value;
  };
  return Math.max(...shape.components.map((c) => finish(c.name)));
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
