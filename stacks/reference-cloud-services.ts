/**
 * What a stack changes about one service of the reference cloud. Every option left out keeps the
 * service's own default, so an empty object synthesises exactly the default cloud.
 */
export interface ServiceOptions {
  /**
   * Pods of the service's main component: the API of an OpenStack service, the members of db, mq
   * and ovsdb, the servers of memcached. The service checks the range (odd for quorum clusters).
   * @default 3 for db, mq and ovsdb, 2 for every other service
   */
  readonly replicas?: number;
  /**
   * Image of the service's containers.
   * @default the cloud's registry and release, e.g. `registry.yaook.cloud/yaook/keystone:2025.1`
   */
  readonly image?: string;
}

/** Options of a service the reference cloud can leave out. */
export interface OptionalServiceOptions extends ServiceOptions {
  /**
   * A disabled service is not part of the cloud at all (no objects, no components).
   * @default true
   */
  readonly enabled?: boolean;
}

/** Ceilometer has no API and several agents, so no single replica count; image and enabled only. */
export type CeilometerOptions = Omit<OptionalServiceOptions, 'replicas'>;

/**
 * Per-service options of the reference cloud, by the service's name in the cloud. The minimal
 * control plane (db … nova) is always there; the other services can be disabled.
 */
export interface ReferenceCloudServices {
  readonly db?: ServiceOptions;
  readonly mq?: ServiceOptions;
  readonly memcached?: ServiceOptions;
  readonly ovsdb?: ServiceOptions;
  readonly keystone?: ServiceOptions;
  readonly glance?: ServiceOptions;
  readonly placement?: ServiceOptions;
  readonly neutron?: ServiceOptions;
  readonly nova?: ServiceOptions;
  readonly cinder?: OptionalServiceOptions;
  readonly barbican?: OptionalServiceOptions;
  readonly heat?: OptionalServiceOptions;
  readonly gnocchi?: OptionalServiceOptions;
  readonly ceilometer?: CeilometerOptions;
  readonly ironic?: OptionalServiceOptions;
}

export type ReferenceServiceName = keyof ReferenceCloudServices;

type OptionName = keyof OptionalServiceOptions;

/**
 * The options each service accepts, for readers of untyped input (stack config). Services with
 * `enabled` are the optional ones.
 */
export const SERVICE_OPTIONS: { readonly [S in ReferenceServiceName]-?: readonly OptionName[] } = {
  db: ['replicas', 'image'],
  mq: ['replicas', 'image'],
  memcached: ['replicas', 'image'],
  ovsdb: ['replicas', 'image'],
  keystone: ['replicas', 'image'],
  glance: ['replicas', 'image'],
  placement: ['replicas', 'image'],
  neutron: ['replicas', 'image'],
  nova: ['replicas', 'image'],
  cinder: ['enabled', 'replicas', 'image'],
  barbican: ['enabled', 'replicas', 'image'],
  heat: ['enabled', 'replicas', 'image'],
  gnocchi: ['enabled', 'replicas', 'image'],
  ceilometer: ['enabled', 'image'],
  ironic: ['enabled', 'replicas', 'image'],
};

/** Whether an optional service is part of the cloud (`enabled` defaults to true). */
export function serviceEnabled(options: OptionalServiceOptions | undefined): boolean {
  return options?.enabled ?? true;
}

/** `replicas` and `image` as the services that call their main replica count `apiReplicas` take them. */
export function apiServiceOptions(options: ServiceOptions | undefined): {
  apiReplicas?: number;
  image?: string;
} {
  return { apiReplicas: options?.replicas, image: options?.image };
}
