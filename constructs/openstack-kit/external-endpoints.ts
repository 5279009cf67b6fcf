import { propsProblems, PropsSpec, ValidationError } from '../../lib/model';
import { CacheEndpoint, DatabaseEndpoint, MessagingEndpoint } from './endpoints';
import { CACHE_ENDPOINT, DATABASE_ENDPOINT, MESSAGING_ENDPOINT } from './input-rules';

/**
 * Infrastructure that already exists outside the cloud (a managed database, a shared RabbitMQ).
 * Passing one to a service deploys nothing for it and adds no gating edge. The settings are
 * checked here, where they are given: a host, a port from 1 to 65535, the Secret of the password.
 *
 * @example
 * const database = externalDatabase({ host: 'galera.example.com', adminPassword: { secretName: 'galera-root', key: 'password' } });
 * new Keystone(cloud, 'keystone', { database, cache });
 */
export function externalDatabase(
  props: Omit<DatabaseEndpoint, 'dependencyTargets' | 'port'> & { port?: number },
): DatabaseEndpoint {
  return external('externalDatabase', { port: 3306, ...props }, DATABASE_ENDPOINT);
}

export function externalMessaging(
  props: Omit<MessagingEndpoint, 'dependencyTargets' | 'port'> & { port?: number },
): MessagingEndpoint {
  return external('externalMessaging', { port: 5672, ...props }, MESSAGING_ENDPOINT);
}

export function externalCache(props: Omit<CacheEndpoint, 'dependencyTargets'>): CacheEndpoint {
  return external('externalCache', { ...props }, CACHE_ENDPOINT);
}

/** The endpoint, once its settings pass `spec`; throws naming the function and every problem. */
function external<P extends object>(
  what: string,
  props: P,
  spec: PropsSpec<P>,
): P & { readonly dependencyTargets: [] } {
  const problems = propsProblems(props, spec, { what: `${what}(...)` });
  if (problems.length > 0) throw new ValidationError(`${what}(...)`, problems);
  return { ...props, dependencyTargets: [] };
}
