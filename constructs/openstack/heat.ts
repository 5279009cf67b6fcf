import { Construct } from 'constructs';
import { Component, Rules } from '../../lib/model';
import { COMMON_INPUT_RULES, commonInputHints } from '../openstack-kit/input-rules';
import { groupPlacement, SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../kube/api-service';
import { MessagingEndpoint } from '../openstack-kit/endpoints';
import { GeneratedSecret } from '../kube/generated-secret';
import { KeystoneAdminJob } from '../openstack-kit/keystone-admin-job';
import { KeystoneRegistration } from '../openstack-kit/keystone-registration';
import { serviceUserCredentialsEnv } from '../openstack-kit/keystone-service-user';
import { osloCacheConfig } from '../openstack-kit/oslo-cache';
import { osloEnvName } from '../openstack-kit/oslo-config';
import { envFromSecret } from '../kube/secret-ref';
import { uwsgiCommand } from '../openstack-kit/uwsgi';
import { WorkerService } from '../kube/worker-service';
import { apiServiceDefaults, OpenStackServiceProps } from '../openstack-kit/openstack-service';
import { OpenStackApiService, OpenStackApiServiceDescriptor } from '../openstack-kit/openstack-api-service';
import { shown } from '../../lib/graph';

export interface HeatProps extends OpenStackServiceProps {
  readonly messaging: MessagingEndpoint;
  /** @default 2 */
  readonly apiReplicas?: number;
  /** heat-engine pods; engines share the work through RabbitMQ. @default 2 */
  readonly engineReplicas?: number;
  /** Engine processes per pod (`[DEFAULT] num_engine_workers`). @default 2 */
  readonly engineWorkers?: number;
  /**
   * The Keystone domain holding the users Heat creates for stacks (`stack_user_domain_name`).
   * @default 'heat'
   */
  readonly stackUserDomain?: string;
}

const PORT = 8004;
const DOMAIN_ADMIN = 'heat_domain_admin';

/** The stack user domain, its admin (admin on the domain) and the roles trusts delegate. */
const DOMAIN_SETUP_PROGRAM = `domain = identity.find_domain(env["DOMAIN"])
if domain is None:
    domain = identity.create_domain(name=env["DOMAIN"], description="Stacks of Heat")
user = ensure_user(env["DOMAIN_ADMIN"], domain.id, env["DOMAIN_ADMIN_PASSWORD"])
identity.assign_domain_role_to_user(domain, user, identity.find_role("admin", ignore_missing=False))
for role in ("heat_stack_owner", "heat_stack_user"):
    if identity.find_role(role) is None:
        identity.create_role(name=role)
`;

const HEAT: OpenStackApiServiceDescriptor<HeatProps> = {
  image: 'heat',
  operatorKey: SchedulingKey.OPERATOR_HEAT,
  catalog: { type: 'orchestration', name: 'heat', port: PORT, path: '/v1/%(project_id)s' },
  inputs: commonInputHints('keystone', 'database', 'messaging', 'cache'),
  props: {
    ...COMMON_INPUT_RULES,
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    engineReplicas: Rules.count({ min: 1, max: 20 }),
    engineWorkers: Rules.count({ min: 1, max: 64 }),
    // A Keystone domain name on the domain-setup Job's command line and in heat.conf.
    stackUserDomain: Rules.given((value, name) =>
      typeof value === 'string' && /^[A-Za-z0-9_-]+$/.test(value)
        ? []
        : [`${name} ${shown(value)} must be letters, digits, '_' or '-'`],
    ),
  },
  fixedServiceUser:
    "Heat's user is the trustee of every trust its stacks hold (deferred authentication); a stack's trust names the user by id, so switching to another user would break the stacks made before",
};

/**
 * Heat, the orchestration service: the API and the engine, the database chain, a RabbitMQ vhost,
 * the `orchestration` catalogue entry, and a Job that prepares Keystone for stacks (the stack user
 * domain with its admin, and the `heat_stack_owner`/`heat_stack_user` roles trusts delegate).
 *
 * The scheduling keys of seed 000 have no Heat key, so both components schedule by the API group key
 * alone: they are control-plane services that belong where the APIs run.
 *
 * @example
 * new Heat(cloud, 'heat', { keystone, database, messaging, cache });
 */
export class Heat extends OpenStackApiService {
  readonly api: ApiService;
  readonly engine: WorkerService;
  /** Creates the stack user domain, its admin and the roles trusts delegate. */
  readonly domainSetup: KeystoneAdminJob;
  readonly registration: KeystoneRegistration;

  constructor(scope: Construct, id: string, props: HeatProps) {
    super(scope, id, props, HEAT);
    const { image, operatorKey } = this;
    const domain = props.stackUserDomain ?? 'heat';
    const engineWorkers = props.engineWorkers ?? 2;

    const deps = this.dependencies(props, {
      syncCommand: ['heat-manage', 'db_sync'],
    });
    this.registration = deps.registration;

    const domainAdmin = new GeneratedSecret(this, 'domain-admin-credentials', {
      operatorKey,
      keys: ['password'],
    });
    this.domainSetup = new KeystoneAdminJob(this, 'domain-setup', {
      keystone: props.keystone,
      operatorKey,
      program: DOMAIN_SETUP_PROGRAM,
      env: { DOMAIN: domain, DOMAIN_ADMIN },
      secretEnv: { DOMAIN_ADMIN_PASSWORD: domainAdmin.ref('password') },
    });
    this.domainSetup.dependsOn(domainAdmin, 'completed');

    const conf = this.renderConfig(
      apiServiceDefaults({
        DEFAULT: {
          num_engine_workers: engineWorkers,
          stack_domain_admin: DOMAIN_ADMIN,
          stack_user_domain_name: domain,
          region_name_for_services: props.keystone.region,
        },
        trustee: {
          auth_type: 'password',
          auth_url: props.keystone.authUrl,
          user_domain_name: 'Default',
        },
        clients_keystone: { auth_uri: props.keystone.authUrl.replace(/\/v3$/, '') },
        ...osloCacheConfig(props.cache),
        ...deps.authtokenConfig,
      }),
    );
    const env = [
      ...deps.env,
      ...serviceUserCredentialsEnv('trustee', this.registration),
      envFromSecret(osloEnvName('DEFAULT', 'stack_domain_admin_password'), domainAdmin.ref('password')),
    ];
    const gate = (c: Component) => deps.gate(c).dependsOn(this.domainSetup, 'completed');

    this.api = this.serveApi({
      command: uwsgiCommand('heat-wsgi-api', PORT),
      healthPath: '/',
      replicas: props.apiReplicas,
      env,
      files: { 'heat.conf': conf },
    });
    gate(this.api);

    this.engine = new WorkerService(this, 'engine', {
      // No engine key in seed 000: the API group, where the rest of Heat's control plane runs.
      placement: groupPlacement(SchedulingKey.ANY_API),
      image,
      command: ['heat-engine'],
      replicas: props.engineReplicas ?? 2,
      connectedTo: [props.messaging.port],
      env,
      config: { mountPath: this.configDir, files: { 'heat.conf': conf } },
      requests: { cpu: '200m', memory: '512Mi' },
    });
    gate(this.engine);
  }
}
