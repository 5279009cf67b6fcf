import { App } from 'cdk8s';
import { ApiService, GeneratedSecret, JobComponent, WorkerService } from '../../constructs';
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
import { Cloud } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { js } from '../catalogue/bad-input';
import { TinyService } from '../support/tiny-service';

/** Props as plain JavaScript passes them: whatever the TypeScript types say. */
export type LooseProps = Record<string, unknown>;

/**
 * One construct the fuzzer builds: valid props to start from (`base`, given the cloud so it can
 * build the inputs a service needs) and `build`, which makes the construct from (mutated) props.
 * Every construct a user builds is here: the Cloud, constructs/infra, constructs/openstack, and
 * the building blocks of a service of one's own.
 */
export interface ConstructTarget {
  readonly name: string;
  /** The construct path its messages must carry. */
  readonly path: string;
  /** Builds the construct (and what it needs) in a fresh App from `mutate(valid props)`. */
  build(app: App, mutate: (props: LooseProps) => unknown): void;
}

/** A target inside cloud `prod` (namespace `openstack`). */
function inCloud(
  name: string,
  id: string,
  make: (cloud: Cloud, id: string, mutate: (props: LooseProps) => unknown) => void,
): ConstructTarget {
  return {
    name,
    path: `prod/${id}`,
    build: (app, mutate) => make(new Cloud(app, 'prod', { namespace: 'openstack' }), id, mutate),
  };
}

/** The infrastructure and Keystone most services need. */
function infra(cloud: Cloud) {
  const database = new MariaDB(cloud, 'db');
  const messaging = new RabbitMQ(cloud, 'mq');
  const cache = new Memcached(cloud, 'cache');
  const keystone = new Keystone(cloud, 'keystone', { database, cache });
  return { database, messaging, cache, keystone };
}

const CONFIG = { DEFAULT: { debug: true, log_dir: '/var/log' } };
const CEPH = {
  monitors: ['10.0.0.1:6789'],
  user: 'cinder',
  keyring: { secretName: 'ceph-cinder', key: 'keyring' },
};

