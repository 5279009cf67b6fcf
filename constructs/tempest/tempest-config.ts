import { IConstruct } from 'constructs';
import { Cloud, propsProblems, PropsSpec, required, Rules } from '../../lib/model';
import { keystoneAdminClientEnv } from '../openstack-kit/keystone-admin-job';
import { osloEnvName, OsloValues, renderOslo } from '../openstack-kit/oslo-config';
import { SecretRef } from '../kube/secret-ref';
import { Cinder } from '../openstack/cinder';
import { Glance } from '../openstack/glance';
import { Keystone } from '../openstack/keystone';
import { Neutron } from '../openstack/neutron';
import { Nova } from '../openstack/nova';
import { Placement } from '../openstack/placement';
import { tempestVersion } from './tempest-release';

/** What Tempest needs that only exists once the cloud runs: ids the caller creates before the run. */
export interface TempestConfigProps {
  /** The Glance image servers boot from (`[compute] image_ref`), by id. */
  readonly imageRef: string;
  /** A second image (`[compute] image_ref_alt`), for rebuild tests. @default - `imageRef` */
  readonly imageRefAlt?: string;
  /** The Nova flavour servers get (`[compute] flavor_ref`), by id. */
  readonly flavorRef: string;
  /** A second flavour (`[compute] flavor_ref_alt`). @default - `flavorRef` */
  readonly flavorRefAlt?: string;
  /**
   * An external network (`router:external`) by id, for routers' gateways and floating IPs
   * (`[network] public_network_id`); with it `[network-feature-enabled] floating_ips` is on.
   * @default - none: Tempest skips the tests that need a public network
   */
  readonly publicNetworkId?: string;
  /**
   * The aliases of the Networking API's extensions the cloud serves (`GET /v2.0/extensions`),
   * written to `[network-feature-enabled] api_extensions`. Which extensions ML2/OVN enables
   * depends on the Neutron release and its service plugins, so the caller reads them from the
   * running cloud; Tempest's default, `all`, makes its extension test expect ones OVN does not
   * serve (e.g. `l3_agent_scheduler`).
   * @default - `all`
   */
  readonly networkExtensions?: readonly string[];
  /**
   * Seconds Tempest waits for a server, an image or a network to reach the state a test expects
   * (`build_timeout` of `[compute]`, `[image]`, `[network]`). Guests emulated by TCG
   * (`compute.virtType: 'qemu'`) on a busy node need more than Tempest's default.
   * @default 300
   */
  readonly buildTimeoutSeconds?: number;
}

const PROPS: PropsSpec<TempestConfigProps> = {
  imageRef: required(Rules.nonEmptyText(), 'the id of the Glance image servers boot from'),
  imageRefAlt: Rules.nonEmptyText(),
  flavorRef: required(Rules.nonEmptyText(), 'the id of the flavour servers get'),
  flavorRefAlt: Rules.nonEmptyText(),
  publicNetworkId: Rules.nonEmptyText(),
  networkExtensions: Rules.list(Rules.nonEmptyText()),
  buildTimeoutSeconds: Rules.count({ min: 30, max: 7200 }),
};

/** A generated `tempest.conf` and what must accompany it where Tempest runs. */
export interface TempestConfig {
  /** The Tempest release the file is written for (see `TEMPEST_RELEASES`), e.g. `43.0.0`. */
  readonly tempestVersion: string;
  /** The options, by section, as rendered into {@link file}. */
  readonly values: OsloValues;
  /** The text of `tempest.conf`. It holds no credential. */
  readonly file: string;
  /**
   * Environment variables to set from Secrets where Tempest runs: oslo.config's environment source
   * reads `[auth] admin_password` from `OS_AUTH__ADMIN_PASSWORD`, so the password never lands in
   * a file.
   */
  readonly secretEnv: Readonly<Record<string, SecretRef>>;
}

