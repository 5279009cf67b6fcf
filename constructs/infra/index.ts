export * from './infra-service';
export * from './mariadb';
export * from './galera-backup-cron-job';
export * from './memcached';
export * from './rabbitmq';
export * from './ovsdb';
