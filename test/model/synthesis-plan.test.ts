import { ApiObject, App, Chart, Testing } from 'cdk8s';
import { Cloud, Component } from '../../lib/model';

/** A cloud with two components, `a` depending on `b`, each with a ConfigMap. */
function smallCloud(
  app: App,
  id = 'prod',
  namespace = 'openstack',
): { cloud: Cloud; a: Component; b: Component } {
  const cloud = new Cloud(app, id, { namespace });
  const a = new Component(cloud, 'a');
  const b = new Component(cloud, 'b');
  for (const c of [a, b])
    new ApiObject(c, 'config', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${c.componentName}-config` },
    });
  a.dependsOn(b);
  return { cloud, a, b };
}

describe('the synthesis plan', () => {
  test('rendering leaves the construct tree as it was: labels and annotations go to the rendered copies only', () => {
    // GIVEN a cloud whose objects carry no labels of ours
    const { cloud, a } = smallCloud(Testing.app());
    const object = a.node.findChild('config') as ApiObject;

    // WHEN it is synthesised
    const rendered = Testing.synth(cloud) as { metadata: { name: string; labels: Record<string, string> } }[];

    // THEN the rendered object has the component's labels and the construct's metadata has none
    const copy = rendered.find((o) => o.metadata.name === 'a-config');
    expect(copy?.metadata.labels).toMatchObject({
      'app.kubernetes.io/managed-by': 'stackwright',
      'app.kubernetes.io/component': 'a',
    });
    expect(object.metadata.getLabel('app.kubernetes.io/managed-by')).toBeUndefined();
    expect(object.metadata.getLabel('app.kubernetes.io/component')).toBeUndefined();
  });

  test('one plan serves a synthesis, and a change to the model after it is seen by the next one', () => {
    // GIVEN a synthesised cloud
    const { cloud, a, b } = smallCloud(Testing.app());
    Testing.synth(cloud);
    const first = cloud.plan();
    expect(cloud.plan()).toBe(first);

    // WHEN an edge is declared after the synthesis
    b.dependsOn(a);

    // THEN the next synthesis plans again and reports the cycle the new edge makes
    expect(cloud.plan()).not.toBe(first);
    expect(() => Testing.synth(cloud)).toThrow(/dependency cycle: a -> b -> a|dependency cycle: b -> a -> b/);
  });

  test('an edge to a lookup is resolved at synthesis, not when it is declared', () => {
    // GIVEN an edge to a lookup of components, declared before the component it finds exists
    const { cloud, a } = smallCloud(Testing.app());
    let reads = 0;
    a.dependsOn({
      get dependencyTargets() {
        reads++;
        return cloud.components.filter((c) => c.componentName === 'late');
      },
    });
    const late = new Component(cloud, 'late');

    // WHEN the cloud is synthesised
    expect(reads).toBe(0);
    Testing.synth(cloud);

    // THEN the edge reaches the component created after it
    expect(a.edges).toContainEqual({ target: late, kind: 'ready' });
  });

  test('a lookup that returns no list is refused at synthesis, naming the component', () => {
    // GIVEN an edge to a hand-written dependable whose targets are not a list
    const { cloud, a } = smallCloud(Testing.app());
    a.dependsOn({ dependencyTargets: 'b' as unknown as Component[] });

    // WHEN / THEN
    expect(() => Testing.synth(cloud)).toThrow(
      '[prod/a] dependsOn: the target\'s dependencyTargets is "b", not a list of components',
    );
  });

  test('an object added to an earlier cloud after a synthesis counts in a later cloud check of shared objects', () => {
    // GIVEN two clouds of one App, synthesised once without a conflict
    const app = Testing.app();
    const { cloud: east } = smallCloud(app, 'east', 'openstack-east');
    const { cloud: west } = smallCloud(app, 'west', 'openstack-west');
    Testing.synth(west);

    // WHEN a plain cluster-scoped object is added to each, with the same name
    for (const cloud of [east, west]) {
      const extras = new Component(cloud, 'extras');
      new ApiObject(extras, 'class', {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'fast' },
      });
    }

    // THEN the later cloud, synthesised alone, reports the object both render
    expect(() => Testing.synth(west)).toThrow(
      /StorageClass "fast" \(cluster-scoped\) is rendered by cloud east \(east\/extras\/class\) and by this cloud \(west\/extras\/class\)/,
    );
  });

  test('an object of a nested chart added after a synthesis is validated by the next one', () => {
    // GIVEN a synthesised cloud with a nested chart
    const { cloud } = smallCloud(Testing.app());
    const nested = new Chart(cloud, 'nested');
    Testing.synth(cloud);

    // WHEN an object outside every component is added to the nested chart (which the cloud's labels never see)
    new ApiObject(nested, 'stray', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'stray' },
    });

    // THEN the next synthesis refuses it
    expect(() => Testing.synth(cloud)).toThrow(/prod\/nested\/stray: a Deployment outside every component/);
  });
});
