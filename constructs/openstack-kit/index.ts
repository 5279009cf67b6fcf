/**
 * The OpenStack service kit: the bases every service extends (`OpenStackService`,
 * `OpenStackApiService`), what a service needs from its infrastructure (endpoints, external
 * endpoints), oslo.config rendering, the database and message-bus wiring, the Keystone registration
 * (with its user's rotation) and `[keystone_authtoken]`, and the input rules a new service validates
 * its props with.
 */
export * from './openstack-service';
export * from './openstack-api-service';
export type { CatalogEntry } from './catalog-entry';
export * from './openstack-service-dependencies';
export * from './endpoints';
export * from './external-endpoints';
export {
  cacheRule,
  commonInputHints,
  COMMON_INPUT_HINTS,
  COMMON_INPUT_RULES,
  databaseRule,
  messagingRule,
  serviceRule,
} from './input-rules';
export * from './oslo-config';
export * from './service-database';
export * from './service-messaging';
export * from './keystone-admin-job';
export * from './keystone-registration';
export { SERVICE_USER_ROTATIONS, ServiceUserRotation } from './service-user-rotation';
export type { ServiceUserRotationProps, ServiceUserRotationSchedule } from './service-user-rotation';
export * from './keystone-authtoken';
export * from './ceph-client';
export * from './node-config-templates';
