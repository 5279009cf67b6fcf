export * from './keystone';
export * from './cinder';
export * from './barbican';
export * from './heat';
export * from './gnocchi';
export * from './ceilometer';
export * from './infra-ironic';
export * from './glance';
