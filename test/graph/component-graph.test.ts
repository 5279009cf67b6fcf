import { App } from 'cdk8s';
import {
  Annotations,
  componentLevels,
  decodeDependsOn,
  encodeDependsOn,
  graphFromManifests,
  KubeObject,
  renderDot,
  renderMermaid,
  transitiveDependants,
} from '../../lib/graph';
import { synthGraph } from '../../lib/testing';
import { referenceCloud } from '../../stacks/reference-cloud';

function object(component: string, dependsOn = ''): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: component,
      annotations: {
        [Annotations.COMPONENT]: component,
        ...(dependsOn ? { [Annotations.DEPENDS_ON]: dependsOn } : {}),
      },
    },
  };
}

describe('the manifest contract', () => {
  test('edges round-trip through the annotation, sorted', () => {
    const value = encodeDependsOn([
      { to: 'memcached', kind: 'ready' },
      { to: 'keystone-db-sync', kind: 'completed' },
    ]);
    expect(value).toBe('keystone-db-sync:completed,memcached:ready');
    expect(decodeDependsOn('keystone-api', value)).toEqual([
      { from: 'keystone-api', to: 'keystone-db-sync', kind: 'completed' },
      { from: 'keystone-api', to: 'memcached', kind: 'ready' },
    ]);
  });

  test('a malformed annotation is rejected with the component and the expected form', () => {
    expect(() => decodeDependsOn('a', 'b:soon')).toThrow(
      'component a: malformed stackwright.io/depends-on entry "b:soon"',
    );
  });

  test('the graph is rebuilt from manifests alone, with levels and dependants', () => {
    // GIVEN a diamond: d -> b, c -> a; plus a runtime edge that must not gate
    const graph = graphFromManifests([
      object('a'),
      object('b', 'a:ready'),
      object('c', 'a:completed'),
      object('d', 'b:ready,c:same-node'),
      object('e', 'd:runtime'),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'openstack' } },
    ]);

    // THEN
    expect(graph.bootstrap.map((o) => o.metadata.name)).toEqual(['openstack']);
    expect(componentLevels(graph)).toEqual([['a', 'e'], ['b', 'c'], ['d']]);
    expect(transitiveDependants(graph, 'a')).toEqual(['b', 'c', 'd']);
  });

  test('no component may take the name of the bootstrap unit', () => {
    // GIVEN a component named like the unit of the objects no component owns
    const objects = [object('bootstrap'), object('a', 'bootstrap:ready')];

    // THEN the exports, destroy and the progress view would mistake one for the other: refused
    expect(() => graphFromManifests(objects)).toThrow(
      'ConfigMap/bootstrap: component name "bootstrap" is reserved for the objects no component owns; rename the component',
    );
  });

  test('a dangling edge and a cycle in hand-edited YAML are reported', () => {
    expect(() => graphFromManifests([object('a', 'ghost:ready')])).toThrow(
      'component a depends on ghost (ready), which is not in the manifests',
    );
    expect(() => graphFromManifests([object('a', 'b:ready'), object('b', 'a:ready')])).toThrow(
      'dependency cycle between components: a -> b -> a',
    );
  });

  test('the reference cloud reads back as an acyclic graph in DOT and Mermaid', () => {
    const graph = synthGraph(referenceCloud(new App()));
    expect(graph.components.map((c) => c.name)).toContain('keystone-api');
    expect(renderDot(graph)).toMatchSnapshot();
    expect(renderMermaid(graph)).toMatchSnapshot();
  });
});
