import { CacheEndpoint, DatabaseEndpoint, MessagingEndpoint } from './endpoints';

/**
 * Infrastructure that already exists outside the cloud (a managed database, a shared RabbitMQ).
 * Passing one to a service deploys nothing for it and adds no gating edge.
 *
 * @example
 * const database = externalDatabase({ host: 'galera.example.com', adminPassword: { secretName: 'galera-root', key: 'password' } });
 * new Keystone(cloud, 'keystone', { database, cache });
 */
export function externalDatabase(
  props: Omit<DatabaseEndpoint, 'dependencyTargets' | 'port'> & { port?: number },
): DatabaseEndpoint {
  return { port: 3306, ...props, dependencyTargets: [] };
}

export function externalMessaging(
  props: Omit<MessagingEndpoint, 'dependencyTargets' | 'port'> & { port?: number },
): MessagingEndpoint {
  return { port: 5672, ...props, dependencyTargets: [] };
}

export function externalCache(props: Omit<CacheEndpoint, 'dependencyTargets'>): CacheEndpoint {
  return { ...props, dependencyTargets: [] };
}
