import { App } from 'cdk8s';
import { Cloud, Keystone, MariaDB, Memcached } from '../../index';
import {
  edgesOf,
  placementOf,
  summarise,
  synthComponent,
  synthObjects,
  synthService,
} from '../../lib/testing';

function smallCloud(): Cloud {
  const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
  const database = new MariaDB(cloud, 'db');
  const cache = new Memcached(cloud, 'memcached');
  new Keystone(cloud, 'keystone', { database, cache });
  return cloud;
}

describe('synthComponent and synthService', () => {
  test('return only the objects of the component or the service, in output order', () => {
    // GIVEN
    const cloud = smallCloud();

    // WHEN
    const api = synthComponent(cloud, 'keystone-api');
    const keystone = synthService(cloud, 'keystone');

    // THEN
    const all = synthObjects(cloud);
    expect(api.map((o) => o.metadata.annotations?.['stackwright.io/component'])).toEqual(
      api.map(() => 'keystone-api'),
    );
    expect(api.map((o) => o.kind)).toContain('Deployment');
    expect(keystone.length).toBeGreaterThan(api.length);
    expect(keystone).toEqual(
      all.filter((o) => o.metadata.annotations?.['stackwright.io/service'] === 'keystone'),
    );
    expect(keystone.filter((o) => api.includes(o))).toEqual(api);
  });

  test('synthesise each cloud once, however many parts are asked for', () => {
    // GIVEN
    const cloud = smallCloud();

    // WHEN
    const all = synthObjects(cloud);

    // THEN the same objects come back
    expect(synthObjects(cloud)).toBe(all);
    expect(all).toContain(synthComponent(cloud, 'keystone-api')[0]);
  });

  test('name the cloud and its components when the component does not exist', () => {
    // THEN
    expect(() => synthComponent(smallCloud(), 'keystone')).toThrow(
      /^\[prod\] no component named "keystone"; its components: .*keystone-api.*memcached/,
    );
  });

  test('validate the whole cloud, as cdk8s synth does', () => {
    // GIVEN a cycle, which only the finished tree shows
    const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
    const database = new MariaDB(cloud, 'db');
    const keystone = new Keystone(cloud, 'keystone', { database, cache: new Memcached(cloud, 'memcached') });
    database.server.dependsOn(keystone.api, 'ready');

    // THEN
    expect(() => synthComponent(cloud, 'memcached')).toThrow(/cycle/);
  });
});

describe('summarise and placementOf', () => {
  const api = synthComponent(smallCloud(), 'keystone-api');
  const deployment = api.find((o) => o.kind === 'Deployment');
  if (!deployment) throw new Error('keystone-api has no Deployment');

  test('placementOf reads the Yaook keys, one term per key, and the tolerations', () => {
    // THEN
    expect(placementOf(deployment)).toEqual({
      nodeSelectorTerms: ['identity.yaook.cloud/api', 'any.yaook.cloud/api'],
      nodeSelector: [],
      tolerations: [
        'any.yaook.cloud/api:NoExecute',
        'any.yaook.cloud/api:NoSchedule',
        'identity.yaook.cloud/api:NoExecute',
        'identity.yaook.cloud/api:NoSchedule',
      ],
    });
  });

  test('summarise keeps the reference, the edges, replicas, images and placement of a workload', () => {
    // WHEN
    const summary = summarise(api).find((s) => s.object === 'Deployment/openstack/keystone-api');

    // THEN
    expect(summary).toEqual({
      object: 'Deployment/openstack/keystone-api',
      dependsOn: edgesOf(deployment).map((e) => `${e.to}:${e.kind}`),
      replicas: 2,
      images: expect.arrayContaining(['registry.yaook.cloud/yaook/keystone:2025.1']),
      placement: placementOf(deployment),
    });
    expect(summary?.dependsOn).toEqual(expect.arrayContaining(['db:ready', 'keystone-db-sync:completed']));
    // AND an object without pods keeps its reference and edges only
    const service = summarise(api).find((s) => s.object.startsWith('Service/'));
    expect(Object.keys(service ?? {})).toEqual(['object', 'dependsOn']);
  });
});
