import { KubeObject } from '../../../lib/graph';
import { deploy } from '../../../lib/runtime/operations/deploy';
import { InMemoryCluster } from '../../../lib/testing/in-memory-cluster';
import { plan, renderPlan } from '../../../lib/runtime/operations/plan';
import { NoMatchError } from '../../../lib/runtime/kube/errors';
import { component, crd, deployment, testGraph, namespace, NS } from '../support/manifests';

function secret(password: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db-password', namespace: NS },
    data: { password: Buffer.from(password).toString('base64') },
  };
}

function withImage(object: KubeObject, image: string): KubeObject {
  return {
    ...object,
    spec: { ...(object.spec as object), template: { spec: { containers: [{ name: 'main', image }] } } },
  };
}

describe('plan', () => {
  test('shows creates, field-level updates, prunes and hides Secret values', async () => {
    // GIVEN a deployed cloud with a Secret
    const cluster = new InMemoryCluster();
    await deploy(
      testGraph(
        [namespace()],
        component('mariadb', {}, deployment('mariadb'), secret('old-password')),
        component('memcached', {}, deployment('memcached')),
      ),
      { cluster },
    );
    const mark = cluster.log.length;

    // WHEN the plan runs for a new image, a new password, a new component and without memcached
    const result = await plan(
      testGraph(
        [namespace()],
        component('mariadb', {}, withImage(deployment('mariadb'), 'mariadb:11'), secret('new-password')),
        component('keystone-api', { needs: { mariadb: 'ready' } }, deployment('keystone-api')),
      ),
      { cluster },
    );
    const text = renderPlan(result);

    // THEN
    const action = (ref: string) => result.objects.find((o) => o.ref === ref)?.action;
    expect(action(`Namespace/${NS}`)).toBe('unchanged');
    expect(action(`Deployment/${NS}/mariadb`)).toBe('update');
    expect(action(`Secret/${NS}/db-password`)).toBe('update');
    expect(action(`Deployment/${NS}/keystone-api`)).toBe('create');
    expect(action(`Deployment/${NS}/memcached`)).toBe('prune');
    expect(result.counts).toEqual({ create: 1, update: 2, unchanged: 1, prune: 1, conflict: 0, invalid: 0 });
    expect(text).toContain('~ Deployment/openstack/mariadb (mariadb): update');
    expect(text).toContain(
      '~ spec.template.spec.containers[name=main].image: "registry.example.com/mariadb:1.0" -> "mariadb:11"',
    );
    expect(text).toContain('~ data.password: "(sensitive)" -> "(sensitive)"');
    expect(text).not.toContain(Buffer.from('new-password').toString('base64'));
    expect(text).not.toContain('new-password');
    expect(text).toContain('Plan: 1 to create, 2 to update, 1 unchanged, 1 to prune.');
    // AND nothing was written
    expect(cluster.log.slice(mark).filter((c) => c.op === 'apply' || c.op === 'delete')).toEqual([]);
  });
});

describe('plan of objects the same deploy makes possible', () => {
  test('shows a custom resource whose CRD is created by this deploy as a create validated at apply', async () => {
    // GIVEN a CRD in the bootstrap and a custom resource of it, which the server cannot dry-run yet
    const cluster = new InMemoryCluster();
    const widget: KubeObject = {
      apiVersion: 'example.stackwright.io/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: NS },
    };
    cluster.failApply(`Widget/${NS}/w`, new NoMatchError('example.stackwright.io/v1', 'Widget'));

    // WHEN
    const result = await plan(testGraph([namespace(), crd('widgets')], component('widget', {}, widget)), {
      cluster,
    });

    // THEN
    const planned = result.objects.find((o) => o.ref === `Widget/${NS}/w`);
    expect(planned).toMatchObject({
      action: 'create',
      note: 'its CustomResourceDefinition is created by this deploy; validated at apply',
    });
    expect(result.counts.invalid).toBe(0);
  });

  test('reports a kind nobody serves as invalid', async () => {
    const cluster = new InMemoryCluster();
    const gadget: KubeObject = {
      apiVersion: 'example.stackwright.io/v1',
      kind: 'Gadget',
      metadata: { name: 'g', namespace: NS },
    };
    cluster.failApply(`Gadget/${NS}/g`, new NoMatchError('example.stackwright.io/v1', 'Gadget'));
    const result = await plan(testGraph([namespace()], component('gadget', {}, gadget)), { cluster });
    expect(result.objects.find((o) => o.ref === `Gadget/${NS}/g`)?.action).toBe('invalid');
  });
});