/**
 * The `tempest.conf` of a cloud: Keystone's in-cluster URL, region and admin user (the password
 * as a Secret reference, see {@link TempestConfig.secretEnv}), the services the cloud has, and
 * the features of a cloud built by these constructs. Pure: it reads the construct tree only, so
 * it works before synthesis and without a cluster; the image and flavour ids come from the
 * caller, who creates them once the cloud runs.
 *
 * What is switched off, and why (docs/testing.md, "Tempest"):
 * - `[validation] run_validation = false`: Tempest would reach guests over SSH through floating
 *   IPs, which need an external network that reaches the node; the test guest has no SSH server
 *   and is checked through its console log instead. Floating IPs themselves (the API) are tested
 *   when the caller names an external network (`publicNetworkId`);
 * - `live_migration`, `cold_migration`, `resize`: libvirtd listens on its unix sockets only and
 *   no transport between hypervisors (TLS or SSH) is configured, which all three need between
 *   hosts; a resize onto the same host needs `[DEFAULT] allow_resize_to_same_host`, not set;
 * - `swift` and `horizon`: no construct for them.
 *
 * @example
 * const tempest = tempestConfig(cloud, { imageRef: image.id, flavorRef: flavor.id });
 * // write tempest.file to etc/tempest.conf of a Tempest workspace, and set tempest.secretEnv
 */
export function tempestConfig(scope: IConstruct, props: TempestConfigProps): TempestConfig {
  const cloud = Cloud.of(scope);
  const path = cloud.node.path;
  const problems = propsProblems<TempestConfigProps>(props, PROPS, { what: 'tempestConfig props' });
  if (problems.length > 0) throw new Error(problems.map((p) => `[${path}] ${p}`).join('\n'));
  const version = tempestVersion(cloud.release, path);
  const keystone = onlyKeystone(cloud);
  const has = (type: abstract new (...args: never[]) => IConstruct) =>
    cloud.node.findAll().some((c) => c instanceof type);
  const cinder = has(Cinder);
  const timeout = props.buildTimeoutSeconds ?? 300;
  const admin = keystoneAdminClientEnv(keystone);
  // The endpoints every registration writes (internal, public and admin) are the in-cluster URL;
  // `internal` says so, and keeps Tempest in the cluster should a public endpoint move to an ingress.
  const internal = { endpoint_type: 'internal' };
  const values: OsloValues = {
    auth: {
      admin_username: admin.OS_USERNAME,
      admin_project_name: admin.OS_PROJECT_NAME,
      admin_user_domain_name: admin.OS_USER_DOMAIN_NAME,
      admin_project_domain_name: admin.OS_PROJECT_DOMAIN_NAME,
      admin_domain_name: admin.OS_USER_DOMAIN_NAME,
      // Each test class gets its own project, user and (with Neutron) network, made by the admin.
      use_dynamic_credentials: true,
    },
    identity: {
      uri_v3: keystone.authUrl,
      region: keystone.region,
      v3_endpoint_type: 'internal',
    },
    service_available: {
      cinder,
      glance: has(Glance),
      neutron: has(Neutron),
      nova: has(Nova),
      swift: false,
      horizon: false,
    },
    compute: {
      ...internal,
      image_ref: props.imageRef,
      image_ref_alt: props.imageRefAlt ?? props.imageRef,
      flavor_ref: props.flavorRef,
      flavor_ref_alt: props.flavorRefAlt ?? props.flavorRef,
      build_timeout: timeout,
    },
    'compute-feature-enabled': {
      live_migration: false,
      cold_migration: false,
      resize: false,
      // Guests write to their serial console, which virtlogd keeps for Nova's console log.
      console_output: true,
    },
    image: { ...internal, build_timeout: timeout },
    network: {
      ...internal,
      build_timeout: timeout,
      ...(props.publicNetworkId ? { public_network_id: props.publicNetworkId } : {}),
    },
    'network-feature-enabled': {
      floating_ips: props.publicNetworkId !== undefined,
      ...(props.networkExtensions ? { api_extensions: [...props.networkExtensions] } : {}),
    },
    ...(has(Placement) ? { placement: internal } : {}),
    ...(cinder ? { volume: internal } : {}),
    validation: { run_validation: false, connect_method: 'fixed' },
  };
  return {
    tempestVersion: version,
    values,
    file: renderOslo(values),
    secretEnv: { [osloEnvName('auth', 'admin_password')]: keystone.adminCredentials.ref('password') },
  };
}

/** The cloud's one Keystone: Tempest authenticates against it. */
function onlyKeystone(cloud: Cloud): Keystone {
  const found = cloud.node.findAll().filter((c): c is Keystone => c instanceof Keystone);
  if (found.length !== 1)
    throw new Error(
      `[${cloud.node.path}] tempestConfig needs exactly one Keystone in the cloud, found ${found.length}` +
        (found.length === 0
          ? '; add one (new Keystone(cloud, ...)) before generating tempest.conf'
          : ` (${found.map((k) => k.node.path).join(', ')}); generate the file for a cloud with one`),
    );
  return found[0];
}
