import { k8s } from 'cdk8s-plus-33';
import { Component, IDependable, Service } from '../../lib/model';
import { SchedulingKey } from '../../lib/scheduling';
import { CacheEndpoint, DatabaseEndpoint, MessagingEndpoint } from './endpoints';
import { keystoneAuthtokenConfig, keystoneAuthtokenEnv } from './keystone-authtoken';
import { IdentityEndpoint } from './endpoints';
import { KeystoneRegistration, KeystoneRegistrationProps } from './keystone-registration';
import { OsloValues } from './oslo-config';
import { ServiceDatabase, ServiceDatabaseProps } from './service-database';
import { ServiceMessaging } from './service-messaging';

/**
 * The inputs every OpenStack service with an API takes, named as in its props: pass the props.
 */
export interface OpenStackServiceInputs {
  /** Registration waits for its bootstrap; the service's components for its API. */
  readonly keystone: IdentityEndpoint & IDependable;
  readonly database: DatabaseEndpoint;
  /** Token caching of `[keystone_authtoken]`. */
  readonly cache: CacheEndpoint;
  /**
   * The message bus, on which the service gets its own vhost and user (`<svc>-mq-init`).
   * @default - no vhost
   */
  readonly messaging?: MessagingEndpoint;
}

export interface OpenStackServiceDependenciesProps {
  /** The service's operator key: its Jobs are scheduled with it. */
  readonly operatorKey: SchedulingKey;
  /** The service's image, which runs the schema migration. */
  readonly image: string;
  /** The schema migration, e.g. `['glance-manage', 'db_sync']`. */
  readonly syncCommand: string[];
  /** @default { section: 'database', option: 'connection' } */
  readonly connectionOption?: ServiceDatabaseProps['connectionOption'];
  /** The service's user and catalogue entry in Keystone. */
  readonly registration: Omit<KeystoneRegistrationProps, 'keystone' | 'operatorKey'>;
}

/** Which of the standard edges a component takes; see {@link OpenStackServiceDependencies.gate}. */
export interface DependencyGateOptions {
  /**
   * Wait for the registration Job, which creates the service user the component authenticates as.
   * @default true
   */
  readonly registration?: boolean;
  /** Wait for memcached. @default true */
  readonly cache?: boolean;
  /**
   * How the component needs the message bus, when the service has one: `ready` for RPC (the bus
   * ready and the vhost created), `runtime` for notifications only (a soft edge on the bus).
   * @default 'ready'
   */
  readonly messaging?: 'ready' | 'runtime';
}

/** What {@link openstackServiceDependencies} built, and how the service's components use it. */
export interface OpenStackServiceDependencies {
  /** `<svc>-db-credentials` → `<svc>-db-init` → `<svc>-db-sync`. */
  readonly database: ServiceDatabase;
  /** `<svc>-mq-credentials` → `<svc>-mq-init`, when the service has a message bus. */
  readonly messaging?: ServiceMessaging;
  /** `<svc>-ks-register`: the service user and catalogue entry. */
  readonly registration: KeystoneRegistration;
  /** `[keystone_authtoken]`: spread into the service's configuration defaults. */
  readonly authtokenConfig: OsloValues;
  /**
   * The database connection, the transport URL (with a message bus) and the
   * `[keystone_authtoken]` password, composed from their Secrets at pod start.
   */
  readonly env: k8s.EnvVar[];
  /**
   * Adds the edges of a component that serves the service: Keystone, the database and memcached
   * ready; db-sync and the registration completed; with a message bus, the bus ready and mq-init
   * completed (or only a runtime edge on the bus, see `options.messaging`).
   */
  gate<C extends Component>(component: C, options?: DependencyGateOptions): C;
}

/**
 * The dependencies every OpenStack service with an API wires the same way: its database chain
 * (`db`), its vhost on the message bus (`mq`, when given), its Keystone registration
 * (`ks-register`), the `[keystone_authtoken]` configuration and environment, and the edges on them.
 * Built directly in `service`, so object and component names are those of the service.
 *
 * @example
 * const deps = openstackServiceDependencies(this, props, {
 *   operatorKey, image, syncCommand: ['heat-manage', 'db_sync'],
 *   registration: { serviceType: 'orchestration', catalogName: 'heat', endpointUrl },
 * });
 * const conf = mergeOslo({ ...defaults, ...deps.authtokenConfig }, props.config);
 * deps.gate(new ApiService(this, 'api', { ..., env: deps.env }));
 */
export function openstackServiceDependencies(
  service: Service,
  inputs: OpenStackServiceInputs & { readonly messaging: MessagingEndpoint },
  props: OpenStackServiceDependenciesProps,
): OpenStackServiceDependencies & { readonly messaging: ServiceMessaging };
export function openstackServiceDependencies(
  service: Service,
  inputs: OpenStackServiceInputs,
  props: OpenStackServiceDependenciesProps,
): OpenStackServiceDependencies;
export function openstackServiceDependencies(
  service: Service,
  inputs: OpenStackServiceInputs,
  props: OpenStackServiceDependenciesProps,
): OpenStackServiceDependencies {
  const { keystone } = inputs;
  const { operatorKey } = props;
  const database = new ServiceDatabase(service, 'db', {
    database: inputs.database,
    operatorKey,
    image: props.image,
    syncCommand: props.syncCommand,
    connectionOption: props.connectionOption,
  });
  const messaging = inputs.messaging
    ? new ServiceMessaging(service, 'mq', { messaging: inputs.messaging, operatorKey })
    : undefined;
  const registration = new KeystoneRegistration(service, 'ks-register', {
    ...props.registration,
    keystone,
    operatorKey,
  });
  return {
    database,
    messaging,
    registration,
    authtokenConfig: keystoneAuthtokenConfig(keystone, inputs.cache),
    env: [
      ...database.connectionEnv(),
      ...(messaging ? messaging.transportUrlEnv() : []),
      ...keystoneAuthtokenEnv(registration),
    ],
    gate(component, options = {}) {
      component
        .dependsOn(keystone, 'ready')
        .dependsOn(inputs.database, 'ready')
        .dependsOn(database.sync, 'completed');
      if (options.registration ?? true) component.dependsOn(registration.job, 'completed');
      if (options.cache ?? true) component.dependsOn(inputs.cache, 'ready');
      if (inputs.messaging && messaging) {
        if (options.messaging === 'runtime') component.dependsOn(inputs.messaging, 'runtime');
        else component.dependsOn(inputs.messaging, 'ready').dependsOn(messaging.init, 'completed');
      }
      return component;
    },
  };
}
