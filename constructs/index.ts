export * from './kube';
export * from './openstack-kit';
export * from './infra';
export * from './openstack';
export * from './tempest';
