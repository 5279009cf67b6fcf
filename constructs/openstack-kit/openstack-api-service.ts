import { Construct } from 'constructs';
import { Component } from '../../lib/model';
import { groupPlacement, placement, SchedulingKey } from '../../lib/scheduling';
import { ApiService, ApiServiceProps } from '../kube/api-service';
import { serviceUrl } from '../kube/service-host';
import { CatalogEntry } from './catalog-entry';
import { MessagingEndpoint } from './endpoints';
import { KeystoneRegistrationProps } from './keystone-registration';
import {
  OpenStackServiceDependencies,
  OpenStackServiceDependenciesProps,
  openstackServiceDependencies,
  OpenStackServiceInputs,
} from './openstack-service-dependencies';
import { OpenStackService, OpenStackServiceDescriptor, OpenStackServiceOptions } from './openstack-service';
import { ServiceMessaging } from './service-messaging';

/** The descriptor of a service with an API: its catalogue entry is required. */
export type OpenStackApiServiceDescriptor<P extends OpenStackServiceOptions = OpenStackServiceOptions> =
  OpenStackServiceDescriptor<P> & { readonly catalog: CatalogEntry };

/** The API of an {@link OpenStackApiService}: what differs from one service's API to another's. */
export interface OpenStackApiProps extends Omit<ApiServiceProps, 'placement' | 'image' | 'config' | 'port'> {
  /**
   * The API's own scheduling key: its pods run on nodes labelled with it or with `ANY_API`.
   * @default - `ANY_API` alone, for an API the seed gives no key of its own
   */
  readonly schedulingKey?: SchedulingKey;
  /** The configuration files by name, mounted read-only as `/etc/<image>/<file>`. */
  readonly files: Readonly<Record<string, string>>;
}

/** What {@link OpenStackApiService.dependencies} takes: the image, operator key and registration are the service's. */
export type OpenStackApiDependenciesProps = Omit<
  OpenStackServiceDependenciesProps,
  'operatorKey' | 'image' | 'registration'
>;

/**
 * An OpenStack service whose entry point is its API (`<service>-api`): a dependant on the whole
 * service waits for the API, and clients reach it at {@link internalUrl}. Its descriptor's
 * `catalog` says where it stands in Keystone's catalogue and which port the API listens on. The
 * subclass wires its database, bus and registration with {@link dependencies}, builds the API with
 * {@link serveApi} and keeps it in `api`.
 *
 * @example
 * const BILLING: OpenStackApiServiceDescriptor<BillingProps> = {
 *   image: 'billing', operatorKey: SchedulingKey.OPERATOR_ANY,
 *   inputs: commonInputHints('keystone', 'database', 'cache'),
 *   catalog: { type: 'billing', name: 'billing', port: 9999 },
 * };
 * class Billing extends OpenStackApiService {
 *   readonly api: ApiService;
 *   constructor(scope: Construct, id: string, props: BillingProps) {
 *     super(scope, id, props, BILLING);
 *     const deps = this.dependencies(props, { syncCommand: ['billing-manage', 'db', 'sync'] });
 *     const conf = this.renderConfig({ ...deps.authtokenConfig });
 *     this.api = deps.gate(this.serveApi({ command: ['billing-api'], healthPath: '/', env: deps.env, files: { 'billing.conf': conf } }));
 *   }
 * }
 */
export abstract class OpenStackApiService extends OpenStackService {
  /** The API component, the service's entry point. */
  abstract readonly api: ApiService;
  /** The service's entry in Keystone's catalogue, from its descriptor. */
  readonly catalog: CatalogEntry;

  protected constructor(
    scope: Construct,
    id: string,
    props: OpenStackServiceOptions,
    descriptor: OpenStackApiServiceDescriptor,
  ) {
    super(scope, id, props, descriptor);
    this.catalog = descriptor.catalog;
  }

  /** In-cluster URL of the API, e.g. `http://glance-api.openstack.svc:9292`. */
  get internalUrl(): string {
    return this.api.internalUrl;
  }

  /**
   * The URL registered in the catalogue, `http://<service>-api.<namespace>.svc:<port><path>`:
   * known before the API exists, since the registration is built first.
   */
  get catalogUrl(): string {
    const { port, path } = this.catalog;
    return serviceUrl(this, `${this.serviceName}-api`, port, path);
  }

  protected get entryPoints(): readonly Component[] {
    return [this.api];
  }

  /** The Keystone registration of the catalogue entry, with the service user's rotation. */
  protected get registrationProps(): Omit<KeystoneRegistrationProps, 'keystone' | 'operatorKey'> {
    return {
      serviceType: this.catalog.type,
      catalogName: this.catalog.name,
      endpointUrl: this.catalogUrl,
      rotation: this.serviceUserRotation,
    };
  }

  /**
   * The database chain, the vhost (with `messaging`), the Keystone registration of the catalogue
   * entry and their edges, built with the service's image and operator key: see
   * {@link openstackServiceDependencies}.
   */
  protected dependencies(
    inputs: OpenStackServiceInputs & { readonly messaging: MessagingEndpoint },
    props: OpenStackApiDependenciesProps,
  ): OpenStackServiceDependencies & { readonly messaging: ServiceMessaging };
  protected dependencies(
    inputs: OpenStackServiceInputs,
    props: OpenStackApiDependenciesProps,
  ): OpenStackServiceDependencies;
  protected dependencies(
    inputs: OpenStackServiceInputs,
    props: OpenStackApiDependenciesProps,
  ): OpenStackServiceDependencies {
    return openstackServiceDependencies(this, inputs, {
      ...props,
      registration: this.registrationProps,
      operatorKey: this.operatorKey,
      image: this.image,
    });
  }

  /**
   * The API component `<service>-api`, listening on the catalogue entry's port and running the
   * service's image with its configuration files.
   */
  protected serveApi(props: OpenStackApiProps): ApiService {
    const { schedulingKey, files, ...api } = props;
    return new ApiService(this, 'api', {
      placement: schedulingKey
        ? placement(schedulingKey, SchedulingKey.ANY_API)
        : groupPlacement(SchedulingKey.ANY_API),
      image: this.image,
      config: { mountPath: this.configDir, files },
      port: this.catalog.port,
      ...api,
    });
  }
}
