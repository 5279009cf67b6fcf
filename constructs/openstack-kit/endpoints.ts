import { IDependable } from '../../lib/model';
import { JobComponent } from '../kube/job-component';
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

/**
 * What a service needs from Keystone: the Jobs that act as its admin (registration, setup) and
 * `[keystone_authtoken]` read it; `Keystone` implements it.
 */
export interface IdentityEndpoint {
  /** e.g. `http://keystone-api.openstack.svc:5000/v3` */
  readonly authUrl: string;
  readonly region: string;
  readonly adminCredentials: { ref(key: string): SecretRef };
  /** The component registration waits for (Keystone's bootstrap Job). */
  readonly registrationTarget: JobComponent;
}
