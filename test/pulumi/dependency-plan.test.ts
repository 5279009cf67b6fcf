import { App } from 'cdk8s';
import { Annotations, graphFromManifests, isGating, KubeObject } from '../../lib/graph';
import { dependencyPlan, DependencyPlan, PlannedObject, summarisePlan } from '../../lib/pulumi';
import { referenceCloud } from '../../stacks/reference-cloud';
import { fixtureManifests, fixtureObject } from './support/fixture-cloud';

function planOf(objects: readonly KubeObject[], resourcePrefix?: string): DependencyPlan {
  return dependencyPlan(graphFromManifests(objects), { resourcePrefix });
}

function object(plan: DependencyPlan, logicalName: string): PlannedObject {
  const found = plan.objects.find((o) => o.logicalName === logicalName);
  if (!found)
    throw new Error(
      `no ${logicalName} in the plan; have ${plan.objects.map((o) => o.logicalName).join(', ')}`,
    );
  return found;
}

function depsOf(plan: DependencyPlan, logicalName: string): string[] {
  return object(plan, logicalName).dependsOn.map((d) => `${d.name} (${d.reason})`);
}

const BOOTSTRAP_DEPS = [
  'ClusterRole:stackwright-reader (bootstrap)',
  'CustomResourceDefinition:backups.example.org (bootstrap)',
  'Namespace:openstack (namespace)',
  'Secret:openstack/registry-pull (bootstrap)',
];

