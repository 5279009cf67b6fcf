import { isGating } from '../../lib/graph';
import { BOOTSTRAP_UNIT } from '../../lib/graph';
import { DependencyUnit, planUnits } from '../../lib/export';
import { NAMESPACE, referenceGraph, smallCloud, workload } from './fixtures';
import { graphFromManifests } from '../../lib/graph';

const summary = (units: readonly DependencyUnit[]) =>
  units.map((u) => ({
    name: u.name,
    path: u.path,
    components: u.components,
    dependsOn: u.dependsOn.map((d) => `${d.unit}:${d.rule}`),
    level: u.level,
  }));

describe('dependency units', () => {
  test('a service is one unit unless its components gate each other; runtime edges never gate', () => {
    // WHEN
    const { units } = planUnits(smallCloud());

    // THEN cache and agent stay whole, keystone is split, the namespace is the bootstrap unit, a
    // same-node edge becomes "ready everywhere" and agent's runtime edge is gone
    expect(summary(units)).toEqual([
      { name: 'bootstrap', path: 'bootstrap', components: [], dependsOn: [], level: 0 },
      { name: 'agent', path: 'agent', components: ['agent'], dependsOn: ['bootstrap:ready'], level: 1 },
      {
        name: 'cache',
        path: 'cache',
        components: ['cache-a', 'cache-b'],
        dependsOn: ['bootstrap:ready'],
        level: 1,
      },
      { name: 'db', path: 'db', components: ['db'], dependsOn: ['bootstrap:ready'], level: 1 },
      {
        name: 'keystone-db-sync',
        path: 'keystone/keystone-db-sync',
        components: ['keystone-db-sync'],
        dependsOn: ['db:ready'],
        level: 2,
      },
      {
        name: 'keystone-api',
        path: 'keystone/keystone-api',
        components: ['keystone-api'],
        dependsOn: ['cache:ready', 'keystone-db-sync:ready'],
        level: 3,
      },
      {
        name: 'compute',
        path: 'compute',
        components: ['compute'],
        dependsOn: ['agent:ready-everywhere', 'keystone-api:ready'],
        level: 4,
      },
    ]);
  });

  test('two services that need each other (through different components) are split', () => {
    // GIVEN a -> b for a-api, b -> a for b-api: whole services would form a cycle
    const graph = graphFromManifests([
      workload('a', 'a-db'),
      workload('a', 'a-api', 'b-db:ready'),
      workload('b', 'b-db'),
      workload('b', 'b-api', 'a-db:ready'),
    ]);

    // WHEN
    const { units } = planUnits(graph);

    // THEN
    expect(summary(units).map((u) => `${u.name}<-${u.dependsOn.join('+')}`)).toEqual([
      'a-db<-',
      'b-db<-',
      'a-api<-b-db:ready',
      'b-api<-a-db:ready',
    ]);
  });

  test('a component named like another service is rejected with both names and the fix', () => {
    // GIVEN keystone is split (db-sync gates api) and one of its components is called "cache"
    const graph = graphFromManifests([
      workload('cache', 'cache-a'),
      workload('keystone', 'keystone-db-sync'),
      workload('keystone', 'cache', 'keystone-db-sync:completed'),
    ]);

    // THEN
    expect(() => planUnits(graph)).toThrow(
      '[cache-a] component cache-a of service cache and component cache of service keystone (cache) would both export as unit "cache"; rename one of them',
    );
  });

  test('"bootstrap" is reserved for services too', () => {
    expect(() => planUnits(graphFromManifests([NAMESPACE, workload('bootstrap', 'bootstrap-api')]))).toThrow(
      'a service or component is named "bootstrap"',
    );
  });

  test('the reference cloud: every gating edge crosses units and is a dependency, no runtime edge is', () => {
    // GIVEN
    const graph = referenceGraph();

    // WHEN
    const { units } = planUnits(graph);

    // THEN
    const unitOf = new Map(units.flatMap((u) => u.components.map((c) => [c, u] as const)));
    const levelOf = new Map(units.map((u) => [u.name, u.level]));
    for (const edge of graph.edges) {
      const from = unitOf.get(edge.from) as DependencyUnit;
      const to = unitOf.get(edge.to) as DependencyUnit;
      if (isGating(edge.kind)) {
        expect(from.name).not.toBe(to.name);
        expect(from.dependsOn.map((d) => d.unit)).toContain(to.name);
        expect(levelOf.get(from.name)).toBeGreaterThan(levelOf.get(to.name) as number);
      }
    }
    const gating = new Set(
      graph.edges
        .filter((e) => isGating(e.kind))
        .map((e) => `${unitOf.get(e.from)?.name}>${unitOf.get(e.to)?.name}`),
    );
    for (const unit of units.filter((u) => u.name !== BOOTSTRAP_UNIT)) {
      for (const dependency of unit.dependsOn.filter((d) => d.unit !== BOOTSTRAP_UNIT)) {
        expect(gating).toContain(`${unit.name}>${dependency.unit}`);
      }
    }
    // AND every object is in exactly one unit
    expect(units.flatMap((u) => u.objects).length).toBe(
      graph.bootstrap.length + graph.components.flatMap((c) => c.objects).length,
    );
    // AND the same graph always gives the same plan
    expect(planUnits(referenceGraph())).toEqual(planUnits(graph));
  });
});
