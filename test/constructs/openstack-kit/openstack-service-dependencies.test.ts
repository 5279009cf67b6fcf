import {
  ApiService,
  DependencyGateOptions,
  MessagingEndpoint,
  OpenStackServiceDependencies,
  openstackServiceDependencies,
} from '../../../constructs';
import { Component, Service } from '../../../lib/model';
import { placement, SchedulingKey } from '../../../lib/scheduling';
import { baseCloud } from '../support/compute-network-fixture';

/** A service built on the block, with one API gated as `gate` says. */
class ExampleService extends Service {
  readonly deps: OpenStackServiceDependencies;
  readonly api: ApiService;
  constructor(
    scope: ReturnType<typeof baseCloud>['cloud'],
    inputs: Parameters<typeof openstackServiceDependencies>[1],
    gate?: DependencyGateOptions,
  ) {
    super(scope, 'example');
    this.deps = openstackServiceDependencies(this, inputs, {
      operatorKey: SchedulingKey.OPERATOR_GLANCE,
      image: 'example/service:1',
      syncCommand: ['example-manage', 'db', 'sync'],
      registration: {
        serviceType: 'example',
        catalogName: 'example',
        endpointUrl: 'http://example-api:1234',
      },
    });
    this.api = new ApiService(this, 'api', {
      placement: placement(SchedulingKey.IMAGE_API, SchedulingKey.ANY_API),
      image: 'example/service:1',
      command: ['example-api'],
      port: 1234,
      healthPath: '/',
      env: this.deps.env,
    });
    this.deps.gate(this.api, gate);
  }
  protected get entryPoints(): readonly Component[] {
    return [this.api];
  }
}

/** A service with no components of its own. */
class BareService extends Service {
  protected get entryPoints(): readonly Component[] {
    return [];
  }
}

function edges(component: Component): string[] {
  return component.edges.map((e) => `${e.target.componentName}:${e.kind}`).sort();
}

describe('openstackServiceDependencies', () => {
  test('builds the database chain, the vhost and the registration in the service, with its names', () => {
    // GIVEN
    const { cloud, keystone, database, messaging, cache } = baseCloud();
    // WHEN
    const service = new ExampleService(cloud, { keystone, database, messaging, cache });
    // THEN
    expect(service.deps.database.sync.componentName).toBe('example-db-sync');
    expect(service.deps.messaging?.init.componentName).toBe('example-mq-init');
    expect(service.deps.registration.job.componentName).toBe('example-ks-register');
    expect(service.deps.registration.credentials.secretName).toBe('example-keystone-user');
    expect(service.deps.registration.rotation?.componentName).toBe('example-ks-user-rotation');
  });

  test("env: the database connection, then the transport URL, then the authtoken user's name and password", () => {
    // GIVEN
    const { cloud, keystone, database, messaging, cache } = baseCloud();
    // WHEN
    const service = new ExampleService(cloud, { keystone, database, messaging, cache });
    // THEN
    expect(service.deps.env.map((e) => e.name)).toEqual([
      'DB_PASSWORD',
      'OS_DATABASE__CONNECTION',
      'MQ_PASSWORD',
      'OS_DEFAULT__TRANSPORT_URL',
      'OS_KEYSTONE_AUTHTOKEN__USERNAME',
      'OS_KEYSTONE_AUTHTOKEN__PASSWORD',
    ]);
  });

  test('gate: Keystone, database, memcached and the bus ready; db-sync, mq-init and registration completed', () => {
    // GIVEN
    const { cloud, keystone, database, messaging, cache } = baseCloud();
    // WHEN
    const service = new ExampleService(cloud, { keystone, database, messaging, cache });
    // THEN
    expect(edges(service.api)).toEqual([
      'cache:ready',
      'db:ready',
      'example-db-sync:completed',
      'example-ks-register:completed',
      'example-mq-init:completed',
      'keystone-api:ready',
      'mq:ready',
    ]);
  });

  test('gate options: no registration, no memcached, the bus for notifications only', () => {
    // GIVEN
    const { cloud, keystone, database, messaging, cache } = baseCloud();
    // WHEN
    const service = new ExampleService(
      cloud,
      { keystone, database, messaging, cache },
      { registration: false, cache: false, messaging: 'runtime' },
    );
    // THEN
    expect(edges(service.api)).toEqual([
      'db:ready',
      'example-db-sync:completed',
      'keystone-api:ready',
      'mq:runtime',
    ]);
  });

  test('without a message bus: no vhost, no transport URL, no edge on a bus', () => {
    // GIVEN
    const { cloud, keystone, database, cache } = baseCloud();
    // WHEN
    const service = new ExampleService(cloud, { keystone, database, cache });
    // THEN
    expect(service.deps.messaging).toBeUndefined();
    expect(service.components.map((c) => c.componentName)).not.toContain('example-mq-init');
    expect(service.deps.env.map((e) => e.name)).not.toContain('OS_DEFAULT__TRANSPORT_URL');
    expect(edges(service.api).filter((e) => e.startsWith('mq'))).toEqual([]);
  });

  test('with a message bus in the inputs, the vhost is typed as present', () => {
    // GIVEN
    const { cloud, keystone, database, messaging, cache } = baseCloud();
    const service = new BareService(cloud, 'bare');
    const bus: MessagingEndpoint = messaging;
    // WHEN
    const deps = openstackServiceDependencies(
      service,
      { keystone, database, cache, messaging: bus },
      {
        operatorKey: SchedulingKey.OPERATOR_GLANCE,
        image: 'example/service:1',
        syncCommand: ['true'],
        registration: { catalogName: 'bare' },
      },
    );
    // THEN: no optional chaining needed, `deps.messaging` is a ServiceMessaging
    expect(deps.messaging.vhost).toBe('bare');
  });
});
