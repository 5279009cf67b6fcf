import { Construct } from 'constructs';
import {
  addCheck,
  assertNoProblems,
  Cloud,
  propsProblems,
  PropsSpec,
  Rules,
  Service,
  ValidationError,
} from '../../lib/model';
import { SchedulingKey } from '../../lib/scheduling';
import { openstackOptionSchema, OpenStackSchemaName } from './openstack-option-schema';
import {
  mergeOslo,
  OsloSchema,
  OsloValues,
  osloProblems,
  osloRenderProblems,
  osloValuesRule,
  renderOslo,
} from './oslo-config';
import { OpenStackServiceInputs } from './openstack-service-dependencies';
import { requireInputs } from '../kube/required-inputs';
import { SERVICE_USER_ROTATIONS, ServiceUserRotationSchedule } from './service-user-rotation';
import { CatalogEntry } from './catalog-entry';

/** What every OpenStack service construct takes besides its input services. */
export interface OpenStackServiceOptions {
  /**
   * Options of the service's configuration file (e.g. `glance-api.conf` for Glance), merged over
   * Stackwright's defaults; an option the service does not define is rejected at synthesis.
   * @default - none
   */
  readonly config?: OsloValues;
  /**
   * The image every component of the service runs (unless the service names another for one).
   * @default the cloud's registry `<service>:<release>`, e.g. `glance:2025.1`
   */
  readonly image?: string;
  /**
   * How often the service user's password rotates, with two valid credentials while the service's
   * pods switch (see `ServiceUserRotation`): `weekly`, `monthly`, `on-demand` (a suspended
   * CronJob, run by hand) or `never` (no CronJob).
   * @default 'on-demand' (`never` for Heat, whose user must stay the same one, and Keystone, which has none)
   */
  readonly serviceUserRotation?: ServiceUserRotationSchedule;
}

/**
 * The props of an OpenStack service that registers in Keystone: its input services and the options
 * every service takes. A service's own props extend it, the way cdk8s-plus' `DeploymentProps`
 * extends `WorkloadProps`.
 */
export type OpenStackServiceProps = OpenStackServiceInputs & OpenStackServiceOptions;

/**
 * What the configuration of an API service starts from: logs on stderr (the container's log), the
 * client address taken from the ingress' forwarded headers, and no notifications, since nothing in
 * the cloud consumes them (see docs/configuration.md).
 */
const API_SERVICE_DEFAULTS: OsloValues = {
  DEFAULT: { debug: false, use_stderr: true },
  oslo_messaging_notifications: { driver: ['noop'] },
  oslo_middleware: { enable_proxy_headers_parsing: true },
};

/** A service's own defaults merged over {@link API_SERVICE_DEFAULTS}, section by section. */
export function apiServiceDefaults(defaults: OsloValues): OsloValues {
  return mergeOslo(API_SERVICE_DEFAULTS, defaults);
}

/** How {@link OpenStackService} builds the part every service shares: one constant per service. */
export interface OpenStackServiceDescriptor<P extends OpenStackServiceOptions = OpenStackServiceOptions> {
  /**
   * The image's name in the cloud's registry (`<registry>/<image>:<release>`); also names the
   * directory the configuration is mounted at, `/etc/<image>`.
   */
  readonly image: string;
  /**
   * The `app.kubernetes.io/name` label of the service's objects.
   * @default the image's name
   */
  readonly appName?: string;
  /**
   * The whole image reference, for an image that is not in the cloud's registry.
   * @default the cloud's registry `<image>:<release>`
   */
  readonly defaultImage?: string;
  /** The Yaook operator key the service's Jobs (db-sync, registration, setup) are scheduled with. */
  readonly operatorKey: SchedulingKey;
  /**
   * The options of the file the user's `config` overrides: a generated schema by name, or the
   * schema itself for a service of your own.
   * @default the generated schema named like the image
   */
  readonly schema?: OpenStackSchemaName | OsloSchema;
  /**
   * The name of that file, in error messages.
   * @default `<schema name>.conf`, or `<image>.conf` with a schema of your own
   */
  readonly configFile?: string;
  /**
   * The input services that must be given, each with what to pass (`commonInputHints(...)` words
   * the common ones); a missing one fails construction with the construct path.
   */
  readonly inputs: { readonly [input: string]: string };
  /**
   * The rule of every prop besides `config` and `image` (inputs included), checked at the
   * boundary before anything is built; together they are the known keys. Typed by the service's
   * props (`OpenStackServiceDescriptor<GlanceProps>`), so a prop without a rule does not compile.
   * @default - the service's own props are not checked, and unknown keys are allowed
   */
  readonly props?: OpenStackServicePropsSpec<P>;
  /**
   * Why the service's user cannot rotate, when it cannot (it must stay the same one, or there is
   * none): its rotation is then `never`, and asking for another is refused with this reason.
   * @default - the user may alternate (see `ServiceUserRotation`)
   */
  readonly fixedServiceUser?: string;
  /**
   * The service's entry in Keystone's catalogue and the port its API listens on; required by
   * {@link OpenStackApiService}, whose `dependencies` register it and whose `serveApi` serves it.
   * @default - no catalogue entry (a service without an API)
   */
  readonly catalog?: CatalogEntry;
}

