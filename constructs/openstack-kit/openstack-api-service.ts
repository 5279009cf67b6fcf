import { Component } from '../../lib/model';
import { groupPlacement, placement, SchedulingKey } from '../../lib/scheduling';
import { ApiService, ApiServiceProps } from '../kube/api-service';
import { OpenStackService } from './openstack-service';
import { serviceUrl } from '../kube/service-host';

/** The API of an {@link OpenStackApiService}: what differs from one service's API to another's. */
export interface OpenStackApiProps extends Omit<ApiServiceProps, 'placement' | 'image' | 'config'> {
  /**
   * The API's own scheduling key: its pods run on nodes labelled with it or with `ANY_API`.
   * @default - `ANY_API` alone, for an API the seed gives no key of its own
   */
  readonly schedulingKey?: SchedulingKey;
  /** The configuration files by name, mounted read-only as `/etc/<image>/<file>`. */
  readonly files: Readonly<Record<string, string>>;
}

/**
 * An OpenStack service whose entry point is its API (`<service>-api`): a dependant on the whole
 * service waits for the API, and clients reach it at {@link internalUrl}. The subclass builds the
 * API with {@link serveApi} and keeps it in `api`.
 *
 * @example
 * class Billing extends OpenStackApiService {
 *   readonly api: ApiService;
 *   constructor(scope: Construct, id: string, props: BillingProps) {
 *     super(scope, id, props, BILLING);
 *     this.api = this.serveApi({ command: ['billing-api'], port: 9999, healthPath: '/', files: { 'billing.conf': conf } });
 *   }
 * }
 */
export abstract class OpenStackApiService extends OpenStackService {
  /** The API component, the service's entry point. */
  abstract readonly api: ApiService;

  /** In-cluster URL of the API, e.g. `http://glance-api.openstack.svc:9292`. */
  get internalUrl(): string {
    return this.api.internalUrl;
  }

  protected get entryPoints(): readonly Component[] {
    return [this.api];
  }

  /**
   * The in-cluster URL the API built by {@link serveApi} answers at,
   * `http://<service>-api.<namespace>.svc:<port><path>`: for the catalogue entry, which is
   * registered before the API exists.
   */
  protected apiUrl(port: number, path = ''): string {
    return serviceUrl(this, `${this.serviceName}-api`, port, path);
  }

  /** The API component `<service>-api`, running the service's image with its configuration files. */
  protected serveApi(props: OpenStackApiProps): ApiService {
    const { schedulingKey, files, ...api } = props;
    return new ApiService(this, 'api', {
      placement: schedulingKey
        ? placement(schedulingKey, SchedulingKey.ANY_API)
        : groupPlacement(SchedulingKey.ANY_API),
      image: this.image,
      config: { mountPath: this.configDir, files },
      ...api,
    });
  }
}
