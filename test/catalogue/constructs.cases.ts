import { App } from 'cdk8s';
import {
  ApiService,
  clusteredStatefulSet,
  externalCache,
  externalDatabase,
  externalMessaging,
  GeneratedSecret,
  JobComponent,
  WorkerService,
} from '../../constructs';
import { MariaDB, Memcached, OvsdbCluster, RabbitMQ } from '../../constructs/infra';
import {
  Barbican,
  Ceilometer,
  Cinder,
  Glance,
  Gnocchi,
  Heat,
  InfraIronic,
  Keystone,
  Neutron,
  Nova,
  Placement,
} from '../../constructs/openstack';
import { Cloud, Component, CloudProps } from '../../lib/model';
import { groupPlacement, placement, SchedulingKey } from '../../lib/scheduling';
import { TinyService } from '../support/tiny-service';
import { BadInputCase, js } from './bad-input';

/** A construct-surface case: `build` makes the bad input inside cloud `prod` (namespace `openstack`). */
export interface ConstructCase extends BadInputCase {
  readonly build: (cloud: Cloud, app: App) => void;
}

/** The infrastructure and Keystone most services need, built on demand. */
function infra(cloud: Cloud) {
  const database = new MariaDB(cloud, 'db');
  const messaging = new RabbitMQ(cloud, 'mq');
  const cache = new Memcached(cloud, 'cache');
  const keystone = new Keystone(cloud, 'keystone', { database, cache });
  return { database, messaging, cache, keystone };
}

/** Keystone with `props` over its inputs. */
function keystone(props: Record<string, unknown>) {
  return (cloud: Cloud) =>
    new Keystone(cloud, 'keystone', {
      database: new MariaDB(cloud, 'db'),
      cache: new Memcached(cloud, 'cache'),
      ...js<object>(props),
    });
}

/** Heat with `props` over its inputs. */
function heat(props: Record<string, unknown>) {
  return (cloud: Cloud) => new Heat(cloud, 'heat', { ...infra(cloud), ...js<object>(props) });
}

/** Gnocchi with `props` over its inputs. */
function gnocchi(props: Record<string, unknown>) {
  return (cloud: Cloud) => {
    const { keystone: ks, database, cache } = infra(cloud);
    new Gnocchi(cloud, 'gnocchi', { keystone: ks, database, cache, ...js<object>(props) });
  };
}

/** Ceilometer with `props` over its inputs. */
function ceilometer(props: Record<string, unknown>) {
  return (cloud: Cloud) => {
    const { keystone: ks, database, cache, messaging } = infra(cloud);
    const metrics = new Gnocchi(cloud, 'gnocchi', { keystone: ks, database, cache });
    new Ceilometer(cloud, 'ceilometer', { keystone: ks, messaging, gnocchi: metrics, ...js<object>(props) });
  };
}

/** Glance with `props` over its inputs. */
function glance(props: Record<string, unknown>) {
  return (cloud: Cloud) => {
    const { keystone: ks, database, cache } = infra(cloud);
    new Glance(cloud, 'glance', { keystone: ks, database, cache, ...js<object>(props) });
  };
}

/** Neutron with `props` over its inputs. */
function neutron(props: Record<string, unknown>) {
  return (cloud: Cloud) =>
    new Neutron(cloud, 'neutron', {
      ...infra(cloud),
      ovsdb: new OvsdbCluster(cloud, 'ovsdb'),
      ...js<object>(props),
    });
}

/** Nova with `props` over its inputs. */
function nova(props: Record<string, unknown>) {
  return (cloud: Cloud) => {
    const base = infra(cloud);
    const { keystone: ks, database, cache } = base;
    const placementService = new Placement(cloud, 'placement', { keystone: ks, database, cache });
    const glance = new Glance(cloud, 'glance', { keystone: ks, database, cache });
    const net = new Neutron(cloud, 'neutron', {
      ...base,
      ovsdb: new OvsdbCluster(cloud, 'ovsdb'),
      ovnAgent: { dependantKeys: [SchedulingKey.COMPUTE_HYPERVISOR] },
    });
    new Nova(cloud, 'nova', {
      ...base,
      placement: placementService,
      glance,
      neutron: net,
      ...js<object>(props),
    });
  };
}

/** Cinder with `props` over its inputs. */
function cinder(props: Record<string, unknown>) {
  return (cloud: Cloud) =>
    new Cinder(cloud, 'cinder', {
      ...infra(cloud),
      volumeBackends: [{ type: 'rbd', name: 'ceph', pool: 'volumes', ceph: CEPH }],
      ...js<object>(props),
    });
}

const CEPH = {
  monitors: ['10.0.0.1:6789'],
  user: 'cinder',
  keyring: { secretName: 'ceph-cinder', key: 'keyring' },
};
const ADMIN_PASSWORD = { secretName: 'galera-root', key: 'password' };

/** An API of a service of one's own, with `props` over valid ones. */
function api(props: Record<string, unknown>) {
  return (cloud: Cloud) =>
    new ApiService(cloud, 'api', {
      placement: placement(SchedulingKey.ANY_API),
      image: 'registry.example.com/billing:1',
      command: ['billing-api'],
      port: 8080,
      healthPath: '/healthcheck',
      ...js<object>(props),
    });
}

/** A Job of a service of one's own, with `props` over valid ones. */
function job(props: Record<string, unknown>) {
  return (cloud: Cloud) =>
    new JobComponent(cloud, 'job', {
      operatorKey: SchedulingKey.OPERATOR_ANY,
      image: 'registry.example.com/billing:1',
      command: ['billing-manage', 'db_sync'],
      ...js<object>(props),
    });
}

/** A second cloud in the same App. */
function secondCloud(app: App, props: CloudProps): Cloud {
  return new Cloud(app, 'other', props);
}

const LINE = 'put the value on one line';