export const CONSTRUCT_TARGETS: readonly ConstructTarget[] = [
  {
    name: 'Cloud',
    path: 'prod',
    build: (app, mutate) => {
      const cloud = new Cloud(
        app,
        'prod',
        js(
          mutate({
            namespace: 'openstack',
            release: '2025.1',
            imageRegistry: 'registry.example.com/yaook',
            labels: { team: 'platform' },
            createNamespace: true,
            agentNamespace: 'openstack-agents',
          }),
        ),
      );
      new Memcached(cloud, 'cache');
    },
  },
  inCloud('MariaDB', 'db', (cloud, id, mutate) => {
    new MariaDB(cloud, id, js(mutate({ replicas: 3, storageSize: '10Gi', storageClassName: 'fast' })));
  }),
  inCloud('Memcached', 'cache', (cloud, id, mutate) => {
    new Memcached(cloud, id, js(mutate({ replicas: 2 })));
  }),
  inCloud('RabbitMQ', 'mq', (cloud, id, mutate) => {
    new RabbitMQ(cloud, id, js(mutate({ replicas: 3, storageSize: '1Gi' })));
  }),
  inCloud('OvsdbCluster', 'ovsdb', (cloud, id, mutate) => {
    new OvsdbCluster(cloud, id, js(mutate({ replicas: 3 })));
  }),
  inCloud('Keystone', 'identity', (cloud, id, mutate) => {
    const { database, cache } = infra(cloud);
    new Keystone(cloud, id, js(mutate({ database, cache, config: CONFIG, replicas: 2 })));
  }),
  inCloud('Glance', 'glance', (cloud, id, mutate) => {
    const { keystone, database, cache } = infra(cloud);
    new Glance(cloud, id, js(mutate({ keystone, database, cache, config: CONFIG })));
  }),
  inCloud('Placement', 'placement', (cloud, id, mutate) => {
    const { keystone, database, cache } = infra(cloud);
    new Placement(cloud, id, js(mutate({ keystone, database, cache, config: CONFIG })));
  }),
  inCloud('Neutron', 'neutron', (cloud, id, mutate) => {
    const base = infra(cloud);
    new Neutron(
      cloud,
      id,
      js(
        mutate({
          ...base,
          ovsdb: new OvsdbCluster(cloud, 'ovsdb'),
          ovnAgent: { dependantKeys: [SchedulingKey.COMPUTE_HYPERVISOR] },
          config: CONFIG,
        }),
      ),
    );
  }),
  inCloud('Nova', 'nova', (cloud, id, mutate) => {
    const base = infra(cloud);
    const { keystone, database, cache } = base;
    const placementService = new Placement(cloud, 'placement', { keystone, database, cache });
    const glance = new Glance(cloud, 'glance', { keystone, database, cache });
    const neutron = new Neutron(cloud, 'neutron', {
      ...base,
      ovsdb: new OvsdbCluster(cloud, 'ovsdb'),
      ovnAgent: { dependantKeys: [SchedulingKey.COMPUTE_HYPERVISOR] },
    });
    new Nova(
      cloud,
      id,
      js(
        mutate({
          ...base,
          placement: placementService,
          glance,
          neutron,
          cells: 2,
          cellNodeLabel: 'example.com/cell',
          compute: {
            configTemplates: [
              {
                nodeSelector: { 'example.com/gpu': 'true' },
                config: { DEFAULT: { cpu_allocation_ratio: 4 } },
              },
            ],
          },
          config: CONFIG,
        }),
      ),
    );
  }),
  inCloud('Cinder', 'cinder', (cloud, id, mutate) => {
    new Cinder(
      cloud,
      id,
      js(
        mutate({
          ...infra(cloud),
          volumeBackends: [{ type: 'rbd', name: 'ceph', pool: 'volumes', ceph: CEPH }],
          config: CONFIG,
        }),
      ),
    );
  }),
  inCloud('Barbican', 'barbican', (cloud, id, mutate) => {
    new Barbican(cloud, id, js(mutate({ ...infra(cloud), keystoneListener: false, config: CONFIG })));
  }),
  inCloud('Heat', 'heat', (cloud, id, mutate) => {
    new Heat(cloud, id, js(mutate({ ...infra(cloud), config: CONFIG })));
  }),
  inCloud('Gnocchi', 'gnocchi', (cloud, id, mutate) => {
    const { keystone, database, cache } = infra(cloud);
    new Gnocchi(cloud, id, js(mutate({ keystone, database, cache, config: CONFIG })));
  }),
  inCloud('Ceilometer', 'ceilometer', (cloud, id, mutate) => {
    const { keystone, database, cache, messaging } = infra(cloud);
    const gnocchi = new Gnocchi(cloud, 'gnocchi', { keystone, database, cache });
    new Ceilometer(cloud, id, js(mutate({ keystone, messaging, gnocchi, config: CONFIG })));
  }),
  inCloud('InfraIronic', 'ironic', (cloud, id, mutate) => {
    new InfraIronic(
      cloud,
      id,
      js(
        mutate({
          ...infra(cloud),
          neutron: new TinyService(cloud, 'neutron', ['api']),
          networks: {
            provisioning: { name: 'provisioning', physicalNetwork: 'physnet-bm', cidr: '10.20.0.0/24' },
            cleaning: { name: 'cleaning' },
          },
          conductor: {
            workersPoolSize: 3,
            periodicMaxWorkers: 1,
            periodicTaskSpacing: { syncPowerState: 120 },
          },
          config: CONFIG,
        }),
      ),
    );
  }),
  inCloud('ApiService', 'api', (cloud, id, mutate) => {
    new ApiService(
      cloud,
      id,
      js(
        mutate({
          placement: placement(SchedulingKey.ANY_API),
          image: 'registry.example.com/billing:1',
          command: ['billing-api'],
          port: 8080,
          healthPath: '/healthcheck',
          env: [{ name: 'LOG_LEVEL', value: 'debug' }],
        }),
      ),
    );
  }),
  inCloud('WorkerService', 'worker', (cloud, id, mutate) => {
    new WorkerService(
      cloud,
      id,
      js(
        mutate({
          placement: placement(SchedulingKey.OPERATOR_ANY),
          image: 'registry.example.com/billing:1',
          command: ['billing-worker'],
          connectedTo: [5672],
        }),
      ),
    );
  }),
  inCloud('JobComponent', 'job', (cloud, id, mutate) => {
    new JobComponent(
      cloud,
      id,
      js(
        mutate({
          operatorKey: SchedulingKey.OPERATOR_ANY,
          image: 'registry.example.com/billing:1',
          command: ['billing-manage', 'db_sync'],
        }),
      ),
    );
  }),
  inCloud('GeneratedSecret', 'secret', (cloud, id, mutate) => {
    new GeneratedSecret(
      cloud,
      id,
      js(mutate({ operatorKey: SchedulingKey.OPERATOR_ANY, keys: ['password'] })),
    );
  }),
];
