import { Annotations, graphFromManifests, SeveralCloudsError } from '../../lib/graph';
import { deploy } from '../../lib/runtime/operations/deploy';
import { destroy } from '../../lib/runtime/operations/destroy';
import { plan } from '../../lib/runtime/operations/plan';
import { InMemoryCluster } from '../../lib/testing/in-memory-cluster';
import { component, deployment, twoComponentCloud } from '../runtime/support/manifests';

const BOTH = [...twoComponentCloud('prod'), ...twoComponentCloud('staging')];

describe('graphFromManifests of several clouds', () => {
  test('refuses to merge two clouds by component name, naming both', () => {
    // WHEN / THEN
    expect(() => graphFromManifests(BOTH)).toThrow(SeveralCloudsError);
    expect(() => graphFromManifests(BOTH)).toThrow(
      "the manifests hold several clouds (prod, staging); choose one with graphFromManifests(objects, { cloud: 'prod' })",
    );
  });

  test("builds the chosen cloud's graph from its objects only", () => {
    // WHEN
    const graph = graphFromManifests(BOTH, { cloud: 'staging' });

    // THEN
    expect(
      graph.components.map((c) => [c.name, c.cloud, c.objects.map((o) => o.metadata.namespace)]),
    ).toEqual([
      ['keystone-api', 'staging', ['staging']],
      ['mariadb', 'staging', ['staging']],
    ]);
    expect(graph.bootstrap.map((o) => o.metadata.name)).toEqual(['staging']);
  });

  test('an object without a cloud among several clouds belongs to none: named, not guessed', () => {
    const stray = component('memcached', {}, deployment('memcached'))[0];
    const annotations = { ...stray.metadata.annotations };
    delete annotations[Annotations.CLOUD];
    const objects = [...BOTH, { ...stray, metadata: { ...stray.metadata, annotations } }];
    expect(() => graphFromManifests(objects, { cloud: 'prod' })).toThrow(
      'the manifests hold several clouds (prod, staging), and Deployment/openstack/memcached belongs to none: add the stackwright.io/cloud annotation of its cloud',
    );
  });
});

describe('deploy, plan and destroy of one of several clouds', () => {
  test('without the option cloud they refuse before sending a request', async () => {
    const cluster = new InMemoryCluster();
    for (const operation of [
      () => deploy(BOTH, { cluster }),
      () => plan(BOTH, { cluster }),
      () => destroy(BOTH, { cluster }),
    ])
      await expect(operation()).rejects.toThrow(
        "the manifests hold several clouds (prod, staging); pass the option cloud: 'prod' to choose one",
      );
    expect(cluster.all()).toEqual([]);
  });

  test('with the option cloud each cloud gets its own inventory, and destroying one leaves the other', async () => {
    // GIVEN
    const cluster = new InMemoryCluster();

    // WHEN
    const prod = await deploy(BOTH, { cluster, cloud: 'prod' });
    const staging = await deploy(BOTH, { cluster, cloud: 'staging' });
    const planned = await plan(BOTH, { cluster, cloud: 'prod' });
    const destroyed = await destroy(BOTH, { cluster, cloud: 'staging' });

    // THEN
    expect([prod.ok, staging.ok, destroyed.ok]).toEqual([true, true, true]);
    expect([prod.inventory, staging.inventory].map((i) => `${i.namespace}/${i.name}`)).toEqual([
      'prod/stackwright-inventory-prod',
      'staging/stackwright-inventory-staging',
    ]);
    expect(planned.counts).toMatchObject({ create: 0, prune: 0 });
    expect(
      cluster
        .all()
        .filter((o) => o.kind === 'Deployment')
        .map((o) => `${o.metadata.namespace}/${o.metadata.name}`)
        .sort(),
    ).toEqual(['prod/keystone-api', 'prod/mariadb']);
  });
});
