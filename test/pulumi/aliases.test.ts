import { graphFromManifests } from '../../lib/graph';
import { aliasPlan, dependencyPlan } from '../../lib/pulumi';
import { fixtureManifests } from './support/fixture-cloud';

const plan = dependencyPlan(graphFromManifests(fixtureManifests()));

describe('aliasPlan', () => {
  test('a renamed component aliases itself and each of its objects under the former parent', () => {
    // WHEN
    const aliases = aliasPlan(plan, { componentAliases: { memcached: ['cache', 'memcache'] } });

    // THEN
    expect(Object.fromEntries(aliases)).toEqual({
      memcached: [{ name: 'cache' }, { name: 'memcache' }],
      'memcached:Service:openstack/memcached': [
        { name: 'cache:Service:openstack/memcached', parentComponent: 'cache' },
        { name: 'memcache:Service:openstack/memcached', parentComponent: 'memcache' },
      ],
      'memcached:StatefulSet:openstack/memcached': [
        { name: 'cache:StatefulSet:openstack/memcached', parentComponent: 'cache' },
        { name: 'memcache:StatefulSet:openstack/memcached', parentComponent: 'memcache' },
      ],
    });
  });

  test('an object alias reads its former parent from the former name', () => {
    // WHEN
    const aliases = aliasPlan(plan, {
      aliases: {
        'db:ConfigMap:openstack/db-config': [
          'database:ConfigMap:openstack/db-config',
          'ConfigMap:openstack/db-config',
        ],
        'keystone-api': ['keystone'],
      },
    });

    // THEN
    expect(aliases.get('db:ConfigMap:openstack/db-config')).toEqual([
      { name: 'database:ConfigMap:openstack/db-config', parentComponent: 'database' },
      { name: 'ConfigMap:openstack/db-config' },
    ]);
    expect(aliases.get('keystone-api')).toEqual([{ name: 'keystone' }]);
  });

  test('prefixed plans alias prefixed names', () => {
    // GIVEN
    const prefixed = dependencyPlan(graphFromManifests(fixtureManifests()), { resourcePrefix: 'east' });

    // WHEN
    const aliases = aliasPlan(prefixed, { componentAliases: { memcached: ['cache'] } }, 'east');

    // THEN
    expect(aliases.get('east:memcached:Service:openstack/memcached')).toEqual([
      { name: 'east:cache:Service:openstack/memcached', parentComponent: 'east:cache' },
    ]);
  });

  test('an alias for something the cloud does not contain is an error, not a silent replacement', () => {
    expect(() => aliasPlan(plan, { componentAliases: { memcache: ['cache'] } })).toThrow(
      'componentAliases: there is no component "memcache" in this cloud',
    );
    expect(() =>
      aliasPlan(plan, { aliases: { 'db:ConfigMap:openstack/nope': ['x:ConfigMap:openstack/nope'] } }),
    ).toThrow('aliases: there is no object or component named "db:ConfigMap:openstack/nope" in this cloud');
  });
});
