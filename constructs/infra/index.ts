export * from './mariadb';
export * from './memcached';
