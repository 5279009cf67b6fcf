import { App } from 'cdk8s';
import { graphFromManifests } from '../../lib/graph';
import { synthObjects } from '../../lib/testing';
import { minimalControlPlane } from '../../stacks/minimal-control-plane';

describe('minimal control plane', () => {
  const objects = synthObjects(minimalControlPlane(new App()));

  test('matches the snapshot', () => {
    expect(objects).toMatchSnapshot();
  });

  test('holds exactly Keystone, Glance, Placement, Nova, Neutron and their infrastructure', () => {
    const services = new Set(graphFromManifests(objects).components.map((c) => c.service));
    expect([...services].sort()).toEqual(
      [
        'agent-secrets', // the node agents' copies of the Secrets they read
        'db',
        'glance',
        'keystone',
        'memcached',
        'mq',
        'neutron',
        'nova',
        'ovsdb',
        'placement',
      ].sort(),
    );
  });
});
