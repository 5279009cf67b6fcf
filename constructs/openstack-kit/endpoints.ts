import { IDependable } from '../../lib/model';
import { SecretRef } from '../kube/secret-ref';

/**
 * What a service needs from its infrastructure. A deployed MariaDB, RabbitMQ or Memcached construct
 * provides it, and so does an existing external endpoint (see `external-endpoints.ts`), which
 * deploys nothing and gates nothing.
 */
export interface DatabaseEndpoint extends IDependable {
  /** Host name clients connect to. */
  readonly host: string;
  readonly port: number;
  /** The administrator's password, used by the Jobs that create per-service databases and users. */
  readonly adminPassword: SecretRef;
  /**
   * An image with the `mariadb` client, for the Jobs that create per-service databases and users.
   * A deployed MariaDB gives its own server image, so the client always matches the server.
   * @default the cloud's registry `mariadb:11.4`
   */
  readonly clientImage?: string;
}

export interface MessagingEndpoint extends IDependable {
  readonly host: string;
  readonly port: number;
  /** The administrator's credentials, used by the Jobs that create per-service vhosts and users. */
  readonly adminUser: string;
  readonly adminPassword: SecretRef;
}

export interface CacheEndpoint extends IDependable {
  /** `host:port` of every memcached server. */
  readonly servers: readonly string[];
}
