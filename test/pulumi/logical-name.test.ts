import { componentOfLogicalName, kindRef, objectLogicalName } from '../../lib/pulumi';
import { fixtureObject } from './support/fixture-cloud';

describe('logical names', () => {
  test('component, kind, namespace and name; bootstrap objects have no component', () => {
    // GIVEN
    const deployment = fixtureObject('apps/v1', 'Deployment', 'keystone-api', { namespace: 'openstack' });
    const namespace = fixtureObject('v1', 'Namespace', 'openstack');

    // THEN
    expect(objectLogicalName(deployment, 'keystone-api')).toBe(
      'keystone-api:Deployment:openstack/keystone-api',
    );
    expect(objectLogicalName(namespace, undefined)).toBe('Namespace:openstack');
    expect(objectLogicalName(namespace, undefined, 'east')).toBe('east:Namespace:openstack');
  });

  test('custom kinds carry their group; built-in kinds do not, whatever their version', () => {
    expect(kindRef('k8s.mariadb.com/v1alpha1', 'MariaDB')).toBe('MariaDB.k8s.mariadb.com');
    expect(kindRef('autoscaling/v1', 'HorizontalPodAutoscaler')).toBe('HorizontalPodAutoscaler');
    expect(kindRef('autoscaling/v2', 'HorizontalPodAutoscaler')).toBe('HorizontalPodAutoscaler');
  });

  test('the component of a logical name is read back, with or without a prefix', () => {
    expect(componentOfLogicalName('keystone-api:Deployment:openstack/keystone-api')).toBe('keystone-api');
    expect(componentOfLogicalName('Namespace:openstack')).toBeUndefined();
    expect(componentOfLogicalName('east:db:StatefulSet:openstack/db', 'east')).toBe('db');
    expect(() => componentOfLogicalName('keystone-api')).toThrow(
      '"keystone-api" is not a Stackwright object name',
    );
    expect(() => componentOfLogicalName('west:db:StatefulSet:openstack/db', 'east')).toThrow(
      'does not start with the resource prefix "east:"',
    );
  });
});
