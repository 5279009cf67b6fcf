import { CacheEndpoint } from './endpoints';
import { OsloValues } from './oslo-config';

/**
 * oslo.cache on memcached (`[cache]`): the service's own caching, apart from the token cache of
 * `[keystone_authtoken]`. Spread into the service's configuration defaults.
 */
export function osloCacheConfig(cache: CacheEndpoint): OsloValues {
  return {
    cache: {
      enabled: true,
      backend: 'oslo_cache.memcache_pool',
      memcache_servers: [...cache.servers],
    },
  };
}