describe('dependencyPlan', () => {
  test('dependsOn follows the gating edges exactly: every object of every gating target, no runtime target', () => {
    // GIVEN
    const graph = graphFromManifests(fixtureManifests());

    // WHEN
    const plan = dependencyPlan(graph);

    // THEN
    for (const component of graph.components) {
      const gatingTargets = component.edges.filter((e) => isGating(e.kind)).map((e) => e.to);
      const expected = graph.components
        .filter((c) => gatingTargets.includes(c.name))
        .flatMap((c) => plan.objects.filter((o) => o.component === c.name).map((o) => o.logicalName))
        .sort();
      for (const planned of plan.objects.filter((o) => o.component === component.name)) {
        const crossComponent = planned.dependsOn
          .filter((d) => d.reason === 'ready' || d.reason === 'completed' || d.reason === 'same-node')
          .map((d) => d.name)
          .sort();
        expect({ object: planned.logicalName, dependsOn: crossComponent }).toEqual({
          object: planned.logicalName,
          dependsOn: expected,
        });
      }
    }
  });

  test('runtime edges never gate', () => {
    // GIVEN keystone-api -> rabbitmq and nova-compute -> keystone-api are runtime edges
    const plan = planOf(fixtureManifests());

    // WHEN
    const keystoneDeps = depsOf(plan, 'keystone-api:Deployment:openstack/keystone-api');
    const novaDeps = depsOf(plan, 'nova-compute:DaemonSet:openstack/nova-compute');

    // THEN
    expect(keystoneDeps.filter((d) => d.startsWith('rabbitmq:'))).toEqual([]);
    expect(novaDeps.filter((d) => d.startsWith('keystone-api:'))).toEqual([]);
  });

  test('a workload waits for its gating components, the bootstrap objects and its own prerequisites', () => {
    // GIVEN
    const plan = planOf(fixtureManifests());

    // WHEN
    const deps = depsOf(plan, 'keystone-api:Deployment:openstack/keystone-api');

    // THEN
    expect(deps).toEqual(
      [
        ...BOOTSTRAP_DEPS,
        'db:ConfigMap:openstack/db-config (ready)',
        'db:Service:openstack/db (ready)',
        'db:StatefulSet:openstack/db (ready)',
        'keystone-api:ConfigMap:openstack/keystone-api (prerequisite)',
        'keystone-api:Secret:openstack/keystone-api (prerequisite)',
        'keystone-api:ServiceAccount:openstack/keystone-api (prerequisite)',
        'keystone-db-sync:Job:openstack/keystone-db-sync (completed)',
        'memcached:Service:openstack/memcached (ready)',
        'memcached:StatefulSet:openstack/memcached (ready)',
      ].sort(),
    );
  });

  test('objects that run no pods do not wait for their siblings', () => {
    // GIVEN
    const plan = planOf(fixtureManifests());

    // WHEN
    const deps = depsOf(plan, 'keystone-api:Service:openstack/keystone-api');

    // THEN
    expect(deps.filter((d) => d.startsWith('keystone-api:'))).toEqual([]);
  });

  test('same-node and completed edges gate with their own reason', () => {
    // GIVEN
    const plan = planOf(fixtureManifests());

    // THEN
    expect(depsOf(plan, 'nova-compute:DaemonSet:openstack/nova-compute')).toEqual(
      [...BOOTSTRAP_DEPS, 'ovn-controller:DaemonSet:openstack/ovn-controller (same-node)'].sort(),
    );
    expect(depsOf(plan, 'db:StatefulSet:openstack/db')).toEqual(
      [
        ...BOOTSTRAP_DEPS,
        'db:ConfigMap:openstack/db-config (prerequisite)',
        'db-credentials:Job:openstack/db-credentials (completed)',
      ].sort(),
    );
  });

  test('bootstrap objects wait only for their namespace; cluster-scoped ones for nothing', () => {
    // GIVEN
    const plan = planOf(fixtureManifests());

    // THEN
    expect(depsOf(plan, 'Secret:openstack/registry-pull')).toEqual(['Namespace:openstack (namespace)']);
    expect(depsOf(plan, 'ClusterRole:stackwright-reader')).toEqual([]);
    expect(depsOf(plan, 'Namespace:openstack')).toEqual([]);
    expect(object(plan, 'Namespace:openstack').parent).toBeUndefined();
  });

  test('a custom resource waits for its CRD and is registered as a CustomResource under its own token', () => {
    // GIVEN
    const plan = planOf(fixtureManifests());

    // WHEN
    const backup = object(plan, 'db-backup:Backup.example.org:openstack/db-nightly');

    // THEN
    expect(backup.typeToken).toBe('kubernetes:example.org/v1:Backup');
    expect(backup.resourceClass).toBe('custom');
    expect(backup.dependsOn).toContainEqual({
      name: 'CustomResourceDefinition:backups.example.org',
      reason: 'crd',
    });
  });

  test('type tokens, classes and parents follow apiVersion, kind and component', () => {
    // GIVEN
    const plan = planOf(fixtureManifests());

    // THEN
    expect(object(plan, 'keystone-api:Deployment:openstack/keystone-api')).toMatchObject({
      typeToken: 'kubernetes:apps/v1:Deployment',
      resourceClass: 'typed',
      component: 'keystone-api',
      parent: 'keystone-api',
    });
    expect(object(plan, 'keystone-api:Secret:openstack/keystone-api').typeToken).toBe(
      'kubernetes:core/v1:Secret',
    );
    expect(object(plan, 'keystone-api:PodDisruptionBudget:openstack/keystone-api').typeToken).toBe(
      'kubernetes:policy/v1:PodDisruptionBudget',
    );
    expect(object(plan, 'ClusterRole:stackwright-reader').typeToken).toBe(
      'kubernetes:rbac.authorization.k8s.io/v1:ClusterRole',
    );
  });

  test('objects come in an order where every dependency is registered first', () => {
    // GIVEN
    const plan = planOf(fixtureManifests());

    // WHEN
    const position = new Map(plan.objects.map((o, i) => [o.logicalName, i]));

    // THEN
    for (const o of plan.objects) {
      for (const d of o.dependsOn) {
        expect([
          d.name,
          (position.get(d.name) ?? Infinity) < (position.get(o.logicalName) ?? -Infinity),
        ]).toEqual([d.name, true]);
      }
    }
    expect(plan.components.map((c) => c.name)).toEqual([
      'db-credentials',
      'memcached',
      'ovn-controller',
      'rabbitmq',
      'db',
      'nova-compute',
      'db-backup',
      'keystone-db-sync',
      'keystone-api',
    ]);
  });

  test('names do not depend on construct paths: refactoring the tree changes nothing in the plan', () => {
    // GIVEN the same cloud with every construct moved under another scope
    const moved = fixtureManifests().map((o) => ({
      ...o,
      metadata: {
        ...o.metadata,
        annotations: Object.fromEntries(
          Object.entries(o.metadata.annotations ?? {}).map(([k, v]) => [
            k,
            k === Annotations.CONSTRUCT_PATH ? `fixture/refactored/${v}` : v,
          ]),
        ),
      },
    }));

    // WHEN
    const before = summarisePlan(planOf(fixtureManifests()));
    const after = summarisePlan(planOf(moved));

    // THEN
    expect(after).toEqual(before);
  });

  test('a resource prefix is prepended to every name and parent', () => {
    // GIVEN
    const plan = planOf(fixtureManifests(), 'east');

    // THEN
    expect(object(plan, 'east:keystone-api:Deployment:openstack/keystone-api').parent).toBe(
      'east:keystone-api',
    );
    expect(
      plan.objects.every(
        (o) => o.logicalName.startsWith('east:') && o.dependsOn.every((d) => d.name.startsWith('east:')),
      ),
    ).toBe(true);
    expect(plan.components.map((c) => c.logicalName)).toContain('east:db');
  });

  test('one Kubernetes object owned by two components is rejected', () => {
    // GIVEN
    const objects = [
      fixtureObject('v1', 'ConfigMap', 'shared', { component: 'a', namespace: 'x' }),
      fixtureObject('v1', 'ConfigMap', 'shared', { component: 'b', namespace: 'x' }),
    ];

    // THEN
    expect(() => planOf(objects)).toThrow('owned by both component a and component b');
  });

  test('a core kind without a typed class is rejected rather than registered under a wrong token', () => {
    // GIVEN
    const objects = [fixtureObject('v1', 'Frobnicator', 'x', { component: 'a', namespace: 'x' })];

    // THEN
    expect(() => planOf(objects)).toThrow(
      'no typed @pulumi/kubernetes class is registered for core kind Frobnicator',
    );
  });

  test('snapshot: the fixture cloud', () => {
    expect(summarisePlan(planOf(fixtureManifests()))).toMatchSnapshot();
  });
});

describe('dependencyPlan of the reference cloud', () => {
  const cloud = referenceCloud(new App(), 'openstack');
  const graph = graphFromManifests(cloud.toJson());
  const plan = dependencyPlan(graph);

  test('every object is planned once, with every gating edge of its component and no runtime edge', () => {
    expect(plan.objects).toHaveLength(
      graph.bootstrap.length + graph.components.reduce((n, c) => n + c.objects.length, 0),
    );
    for (const planned of plan.objects.filter((o) => o.component !== undefined)) {
      const component = graph.components.find((c) => c.name === planned.component);
      const gating = new Set(component?.edges.filter((e) => isGating(e.kind)).map((e) => e.to));
      const reached = new Set(
        planned.dependsOn
          .filter((d) => d.reason === 'ready' || d.reason === 'completed' || d.reason === 'same-node')
          .map((d) => d.name.split(':')[0]),
      );
      expect([planned.logicalName, [...reached].sort()]).toEqual([planned.logicalName, [...gating].sort()]);
    }
  });

  test('snapshot: the reference cloud (update with `npx jest test/pulumi -u` when the cloud changes)', () => {
    expect(summarisePlan(plan)).toMatchSnapshot();
  });
});
