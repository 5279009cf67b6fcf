export * from './keystone';