export const CONSTRUCT_CASES: readonly ConstructCase[] = [
  // ── Class 1: values that break the file they are written into ──────────────────────────────
  {
    class: 1,
    name: 'an oslo.config string with a line break injects a [DEFAULT] section',
    build: keystone({ config: { DEFAULT: { log_dir: '/var/log\n[DEFAULT]\ndebug = true' } } }),
    path: '[prod/keystone] config: [DEFAULT] log_dir',
    fix: LINE,
  },
  {
    class: 1,
    name: 'an oslo.config string with a line break injects a [database] connection',
    build: keystone({ config: { token: { provider: 'fernet\n[database]\nconnection = mysql://evil/db' } } }),
    path: '[prod/keystone] config: [token] provider',
    fix: /must be one of|put the value on one line/,
  },
  {
    class: 1,
    name: 'a carriage return in an oslo.config string',
    build: keystone({ config: { DEFAULT: { log_dir: '/var/log\r[x]' } } }),
    path: '[prod/keystone] config: [DEFAULT] log_dir',
    fix: LINE,
  },
  {
    class: 1,
    name: 'a Unicode line separator in an oslo.config string',
    build: keystone({ config: { DEFAULT: { log_dir: '/var/log\u2028[x]' } } }),
    path: '[prod/keystone] config: [DEFAULT] log_dir',
    fix: LINE,
  },
  {
    class: 1,
    name: 'a list item with a line break',
    build: keystone({ config: { oslo_messaging_notifications: { driver: ['noop\n[DEFAULT]'] } } }),
    path: '[prod/keystone] config: [oslo_messaging_notifications] driver',
    fix: LINE,
  },
  {
    class: 1,
    name: 'a dict value with a line break',
    build: keystone({ config: { profiler_jaeger: { process_tags: { a: 'b\n[DEFAULT]' } } } }),
    path: '[prod/keystone] config: [profiler_jaeger] process_tags',
    fix: LINE,
  },
  {
    class: 1,
    name: 'a section name that closes the header and opens another',
    build: keystone({ config: { 'DEFAULT]\n[database': { connection: 'x' } } }),
    path: '[prod/keystone] config: section name "DEFAULT]\\n[database"',
    fix: "use letters, digits, '_', '.' and '-'",
  },
  {
    class: 1,
    name: 'an option name with a line break and a second assignment',
    build: keystone({ config: { DEFAULT: { 'debug = true\nlog_dir': 'x' } } }),
    path: '[prod/keystone] config: option name "debug = true\\nlog_dir" in [DEFAULT]',
    fix: "use letters, digits, '_', '.' and '-'",
  },
  {
    class: 1,
    name: 'NaN as a float option',
    build: keystone({ config: { cache: { dead_timeout: Number.NaN } } }),
    path: '[prod/keystone] config: [cache] dead_timeout',
    fix: 'must be a finite number, got NaN',
  },
  {
    class: 1,
    name: 'Infinity as a float option',
    build: keystone({ config: { cache: { dead_timeout: Number.POSITIVE_INFINITY } } }),
    path: '[prod/keystone] config: [cache] dead_timeout',
    fix: 'must be a finite number, got Infinity',
  },
  {
    class: 1,
    name: 'a negative token expiration',
    build: keystone({ config: { token: { expiration: -3600 } } }),
    path: '[prod/keystone] keystone.conf: [token] expiration',
    fix: 'must be >= 0, got -3600',
  },
  {
    class: 1,
    name: 'NaN as a token expiration',
    build: keystone({ config: { token: { expiration: Number.NaN } } }),
    path: '[prod/keystone] config: [token] expiration',
    fix: 'must be a finite number, got NaN',
  },
  {
    class: 1,
    name: 'Infinity as a token expiration',
    build: keystone({ config: { token: { expiration: Number.POSITIVE_INFINITY } } }),
    path: '[prod/keystone] config: [token] expiration',
    fix: 'must be a finite number, got Infinity',
  },
  {
    class: 1,
    name: 'a token expiration given as text',
    build: keystone({ config: { token: { expiration: '3600\n[DEFAULT]' } } }),
    path: '[prod/keystone] config: [token] expiration',
    fix: LINE,
  },
  {
    class: 1,
    name: 'a region name with a line break (rendered into every service’s configuration)',
    build: keystone({ region: 'RegionOne\n[DEFAULT]\ndebug = true' }),
    path: '[prod/keystone] region',
    fix: "e.g. 'RegionOne'",
  },
  {
    class: 1,
    name: 'a region name that expands a Secret in the bootstrap command',
    build: keystone({ region: '$(ADMIN_PASSWORD)' }),
    path: '[prod/keystone] region',
    fix: "e.g. 'RegionOne'",
  },
  {
    class: 1,
    name: 'a region name with a space',
    build: keystone({ region: 'Region One' }),
    path: '[prod/keystone] region',
    fix: "e.g. 'RegionOne'",
  },
  {
    class: 1,
    name: 'a Heat stack user domain that runs a second command',
    build: heat({ stackUserDomain: 'heat; rm -rf /' }),
    path: '[prod/heat] stackUserDomain',
    fix: "must be letters, digits, '_' or '-'",
  },
  {
    class: 1,
    name: 'a Heat stack user domain with a line break',
    build: heat({ stackUserDomain: 'heat\nopenstack user delete admin' }),
    path: '[prod/heat] stackUserDomain',
    fix: "must be letters, digits, '_' or '-'",
  },
  {
    class: 1,
    name: 'a Heat stack user domain with command substitution',
    build: heat({ stackUserDomain: '$(cat /etc/shadow)' }),
    path: '[prod/heat] stackUserDomain',
    fix: "must be letters, digits, '_' or '-'",
  },
  {
    class: 1,
    name: 'an external broker user that closes the quotes of the vhost Job’s curl',
    build: () =>
      externalMessaging({
        host: 'mq.example.com',
        adminUser: 'admin" -d @/etc/passwd "',
        adminPassword: ADMIN_PASSWORD,
      }),
    path: '[externalMessaging(...)] adminUser',
    fix: "e.g. 'admin'",
  },
  {
    class: 1,
    name: 'an external broker host with a shell command',
    build: () =>
      externalMessaging({ host: 'mq.example.com;id', adminUser: 'admin', adminPassword: ADMIN_PASSWORD }),
    path: '[externalMessaging(...)] host',
    fix: "give one such as 'galera.example.com'",
  },
  {
    class: 1,
    name: 'an external database host with a line break (connection URLs)',
    build: () => externalDatabase({ host: 'db.example.com\n[database]', adminPassword: ADMIN_PASSWORD }),
    path: '[externalDatabase(...)] host',
    fix: "give one such as 'galera.example.com'",
  },
  {
    class: 1,
    name: 'a memcached server with a line break (oslo.cache servers)',
    build: () => externalCache({ servers: ['mc.example.com:11211\n[DEFAULT]'] }),
    path: '[externalCache(...)] servers[0]',
    fix: "write e.g. 'memcached-0.memcached:11211'",
  },
  {
    class: 1,
    name: 'a Ceph monitor with a line break (ceph.conf)',
    build: gnocchi({
      storage: {
        type: 'ceph',
        pool: 'metrics',
        ceph: { ...CEPH, monitors: ['10.0.0.1\n[global]\nkeyring = /x'] },
      },
    }),
    path: '[prod/gnocchi] storage.ceph.monitors',
    fix: "write host or host:port, e.g. '10.0.0.1:6789'",
  },
  {
    class: 1,
    name: 'a cephx user with a line break (ceph.conf, keyring path)',
    build: cinder({
      volumeBackends: [
        { type: 'rbd', name: 'ceph', pool: 'volumes', ceph: { ...CEPH, user: 'cinder\n[global]' } },
      ],
    }),
    path: '[prod/cinder] volumeBackends[0].ceph.user',
    fix: 'give it without the "client." prefix',
  },
  {
    class: 1,
    name: 'a Ceph pool with a line break (cinder.conf)',
    build: cinder({
      volumeBackends: [{ type: 'rbd', name: 'ceph', pool: 'volumes\n[DEFAULT]', ceph: CEPH }],
    }),
    path: '[prod/cinder] volumeBackends[0].pool',
    fix: "use letters, digits, '_', '.' and '-'",
  },
  {
    class: 1,
    name: 'an Ironic network name with a line break (ironic.conf)',
    build: (cloud) =>
      new InfraIronic(cloud, 'ironic', {
        ...infra(cloud),
        networks: { provisioning: { name: 'bm\n[DEFAULT]' } },
      }),
    path: '[prod/ironic] networks.provisioning.name',
    fix: 'put it on one line',
  },
  {
    class: 1,
    name: 'a Nova metadata host with a line break (OVN metadata agent configuration)',
    build: neutron({ ovnAgent: { novaMetadataHost: 'nova-metadata\n[DEFAULT]' } }),
    path: '[prod/neutron] ovnAgent.novaMetadataHost',
    fix: 'put it on one line',
  },
  {
    class: 1,
    name: 'an L3 agent option with a line break',
    build: neutron({ l3Agent: { config: { DEFAULT: { interface_driver: 'ovs\n[DEFAULT]' } } } }),
    path: '[prod/neutron] l3Agent.config: [DEFAULT] interface_driver',
    fix: LINE,
  },
  {
    class: 1,
    name: 'a compute option with a line break',
    build: nova({ compute: { config: { DEFAULT: { my_ip: '10.0.0.1\n[libvirt]' } } } }),
    path: '[prod/nova] compute.config: [DEFAULT] my_ip',
    fix: LINE,
  },
  {
    class: 1,
    name: 'a Ceilometer archive policy with a line break',
    build: ceilometer({ archivePolicy: 'low\n[DEFAULT]' }),
    path: '[prod/ceilometer] archivePolicy',
    fix: 'put it on one line',
  },
  {
    class: 1,
    name: 'a release with a line break (image tags)',
    build: (_cloud, app) => new Cloud(app, 'bad', { namespace: 'bad', release: js('2025.1\nfoo') }),
    path: '[bad] release',
    fix: "must be one of '2024.2', '2025.1'",
  },
  {
    class: 3,
    name: 'a release the package carries no schemas or images for',
    build: (_cloud, app) => new Cloud(app, 'bad', { namespace: 'bad', release: js('2025.2') }),
    path: '[bad] release',
    fix: "this package carries option schemas and images for '2024.2', '2025.1' only",
  },
  {
    class: 3,
    name: 'a release given by its codename',
    build: (_cloud, app) => new Cloud(app, 'bad', { namespace: 'bad', release: js('epoxy') }),
    path: '[bad] release',
    fix: "write release: '2025.1'",
  },
  {
    class: 3,
    name: 'common labels that overwrite the label Stackwright manages objects by',
    build: (_cloud, app) =>
      new Cloud(app, 'bad', { namespace: 'bad', labels: { 'app.kubernetes.io/managed-by': 'me' } }),
    path: '[bad] labels must not set app.kubernetes.io/managed-by',
    fix: 'use a label key of your own',
  },
  {
    class: 3,
    name: 'common labels with the stackwright.io prefix',
    build: (_cloud, app) =>
      new Cloud(app, 'bad', { namespace: 'bad', labels: { 'stackwright.io/cloud': 'x' } }),
    path: '[bad] labels must not set stackwright.io/cloud',
    fix: "the stackwright.io prefix belongs to Stackwright's manifest contract",
  },
  {
    class: 3,
    name: "common labels with Yaook's reserved forced-downscale label",
    build: (_cloud, app) =>
      new Cloud(app, 'bad', { namespace: 'bad', labels: { 'state.yaook.cloud/forced-downscale': 'true' } }),
    path: '[bad] labels must not set state.yaook.cloud/forced-downscale',
    fix: 'remove it',
  },
  {
    class: 1,
    name: 'a Job environment variable name with "=" (the pod spec)',
    build: job({ env: { 'A=B': 'x' } }),
    path: '[prod/job] env key',
    fix: "use letters, digits, '_', '-' and '.'",
  },
  {
    class: 1,
    name: 'a generated Secret key with command substitution (the generator Job’s shell)',
    build: (cloud) =>
      new GeneratedSecret(cloud, 'secret', { operatorKey: SchedulingKey.OPERATOR_ANY, keys: ['a$(id)'] }),
    path: '[prod/secret] keys[0]',
    fix: "use letters, digits, '-', '_' and '.'",
  },
  {
    class: 1,
    name: 'a generated Secret initial value with a quote (the generator Job’s JSON and shell)',
    build: (cloud) =>
      new GeneratedSecret(cloud, 'secret', {
        operatorKey: SchedulingKey.OPERATOR_ANY,
        keys: ['password'],
        initial: { username: `a'b` },
      }),
    path: '[prod/secret] initial.username',
    fix: 'is not a valid DNS-1123 label',
  },
  {
    class: 1,
    name: 'a generated Secret key both random and given',
    build: (cloud) =>
      new GeneratedSecret(cloud, 'secret', {
        operatorKey: SchedulingKey.OPERATOR_ANY,
        keys: ['password', 'username'],
        initial: { username: 'glance' },
      }),
    path: '[prod/secret]',
    fix: "key 'username' is in both keys and initial; a key is either random or given",
  },
  {
    class: 1,
    name: 'an API health path with a line break (probes)',
    build: api({ healthPath: '/health\n' }),
    path: '[prod/api] healthPath',
    fix: "must be an HTTP path such as '/healthcheck'",
  },
  {
    class: 1,
    name: 'NaN as Memcached memory (rendered into its command line)',
    build: (cloud) => new Memcached(cloud, 'cache', { memoryMiB: Number.NaN }),
    path: '[prod/cache] memoryMiB',
    fix: 'must be a finite number between 64 and 65536, got NaN',
  },

  // ── Class 2: crashes instead of errors ────────────────────────────────────────────────────────
  ...[1e8, Number.NaN, Number.POSITIVE_INFINITY, -1, 2.5, '3'].map((replicas): ConstructCase => ({
    class: 2,
    name: `MariaDB replicas ${String(replicas)} (an array of members is built from it)`,
    build: (cloud) => new MariaDB(cloud, 'db', { replicas: js<number>(replicas) }),
    path: '[prod/db] replicas',
    fix: 'between 1 and 9',
  })),
  ...[1e8, Number.NEGATIVE_INFINITY, Number.NaN].map((replicas): ConstructCase => ({
    class: 2,
    name: `RabbitMQ replicas ${String(replicas)}`,
    build: (cloud) => new RabbitMQ(cloud, 'mq', { replicas: js<number>(replicas) }),
    path: '[prod/mq] replicas',
    fix: 'between 1 and 9',
  })),
  ...[1e9, Number.NaN].map((replicas): ConstructCase => ({
    class: 2,
    name: `OVSDB replicas ${String(replicas)}`,
    build: (cloud) => new OvsdbCluster(cloud, 'ovsdb', { replicas: js<number>(replicas) }),
    path: '[prod/ovsdb] replicas',
    fix: 'between 1 and 7',
  })),
  ...[1e8, Number.NaN, null].map((replicas): ConstructCase => ({
    class: 2,
    name: `Memcached replicas ${String(replicas)}`,
    build: (cloud) => new Memcached(cloud, 'cache', { replicas: js<number>(replicas) }),
    path: '[prod/cache] replicas',
    fix: 'between 1 and 16',
  })),
  {
    class: 2,
    name: 'Memcached memory Infinity',
    build: (cloud) => new Memcached(cloud, 'cache', { memoryMiB: Number.POSITIVE_INFINITY }),
    path: '[prod/cache] memoryMiB',
    fix: 'between 64 and 65536',
  },
  {
    class: 2,
    name: 'Nova cells 1e8 (a cell is built per count)',
    build: nova({ cells: 1e8 }),
    path: '[prod/nova] cells',
    fix: 'between 1 and 100',
  },
  {
    class: 2,
    name: 'Nova cells Infinity',
    build: nova({ cells: Number.POSITIVE_INFINITY }),
    path: '[prod/nova] cells',
    fix: 'between 1 and 100',
  },
  {
    class: 2,
    name: 'Heat engine workers Infinity',
    build: heat({ engineWorkers: Number.POSITIVE_INFINITY }),
    path: '[prod/heat] engineWorkers',
    fix: 'between 1 and 64',
  },
  {
    class: 2,
    name: 'Gnocchi metricd workers NaN',
    build: gnocchi({ metricdWorkers: Number.NaN }),
    path: '[prod/gnocchi] metricdWorkers',
    fix: 'between 1 and 64',
  },
  {
    class: 2,
    name: 'Keystone without its inputs',
    build: (cloud) => new Keystone(cloud, 'keystone', js(undefined)),
    path: '[prod/keystone] missing required input "database"',
    fix: 'pass a MariaDB or externalDatabase(...) as `database`',
  },
  {
    class: 2,
    name: 'Keystone with empty props',
    build: (cloud) => new Keystone(cloud, 'keystone', js({})),
    path: '[prod/keystone] missing required input "cache"',
    fix: 'pass a Memcached or externalCache(...) as `cache`',
  },
  {
    class: 2,
    name: 'Glance without Keystone',
    build: (cloud) => {
      const { database, cache } = infra(cloud);
      new Glance(cloud, 'glance', js({ database, cache }));
    },
    path: '[prod/glance] missing required input "keystone"',
    fix: 'pass the Keystone service as `keystone`',
  },
  {
    class: 2,
    name: 'Keystone with a database that is not an endpoint',
    build: keystone({ database: {} }),
    path: '[prod/keystone] database',
    fix: 'pass a MariaDB or externalDatabase(...)',
  },
  {
    class: 2,
    name: 'Keystone with a cache given as a string',
    build: keystone({ cache: 'memcached:11211' }),
    path: '[prod/keystone] cache',
    fix: 'pass a Memcached or externalCache(...)',
  },
  {
    class: 2,
    name: 'Heat with a Keystone that is not a service',
    build: heat({ keystone: { authUrl: 'http://keystone' } }),
    path: '[prod/heat] keystone',
    fix: 'pass the Keystone service',
  },
  {
    class: 2,
    name: 'externalDatabase({})',
    build: () => externalDatabase(js({})),
    path: '[externalDatabase(...)] host',
    fix: 'pass the database host',
  },
  {
    class: 2,
    name: 'externalDatabase() without anything',
    build: () => externalDatabase(js(undefined)),
    path: '[externalDatabase(...)] adminPassword',
    fix: "pass the administrator's password as { secretName, key }",
  },
  {
    class: 2,
    name: 'externalMessaging without user and password',
    build: () => externalMessaging(js({ host: 'mq.example.com' })),
    path: '[externalMessaging(...)] adminUser',
    fix: "pass the administrator's user name",
  },
  {
    class: 2,
    name: 'externalCache({})',
    build: () => externalCache(js({})),
    path: '[externalCache(...)] servers',
    fix: "pass every memcached server as 'host:port'",
  },
  {
    class: 2,
    name: 'externalCache with servers as a string',
    build: () => externalCache(js({ servers: 'mc.example.com:11211' })),
    path: '[externalCache(...)] servers',
    fix: 'must be a list',
  },
  {
    class: 2,
    name: 'an edge to an object that is not a component',
    build: (cloud) => new TinyService(cloud, 'a').parts.api.dependsOn(js({})),
    path: '[prod/a/api] dependsOn(Object)',
    fix: 'pass one of those',
  },
  {
    class: 2,
    name: 'an edge to undefined',
    build: (cloud) => new TinyService(cloud, 'a').parts.api.dependsOn(js(undefined)),
    path: '[prod/a/api] dependsOn(undefined)',
    fix: 'pass one of those',
  },
  {
    class: 2,
    name: 'an edge to a component name given as a string',
    build: (cloud) => new TinyService(cloud, 'a').parts.api.dependsOn(js('keystone-api')),
    path: '[prod/a/api] dependsOn("keystone-api")',
    fix: 'pass one of those',
  },
  {
    class: 2,
    name: 'a Cloud without props',
    build: (_cloud, app) => new Cloud(app, 'bare', js(undefined)),
    path: '[bare] namespace is required',
    fix: "pass the namespace of the cloud's objects",
  },
  {
    class: 2,
    name: 'Cloud labels given as a string',
    build: (_cloud, app) => new Cloud(app, 'bad', { namespace: 'bad', labels: js('team=infra') }),
    path: '[bad] labels',
    fix: 'must be an object of label: value',
  },
  {
    class: 2,
    name: 'Keystone config given as a string',
    build: keystone({ config: 'debug = true' }),
    path: '[prod/keystone] config',
    fix: 'must be an object of sections',
  },
  {
    class: 2,
    name: 'a configuration section given as null',
    build: keystone({ config: { DEFAULT: null } }),
    path: '[prod/keystone] config: [DEFAULT]',
    fix: 'must be an object of option: value',
  },
  {
    class: 2,
    name: 'Cinder volume backends given as a string',
    build: cinder({ volumeBackends: 'ceph' }),
    path: '[prod/cinder] volumeBackends',
    fix: 'must be a list',
  },
  {
    class: 2,
    name: 'a Cinder volume backend given as null',
    build: cinder({ volumeBackends: [null] }),
    path: '[prod/cinder] volumeBackends[0].type is required',
    fix: "pass 'rbd' or 'lvm'",
  },
  {
    class: 2,
    name: 'Gnocchi Ceph storage without its Ceph client',
    build: gnocchi({ storage: { type: 'ceph', pool: 'metrics' } }),
    path: '[prod/gnocchi] storage.ceph',
    fix: 'must be { monitors, user, keyring }',
  },
  {
    class: 2,
    name: 'a Ceph client without monitors',
    build: gnocchi({ storage: { type: 'ceph', pool: 'metrics', ceph: { ...CEPH, monitors: undefined } } }),
    path: '[prod/gnocchi] storage.ceph.monitors',
    fix: 'list the Ceph monitors',
  },
  {
    class: 2,
    name: 'a Job without a command',
    build: job({ command: undefined }),
    path: '[prod/job] command is required',
    fix: 'the command as a list of strings',
  },
  {
    class: 2,
    name: 'a Job without an operator key',
    build: job({ operatorKey: undefined }),
    path: '[prod/job] operatorKey is required',
    fix: 'the operator key of the service',
  },
  {
    class: 2,
    name: 'a worker without the ports it connects to',
    build: (cloud) =>
      new WorkerService(
        cloud,
        'worker',
        js({ placement: placement(SchedulingKey.ANY_API), image: 'x/y:1', command: ['w'] }),
      ),
    path: '[prod/worker] connectedTo is required',
    fix: 'which its readiness check tries',
  },
  {
    class: 2,
    name: 'an API without a placement',
    build: api({ placement: undefined }),
    path: '[prod/api] owns pods but has no placement',
    fix: 'pass `placement` to the component',
  },
  {
    class: 2,
    name: 'Memcached replicas given as text',
    build: (cloud) => new Memcached(cloud, 'cache', { replicas: js('2') }),
    path: '[prod/cache] replicas',
    fix: 'must be a number between 1 and 16, got "2"',
  },

  // ── Class 3: silently accepted ────────────────────────────────────────────────────────────────
  {
    class: 3,
    name: 'an unknown scheduling key',
    build: (cloud) =>
      new Component(cloud, 'x', {
        placement: { keys: js(['example.com/any']), requiredLabels: {}, nodeSelector: {} },
      }),
    path: '[prod/x] placement.keys[0]',
    fix: 'use one of SchedulingKey',
  },
  {
    class: 3,
    name: 'an empty list of scheduling keys',
    build: (cloud) =>
      new Component(cloud, 'x', { placement: { keys: [], requiredLabels: {}, nodeSelector: {} } }),
    path: '[prod/x] placement.keys',
    fix: 'give at least 1',
  },
  {
    class: 3,
    name: 'a placement with an unknown key',
    build: (cloud) =>
      new Component(cloud, 'x', { placement: js({ ...placement(SchedulingKey.ANY_API), nodeSelecter: {} }) }),
    path: '[prod/x] placement has an unknown key "nodeSelecter"',
    fix: 'the known keys are keys, requiredLabels, nodeSelector',
  },
  {
    class: 3,
    name: 'an edge kind "readyy"',
    build: (cloud) => {
      const a = new TinyService(cloud, 'a');
      const b = new TinyService(cloud, 'b');
      a.parts.api.dependsOn(b, js('readyy'));
    },
    path: '[prod/a/api] dependsOn: unknown edge kind "readyy"',
    fix: 'use one of ready, completed, same-node, runtime',
  },
  {
    class: 3,
    name: 'a component that depends on itself',
    build: (cloud) => {
      const a = new TinyService(cloud, 'a');
      a.parts.api.dependsOn(a.parts.api);
    },
    path: '[prod/a/api] dependsOn: a-api cannot depend on itself',
    fix: 'remove the dependency',
  },
  {
    class: 3,
    name: 'a component that depends on its own service',
    build: (cloud) => {
      const a = new TinyService(cloud, 'a');
      a.parts.api.dependsOn(a);
    },
    path: '[prod/a/api] dependsOn: a-api cannot depend on itself (through prod/a)',
    fix: 'remove the dependency',
  },
  {
    class: 3,
    name: 'a cloud id that is not a DNS label',
    build: (_cloud, app) => new Cloud(app, 'Prod_1', { namespace: 'prod1' }),
    path: '[Prod_1] cloud id "Prod_1"',
    fix: "use lower-case letters, digits and '-'",
  },
  {
    class: 3,
    name: 'a cloud id too long for the inventory label derived from it',
    build: (_cloud, app) => new Cloud(app, 'c'.repeat(64), { namespace: 'long' }),
    path: `[${'c'.repeat(64)}] cloud id`,
    fix: 'shorten it to at most 63',
  },
  {
    class: 3,
    name: 'a service name too long for the component names derived from it',
    build: (cloud) => new Memcached(cloud, 'm'.repeat(41)),
    path: `[prod/${'m'.repeat(41)}] service name`,
    fix: 'shorten it to at most 40',
  },
  {
    class: 3,
    name: 'a StatefulSet name whose pods can never be created (60 characters)',
    build: (cloud) => {
      const component = new Component(cloud, 'member', {
        name: 's'.repeat(60),
        placement: groupPlacement(SchedulingKey.ANY_INFRA),
      });
      clusteredStatefulSet(component, {
        replicas: 1,
        clientPorts: [{ name: 'x', port: 1 }],
        podManagementPolicy: 'Parallel',
        spread: 'even',
        pod: { containers: [{ name: 'x', image: 'x/y:1' }] },
      });
    },
    path: '[prod/member] the StatefulSet name (the component name)',
    fix: 'shorten it to at most 52',
  },
  {
    class: 3,
    name: 'two clouds rendering the same objects into one namespace',
    build: (cloud, app) => {
      new Memcached(cloud, 'cache');
      new Memcached(secondCloud(app, { namespace: 'openstack', createNamespace: false }), 'cache');
    },
    path: '[other] StatefulSet "cache" in namespace "openstack" is rendered by cloud prod',
    fix: 'give each cloud its own namespace',
  },
  {
    class: 3,
    name: 'two clouds creating the same Namespace',
    build: (_cloud, app) => secondCloud(app, { namespace: 'openstack' }),
    path: '[other] Namespace "openstack" (cluster-scoped) is rendered by cloud prod',
    fix: 'or pass createNamespace: false to the cloud that shares it',
  },
  {
    class: 3,
    name: 'an image with a space',
    build: (cloud) => new MariaDB(cloud, 'db', { image: 'mariadb 11.4' }),
    path: '[prod/db] image "mariadb 11.4"',
    fix: 'give one without spaces',
  },
  {
    class: 3,
    name: 'an empty image',
    build: (cloud) => new Memcached(cloud, 'cache', { image: '' }),
    path: '[prod/cache] image ""',
    fix: 'give one without spaces',
  },
  {
    class: 3,
    name: 'a service image with a tab',
    build: keystone({ image: 'keystone:\t2025.1' }),
    path: '[prod/keystone] image',
    fix: 'give one without spaces',
  },
  {
    class: 3,
    name: 'an empty toolbox image',
    build: (_cloud, app) => new Cloud(app, 'bad', { namespace: 'bad', toolboxImage: '' }),
    path: '[bad] toolboxImage',
    fix: 'give one without spaces',
  },
  {
    class: 3,
    name: 'a registry with a space',
    build: (_cloud, app) =>
      new Cloud(app, 'bad', { namespace: 'bad', imageRegistry: 'registry.example.com/ yaook' }),
    path: '[bad] imageRegistry',
    fix: 'give one without spaces',
  },
  ...['kube-system', 'default', 'kube-public'].map((namespace): ConstructCase => ({
    class: 3,
    name: `namespace ${namespace} without an explicit opt-in`,
    build: (_cloud, app) => new Cloud(app, 'sys', { namespace }),
    path: `[sys] namespace "${namespace}" is reserved`,
    fix: 'or pass allowReservedNamespace: true to mean it',
  })),
  {
    class: 3,
    name: "an agentNamespace that is the control plane's namespace",
    build: (_cloud, app) => new Cloud(app, 'same', { namespace: 'openstack', agentNamespace: 'openstack' }),
    path: '[same] agentNamespace "openstack" is the control plane\'s namespace',
    fix: "pass another name, e.g. 'openstack-agents'",
  },
  {
    class: 3,
    name: 'a reserved agentNamespace without an explicit opt-in',
    build: (_cloud, app) => new Cloud(app, 'sys', { namespace: 'openstack', agentNamespace: 'kube-system' }),
    path: '[sys] agentNamespace "kube-system" is reserved',
    fix: 'or pass allowReservedNamespace: true to mean it',
  },
  {
    class: 3,
    name: 'an agentNamespace that is not a DNS label',
    build: (_cloud, app) => new Cloud(app, 'bad', { namespace: 'openstack', agentNamespace: 'Agents!' }),
    path: '[bad] agentNamespace "Agents!"',
    fix: "use lower-case letters, digits and '-'",
  },
  {
    class: 3,
    name: 'a namespace too long for the default agentNamespace',
    build: (_cloud, app) => new Cloud(app, 'long', { namespace: 'o'.repeat(60) }),
    path: `[long] the default agentNamespace "${'o'.repeat(60)}-agents" is longer than 63 characters`,
    fix: 'pass a shorter agentNamespace',
  },
  {
    class: 3,
    name: 'a namespace that is not a DNS label',
    build: (_cloud, app) => new Cloud(app, 'bad', { namespace: 'Open Stack' }),
    path: '[bad] namespace "Open Stack"',
    fix: "use lower-case letters, digits and '-'",
  },
  {
    class: 3,
    name: 'an external database with an empty host',
    build: () => externalDatabase({ host: '', adminPassword: ADMIN_PASSWORD }),
    path: '[externalDatabase(...)] host ""',
    fix: "give one such as 'galera.example.com'",
  },
  ...[70000, 0, -1, 3306.5, Number.NaN].map((port): ConstructCase => ({
    class: 3,
    name: `an external database on port ${port}`,
    build: () => externalDatabase({ host: 'db.example.com', port, adminPassword: ADMIN_PASSWORD }),
    path: '[externalDatabase(...)] port',
    fix: 'between 1 and 65535',
  })),
  {
    class: 3,
    name: 'an external database without its password Secret',
    build: () => externalDatabase(js({ host: 'db.example.com' })),
    path: '[externalDatabase(...)] adminPassword is required',
    fix: "pass the administrator's password as { secretName, key }",
  },
  {
    class: 3,
    name: 'an external database password Secret with an invalid name',
    build: () =>
      externalDatabase({
        host: 'db.example.com',
        adminPassword: { secretName: 'Galera_Root', key: 'password' },
      }),
    path: '[externalDatabase(...)] adminPassword.secretName "Galera_Root"',
    fix: 'is not a valid DNS-1123 subdomain',
  },
  {
    class: 3,
    name: 'an external database password Secret without its key',
    build: () =>
      externalDatabase({ host: 'db.example.com', adminPassword: js({ secretName: 'galera-root' }) }),
    path: '[externalDatabase(...)] adminPassword.key is required',
    fix: 'pass the key inside the Secret',
  },
  {
    class: 3,
    name: 'an external database with a typo in its settings',
    build: () =>
      externalDatabase(js({ host: 'db.example.com', adminPassword: ADMIN_PASSWORD, passwrd: 'x' })),
    path: '[externalDatabase(...)] externalDatabase(...) has an unknown key "passwrd"',
    fix: 'the known keys are host, port, adminPassword, clientImage',
  },
  {
    class: 3,
    name: 'an external broker on port 70000',
    build: () =>
      externalMessaging({
        host: 'mq.example.com',
        port: 70000,
        adminUser: 'admin',
        adminPassword: ADMIN_PASSWORD,
      }),
    path: '[externalMessaging(...)] port',
    fix: 'between 1 and 65535',
  },
  {
    class: 3,
    name: 'a memcached server on port 70000',
    build: () => externalCache({ servers: ['mc.example.com:70000'] }),
    path: '[externalCache(...)] servers[0] port',
    fix: 'between 1 and 65535',
  },
  {
    class: 3,
    name: 'an empty list of memcached servers',
    build: () => externalCache({ servers: [] }),
    path: '[externalCache(...)] servers',
    fix: 'give at least 1',
  },
  {
    class: 3,
    name: 'an API on port 70000',
    build: api({ port: 70000 }),
    path: '[prod/api] port',
    fix: 'between 1 and 65535',
  },
  {
    class: 3,
    name: 'a worker connected to port 0',
    build: (cloud) =>
      new WorkerService(cloud, 'worker', {
        placement: placement(SchedulingKey.ANY_API),
        image: 'x/y:1',
        command: ['w'],
        connectedTo: [0],
      }),
    path: '[prod/worker] connectedTo[0]',
    fix: 'between 1 and 65535',
  },
  ...['10 GB', '5 gigs', '1Gb', '-1Gi', ''].map((size): ConstructCase => ({
    class: 3,
    name: `a volume size ${JSON.stringify(size)}`,
    build: (cloud) => new MariaDB(cloud, 'db', { storageSize: size }),
    path: `[prod/db] storageSize ${JSON.stringify(size)}`,
    fix: "e.g. '10Gi'",
  })),
  {
    class: 3,
    name: 'a RabbitMQ volume size "5 GB"',
    build: (cloud) => new RabbitMQ(cloud, 'mq', { storageSize: '5 GB' }),
    path: '[prod/mq] storageSize "5 GB"',
    fix: "e.g. '10Gi'",
  },
  {
    class: 3,
    name: 'a Glance volume size "10 GB"',
    build: glance({ storage: { type: 'pvc', size: '10 GB' } }),
    path: '[prod/glance] storage.size "10 GB"',
    fix: "e.g. '10Gi'",
  },
  {
    class: 3,
    name: 'a CPU request "1 core"',
    build: api({ requests: { cpu: '1 core', memory: '256Mi' } }),
    path: '[prod/api] requests.cpu "1 core"',
    fix: "e.g. '10Gi', '512Mi', '250m'",
  },
  {
    class: 3,
    name: 'a StorageClass name that is not a DNS name',
    build: (cloud) => new MariaDB(cloud, 'db', { storageClassName: 'Fast_SSD' }),
    path: '[prod/db] storageClassName "Fast_SSD"',
    fix: 'is not a valid DNS-1123 subdomain',
  },
  {
    class: 3,
    name: 'a label key with a space',
    build: (_cloud, app) => new Cloud(app, 'bad', { namespace: 'bad', labels: { 'team name': 'infra' } }),
    path: '[bad] labels: "team name" is not a valid label key',
    fix: "then at most 63 letters, digits, '-', '_' or '.'",
  },
  {
    class: 3,
    name: 'a label value of 64 characters',
    build: (_cloud, app) => new Cloud(app, 'bad', { namespace: 'bad', labels: { team: 'x'.repeat(64) } }),
    path: '[bad] labels: label value',
    fix: "at most 63 letters, digits, '-', '_' or '.'",
  },
  {
    class: 3,
    name: 'a label value with a space',
    build: (_cloud, app) => new Cloud(app, 'bad', { namespace: 'bad', labels: { team: 'core infra' } }),
    path: '[bad] labels: label value "core infra" of team',
    fix: 'starting and ending alphanumeric',
  },
  {
    class: 3,
    name: 'a label key with an invalid prefix',
    build: (_cloud, app) =>
      new Cloud(app, 'bad', { namespace: 'bad', labels: { 'Example.COM/team': 'infra' } }),
    path: '[bad] labels: "Example.COM/team" is not a valid label key',
    fix: "an optional DNS prefix and '/'",
  },
  {
    class: 3,
    name: 'a node template selector with an invalid label key',
    build: nova({ compute: { configTemplates: [{ nodeSelector: { 'bad key!': 'x' }, config: {} }] } }),
    path: '[prod/nova] compute.configTemplates[0].nodeSelector: "bad key!" is not a valid label key',
    fix: "an optional DNS prefix and '/'",
  },
  {
    class: 3,
    name: 'a typo in MariaDB props',
    build: (cloud) => new MariaDB(cloud, 'db', js({ replica: 3 })),
    path: '[prod/db] props has an unknown key "replica"',
    fix: 'the known keys are replicas, storageSize, storageClassName, image',
  },
  {
    class: 2,
    name: 'Keystone fernetRotationHours 5 (does not divide a day)',
    build: keystone({ fernetRotationHours: 5 }),
    path: '[prod/keystone] fernetRotationHours',
    fix: /one of 1, 2, 3, 4, 6, 8, 12, 24/,
  },
  {
    class: 2,
    name: 'Keystone max_active_keys below what the rotation needs',
    build: keystone({ config: { fernet_tokens: { max_active_keys: 3 } } }),
    path: '[prod/keystone] config.fernet_tokens.max_active_keys 3',
    fix: 'set it to at least 5, or remove it to get that default, or rotate less often (fernetRotationHours)',
  },
  {
    class: 3,
    name: 'a typo in Keystone props',
    build: keystone({ replicaz: 2 }),
    path: '[prod/keystone] props has an unknown key "replicaz"',
    fix: 'the known keys are config, image, serviceUserRotation, database, cache, messaging, replicas, fernetRotationHours, credentialRotation, region',
  },
  {
    class: 3,
    name: 'a typo in Cloud props',
    build: (_cloud, app) => new Cloud(app, 'bad', js({ namespace: 'bad', namepsace: 'x' })),
    path: '[bad] props has an unknown key "namepsace"',
    fix: 'the known keys are namespace, release',
  },
  {
    class: 3,
    name: 'a typo in Glance storage',
    build: glance({ storage: { type: 'pvc', sise: '10Gi' } }),
    path: '[prod/glance] storage has an unknown key "sise"',
    fix: 'the known keys are type, size, storageClassName, accessMode',
  },
  {
    class: 3,
    name: 'a typo in Nova compute options',
    build: nova({ compute: { confg: {} } }),
    path: '[prod/nova] compute has an unknown key "confg"',
    fix: 'the known keys are config, configTemplates, forcedDownscale, libvirtImage',
  },
  {
    class: 3,
    name: 'a typo in Component props',
    build: (cloud) => new Component(cloud, 'x', js({ placment: placement(SchedulingKey.ANY_API) })),
    path: '[prod/x] props has an unknown key "placment"',
    fix: 'the known keys are placement, name, enabled',
  },
  {
    class: 3,
    name: 'a typo in Neutron agent options',
    build: neutron({ l3Agent: { configTemplate: [] } }),
    path: '[prod/neutron] l3Agent has an unknown key "configTemplate"',
    fix: 'the known keys are config, configTemplates',
  },
  {
    class: 3,
    name: 'a typo in Ironic conductor options',
    build: (cloud) =>
      new InfraIronic(cloud, 'ironic', { ...infra(cloud), conductor: js({ workerPoolSize: 300 }) }),
    path: '[prod/ironic] conductor has an unknown key "workerPoolSize"',
    fix: 'the known keys are replicas, workersPoolSize',
  },
  ...[NaN, Infinity].map((value): ConstructCase => ({
    class: 1,
    name: `a non-finite Ironic conductor option (workersPoolSize ${value})`,
    build: (cloud) =>
      new InfraIronic(cloud, 'ironic', { ...infra(cloud), conductor: { workersPoolSize: value } }),
    path: `[prod/ironic] conductor.workersPoolSize must be a finite number, got ${value}`,
    fix: 'must be a finite number',
  })),
  {
    class: 1,
    name: 'a non-finite Ironic periodic task spacing',
    build: (cloud) =>
      new InfraIronic(cloud, 'ironic', {
        ...infra(cloud),
        conductor: { periodicTaskSpacing: { syncPowerState: -Infinity } },
      }),
    path: '[prod/ironic] conductor.periodicTaskSpacing.syncPowerState must be a finite number',
    fix: 'got -Infinity',
  },
  {
    class: 3,
    name: "the reserved downscale label as Nova's cellNodeLabel",
    build: (cloud) => {
      const { database, messaging, cache, keystone } = infra(cloud);
      const glance = new Glance(cloud, 'glance', { keystone, database, cache });
      const placementService = new Placement(cloud, 'placement', { keystone, database, cache });
      const ovsdb = new OvsdbCluster(cloud, 'ovsdb');
      const neutron = new Neutron(cloud, 'neutron', { keystone, database, messaging, cache, ovsdb });
      new Nova(cloud, 'nova', {
        keystone,
        database,
        messaging,
        cache,
        glance,
        placement: placementService,
        neutron,
        cells: 2,
        cellNodeLabel: 'state.yaook.cloud/forced-downscale',
      });
    },
    path: '[prod/nova] cellNodeLabel uses the reserved label state.yaook.cloud/forced-downscale',
    fix: 'must never match a node',
  },
  {
    class: 3,
    name: 'two constructs with the same id in one scope',
    build: (cloud) => {
      new Memcached(cloud, 'cache');
      new Memcached(cloud, 'cache');
    },
    path: '[prod/cache] a construct with id cache already exists here',
    fix: 'choose another id',
  },
  {
    class: 3,
    name: 'two clouds with the same id in one app',
    build: (_cloud, app) => new Cloud(app, 'prod', { namespace: 'other' }),
    path: '[prod] a construct with id prod already exists here',
    fix: 'choose another id',
  },
  {
    class: 3,
    name: 'an unknown Glance storage type',
    build: glance({ storage: { type: 'nfs' } }),
    path: '[prod/glance] storage.type',
    fix: 'must be one of "pvc", "file"',
  },
  {
    class: 3,
    name: 'Keystone replicas 0',
    build: keystone({ replicas: 0 }),
    path: '[prod/keystone] replicas',
    fix: 'between 1 and 50',
  },
  {
    class: 3,
    name: 'Memcached replicas 17',
    build: (cloud) => new Memcached(cloud, 'cache', { replicas: 17 }),
    path: '[prod/cache] replicas',
    fix: 'between 1 and 16',
  },
  {
    class: 3,
    name: 'an even Galera cluster',
    build: (cloud) => new MariaDB(cloud, 'db', { replicas: 2 }),
    path: '[prod/db] replicas must be odd so Galera keeps a quorum, got 2',
    fix: 'use 3',
  },
  {
    class: 3,
    name: 'Neutron northd replicas 0',
    build: neutron({ northdReplicas: 0 }),
    path: '[prod/neutron] northdReplicas',
    fix: 'between 1 and 5',
  },
  {
    class: 3,
    name: 'a Barbican listener flag given as text',
    build: (cloud) => new Barbican(cloud, 'barbican', { ...infra(cloud), keystoneListener: js('false') }),
    path: '[prod/barbican] keystoneListener',
    fix: 'must be true or false',
  },
  {
    class: 3,
    name: 'createNamespace given as text',
    build: (_cloud, app) => new Cloud(app, 'bad', { namespace: 'bad', createNamespace: js('yes') }),
    path: '[bad] createNamespace',
    fix: 'must be true or false',
  },
  {
    class: 3,
    name: 'an empty region',
    build: keystone({ region: '' }),
    path: '[prod/keystone] region ""',
    fix: "e.g. 'RegionOne'",
  },
  {
    class: 3,
    name: 'a Job with an unknown operator key',
    build: job({ operatorKey: 'operator.example.com/billing' }),
    path: '[prod/job] operatorKey "operator.example.com/billing"',
    fix: 'use one of SchedulingKey',
  },
  {
    class: 3,
    name: 'a generated Secret without keys',
    build: (cloud) =>
      new GeneratedSecret(cloud, 'secret', { operatorKey: SchedulingKey.OPERATOR_ANY, keys: [] }),
    path: '[prod/secret] keys',
    fix: 'give at least 1',
  },
  {
    class: 3,
    name: 'a generated Secret format "base64"',
    build: (cloud) =>
      new GeneratedSecret(cloud, 'secret', {
        operatorKey: SchedulingKey.OPERATOR_ANY,
        keys: ['k'],
        format: js('base64'),
      }),
    path: '[prod/secret] format',
    fix: 'must be one of "hex", "fernet"',
  },
  {
    class: 3,
    name: 'a component name that is not a DNS label',
    build: (cloud) => new Component(cloud, 'x', { name: 'Billing_API' }),
    path: '[prod/x] name "Billing_API"',
    fix: "use lower-case letters, digits and '-'",
  },
  {
    class: 3,
    name: 'a Job backoff limit of -1',
    build: job({ backoffLimit: -1 }),
    path: '[prod/job] backoffLimit',
    fix: 'between 0 and 100',
  },
  {
    class: 3,
    name: 'a Job environment value that is not text',
    build: job({ env: { DEBUG: true } }),
    path: '[prod/job] env.DEBUG',
    fix: 'must be a string',
  },
  {
    class: 3,
    name: 'a forced-downscale label among a component’s node selector',
    build: (cloud) =>
      new Component(cloud, 'x', {
        placement: {
          ...placement(SchedulingKey.ANY_API),
          nodeSelector: { 'state.yaook.cloud/forced-downscale': 'true' },
        },
      }),
    path: '[prod/x] placement.nodeSelector uses the reserved label state.yaook.cloud/forced-downscale',
    fix: 'use `forcedDownscale: true` on the component instead',
  },
  {
    class: 3,
    name: 'a Ceilometer polling interval of 1 second',
    build: ceilometer({ pollingInterval: 1 }),
    path: '[prod/ceilometer] pollingInterval',
    fix: 'between 10 and 86400',
  },
  {
    class: 3,
    name: 'a Cinder backup of an unknown type',
    build: cinder({ backup: { type: 's3' } }),
    path: '[prod/cinder] backup.type',
    fix: 'must be one of "ceph", "swift"',
  },
  // Secret material in rendered values (issue 25): refused with the Secret reference to use instead.
  ...[
    {
      name: 'a password in a transport_url override',
      build: keystone({
        config: { DEFAULT: { transport_url: 'rabbit://keystone:s3cret@mq:5672/keystone' } },
      }),
      path: '[prod/keystone] config: [DEFAULT] transport_url holds a password in plain text (rabbit://keystone:****@)',
    },
    {
      name: 'a password in a Redis URL of the profiler',
      build: keystone({ config: { profiler: { connection_string: 'redis://:s3cret@redis:6379' } } }),
      path: '[prod/keystone] config: [profiler] connection_string holds a password in plain text (redis://:****@)',
    },
    {
      name: 'a password in a URL inside a list option',
      build: nova({ config: { glance: { api_servers: ['https://glance:s3cret@glance:9292'] } } }),
      path: '[prod/nova] config: [glance] api_servers holds a password in plain text (https://glance:****@)',
    },
    {
      name: 'a password in a node template of nova-compute',
      build: nova({
        compute: {
          configTemplates: [
            {
              nodeSelector: { gpu: 'true' },
              config: { libvirt: { connection_uri: 'qemu+tcp://u:s3cret@h/system' } },
            },
          ],
        },
      }),
      path: '[libvirt] connection_uri holds a password in plain text (qemu+tcp://u:****@)',
    },
    {
      name: 'a password option not marked secret by its schema',
      build: keystone({ config: { cache: { memcache_password: 's3cret' } } }),
      path: '[prod/keystone] config: [cache] memcache_password is a password',
    },
  ].map((c): ConstructCase => ({
    class: 3,
    ...c,
    fix: /pass it from a Secret instead: envFromSecret\(osloEnvName\('\w+', '\w+'\), \{ secretName, key \}\)/,
  })),
  {
    class: 3,
    name: "a password in a URL of a configuration file of one's own service",
    build: api({
      config: {
        mountPath: '/etc/billing',
        files: { 'billing.ini': 'db = postgres://billing:s3cret@pg/billing\n' },
      },
    }),
    path: '[prod/api] config.files.billing.ini holds a password in plain text (postgres://billing:****@)',
    fix: 'give it to the pod from a Secret with envFromSecret(NAME, { secretName, key })',
  },
  // ── Found by the fuzzer (test/fuzz, docs/validation.md) ──────────────────────────────────────
  {
    class: 2,
    name: 'fuzz: replicas nested 20000 lists deep (the message overflowed the stack)',
    build: (cloud) => new MariaDB(cloud, 'db', { replicas: js<number>(deepList(20_000)) }),
    path: '[prod/db] replicas must be a number',
    fix: 'between 1 and 9, got [[[[…]]]]',
  },
  {
    class: 2,
    name: 'fuzz: a namespace nested 20000 objects deep',
    build: (_cloud, app) => new Cloud(app, 'other', { namespace: js<string>(deepObject(20_000)) }),
    path: '[other] namespace must be a string',
    fix: '{"a":{"a":{"a":{…}}}}',
  },
  {
    class: 2,
    name: 'fuzz: a release nested 20000 lists deep (its message overflowed the stack)',
    build: (_cloud, app) => new Cloud(app, 'other', { namespace: 'other', release: js(deepList(20_000)) }),
    path: '[other] release must be one of',
    fix: 'got [[[[…]]]]',
  },
  {
    class: 2,
    name: "fuzz: Nova's cellNodeLabel as a deep list (String() of it overflowed the stack)",
    build: nova({ cellNodeLabel: deepList(20_000) }),
    path: '[prod/nova] cellNodeLabel must be a string',
    fix: 'got [[[[…]]]]',
  },
  {
    class: 2,
    name: 'fuzz: an oslo.config option whose dict holds a deep list',
    build: glance({ config: { DEFAULT: { option: { a: deepList(20_000) } } } }),
    path: '[prod/glance] config: [DEFAULT] option must be a string, number or boolean, or a list or dict of them',
    fix: 'got {"a":[[[…]]]}',
  },
  {
    class: 2,
    name: "fuzz: an ApiService's volumes that are not a list (not iterable)",
    build: api({ volumes: -Infinity }),
    path: '[prod/api] volumes must be a list of Kubernetes objects',
    fix: 'got -Infinity',
  },
  {
    class: 2,
    name: "fuzz: an ApiService's env nested past the stack",
    build: api({ env: [{ name: 'X', valueFrom: deepObject(20_000) }] }),
    path: '[prod/api] env[0] is nested more than 32 levels deep',
    fix: 'give the object as Kubernetes defines it',
  },
  {
    class: 2,
    name: "fuzz: a JobComponent's volumes as a string (.some is not a function)",
    build: job({ volumes: 'x' }),
    path: '[prod/job] volumes must be a list of Kubernetes objects',
    fix: 'got "x"',
  },
  {
    class: 2,
    name: "fuzz: a JobComponent's kubernetesAccess as an object (not iterable)",
    build: job({ kubernetesAccess: { a: 1 } }),
    path: '[prod/job] kubernetesAccess must be a list of Kubernetes objects',
    fix: 'got {"a":1}',
  },
  {
    class: 2,
    name: "fuzz: a JobComponent's extraEnv item that is a number",
    build: job({ extraEnv: [7] }),
    path: '[prod/job] extraEnv[0] must be an object',
    fix: 'got 7',
  },
];

/** A list nested `depth` deep: deeper than any recursion (or `JSON.stringify`) follows. */
function deepList(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** `{ a: { a: … } }`, `depth` deep. */
function deepObject(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}