/** The rules of the props every service takes; a service's own go in its descriptor's `props`. */
const OPTIONS: PropsSpec<OpenStackServiceOptions> = {
  // Here: that every option renders as written; against the file's schema: at synthesis.
  config: osloValuesRule,
  image: Rules.image(),
  serviceUserRotation: Rules.oneOf(...SERVICE_USER_ROTATIONS),
};

/** The spec a service's own props are declared with: every key but the shared options. */
export type OpenStackServicePropsSpec<P extends OpenStackServiceOptions> = PropsSpec<
  Omit<P, keyof OpenStackServiceOptions>
>;

/**
 * The base of every OpenStack service construct. Its constructor runs what they all share: the
 * required-inputs check, the image from the cloud's registry, the operator key, the option schema
 * of the configuration file and the check of the user's `config` against it. A service adds its
 * own checks and renders its file with {@link OpenStackService.renderConfig}; a service with an
 * API extends {@link OpenStackApiService}, which also wires its database, bus and registration.
 *
 * @example
 * const BILLING_AGENT: OpenStackServiceDescriptor = {
 *   image: 'billing-agent', operatorKey: SchedulingKey.OPERATOR_ANY, inputs: commonInputHints('messaging'),
 * };
 * class BillingAgent extends OpenStackService {
 *   constructor(scope: Construct, id: string, props: BillingAgentProps) {
 *     super(scope, id, props, BILLING_AGENT);
 *     const conf = this.renderConfig({ DEFAULT: { debug: false } });
 *     ...
 *   }
 * }
 */
export abstract class OpenStackService extends Service {
  /** The image the service's components run. */
  readonly image: string;
  /** The operator key the service's Jobs are scheduled with. */
  readonly operatorKey: SchedulingKey;
  /**
   * The options of the service's configuration file, for rendering and for the check of `config`
   * (which reads it at synthesis). A file with sections the user names (Cinder's backends) widens
   * it in the service's constructor.
   */
  protected schema: OsloSchema;
  /** Where the service's configuration files are mounted: `/etc/<image>`, e.g. `/etc/glance`. */
  protected readonly configDir: string;
  /** The user's overrides of the configuration file. */
  protected readonly userConfig?: OsloValues;
  /** How often the service user's password rotates (the registration's `rotation`). */
  protected readonly serviceUserRotation: ServiceUserRotationSchedule;

  protected constructor(
    scope: Construct,
    id: string,
    props: OpenStackServiceOptions,
    descriptor: OpenStackServiceDescriptor,
  ) {
    super(scope, id, { appName: descriptor.appName ?? descriptor.image });
    requireInputs(this, props, descriptor.inputs);
    assertNoProblems(
      this,
      propsProblems(
        props,
        { ...OPTIONS, ...descriptor.props },
        { otherKeysAllowed: descriptor.props === undefined },
      ),
    );
    this.image = props.image ?? descriptor.defaultImage ?? Cloud.of(this).image(descriptor.image);
    this.operatorKey = descriptor.operatorKey;
    const schema = descriptor.schema ?? (descriptor.image as OpenStackSchemaName);
    this.schema = typeof schema === 'string' ? openstackOptionSchema(this, schema) : schema;
    this.userConfig = props.config;
    this.serviceUserRotation =
      props.serviceUserRotation ?? (descriptor.fixedServiceUser ? 'never' : 'on-demand');
    if (descriptor.fixedServiceUser !== undefined && this.serviceUserRotation !== 'never')
      throw new ValidationError(this.node.path, [
        `serviceUserRotation '${this.serviceUserRotation}' cannot be used: ${descriptor.fixedServiceUser}; leave it out (the default is 'never')`,
      ]);
    this.configDir = `/etc/${descriptor.image}`;
    const configFile =
      descriptor.configFile ?? `${typeof schema === 'string' ? schema : descriptor.image}.conf`;
    addCheck(this, () => osloProblems(configFile, this.schema, props.config ?? {}));
  }

  /** Stackwright's defaults with the user's `config` merged over them. */
  protected configWith(defaults: OsloValues): OsloValues {
    return mergeOslo(defaults, this.userConfig);
  }

  /** The configuration file's text: the defaults, the user's `config` over them, rendered by the schema. */
  protected renderConfig(defaults: OsloValues): string {
    const values = this.configWith(defaults);
    // A default computed from a prop a rule let through is reported against this service, with
    // the file, not as the renderer's bare error.
    assertNoProblems(this, osloRenderProblems(values, `the rendered ${this.configDir}`));
    return renderOslo(values, this.schema);
  }
}
