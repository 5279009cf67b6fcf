export * from './tempest-config';
export * from './tempest-release';
