export * from './common';
export * from './infra';
export * from './openstack';
export * from './tempest';
