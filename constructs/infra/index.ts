export * from './infra-service';
export * from './mariadb';
export * from './memcached';
export * from './rabbitmq';
export * from './ovsdb';
