import { k8s } from 'cdk8s-plus-33';
import { commonInputHints, commonInputRules } from '../openstack-kit/input-rules';
import { Construct } from 'constructs';
import { addCheck, Component, JsonApiObject, required, Rules } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../kube/api-service';
import {
  CephClient,
  cephPoolProblems,
  cephKeyringPath,
  cephKeyringVolume,
  renderCephConf,
} from '../openstack-kit/ceph-client';
import { JobComponent } from '../kube/job-component';
import { volumeClaim } from '../kube/volume-claim';
import { KeystoneRegistration } from '../openstack-kit/keystone-registration';
import { osloEnvName } from '../openstack-kit/oslo-config';
import { uwsgiCommand } from '../openstack-kit/uwsgi';
import { WorkerService } from '../kube/worker-service';
import { OpenStackServiceProps } from '../openstack-kit/openstack-service';
import { OpenStackApiService, OpenStackApiServiceDescriptor } from '../openstack-kit/openstack-api-service';

/** Where Gnocchi keeps measures and aggregates. */
export type GnocchiStorage =
  | {
      /** A shared volume: API and metricd pods mount one ReadWriteMany claim. */
      readonly type: 'file';
      /** @default '10Gi' */
      readonly size?: string;
      /** A class offering ReadWriteMany volumes. @default - the cluster's default StorageClass */
      readonly storageClassName?: string;
    }
  | { readonly type: 'ceph'; readonly pool: string; readonly ceph: CephClient };

/** Gnocchi's database holds the indexer (metric and resource metadata); its cache is also metricd's coordinator (tooz). */
export interface GnocchiProps extends Omit<OpenStackServiceProps, 'messaging'> {
  /** @default { type: 'file', size: '10Gi' } */
  readonly storage?: GnocchiStorage;
  /** @default 2 */
  readonly apiReplicas?: number;
  /** metricd pods; they split the incoming sacks between them through the coordinator. @default 2 */
  readonly metricdReplicas?: number;
  /** Processing workers per metricd pod (`[metricd] workers`). @default 2 */
  readonly metricdWorkers?: number;
}

const PORT = 8041;
const FILE_BASEPATH = '/var/lib/gnocchi';

const GNOCCHI: OpenStackApiServiceDescriptor<GnocchiProps> = {
  image: 'gnocchi',
  operatorKey: SchedulingKey.OPERATOR_GNOCCHI,
  catalog: { type: 'metric', name: 'gnocchi', port: PORT },
  inputs: commonInputHints('keystone', 'database', 'cache'),
  props: {
    ...commonInputRules('keystone', 'database', 'cache'),
    storage: Rules.given((value, name) => {
      const storage = value as { type?: unknown; size?: unknown; storageClassName?: unknown } | null;
      const type = storage?.type;
      if (type === 'ceph') return cephPoolProblems(value as GnocchiStorage & { type: 'ceph' }, name);
      return [
        ...required(Rules.oneOf('file', 'ceph'), "'file' or 'ceph'")(type, `${name}.type`),
        ...Rules.quantity()(storage?.size, `${name}.size`),
        ...Rules.dnsSubdomain()(storage?.storageClassName, `${name}.storageClassName`),
      ];
    }),
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    metricdReplicas: Rules.count({ min: 1, max: 20 }),
    metricdWorkers: Rules.count({ min: 1, max: 64 }),
  },
};

/**
 * Gnocchi, the time-series metric store Ceilometer publishes to: the API, metricd (aggregation), the
 * indexer database chain, a storage-init Job that prepares the storage (a shared volume or a Ceph
 * pool), and the `metric` catalogue entry. API and metricd wait for Keystone, the indexer and
 * memcached, and for the storage to be initialised.
 *
 * @example
 * const gnocchi = new Gnocchi(cloud, 'gnocchi', { keystone, database, cache });
 */
export class Gnocchi extends OpenStackApiService {
  readonly api: ApiService;
  readonly metricd: WorkerService;
  /** Runs `gnocchi-upgrade` on the storage only (the indexer is migrated by db-sync). */
  readonly storageInit: JobComponent;
  readonly registration: KeystoneRegistration;

  constructor(scope: Construct, id: string, props: GnocchiProps) {
    super(scope, id, props, GNOCCHI);
    const { image, operatorKey } = this;
    const storage: GnocchiStorage = props.storage ?? { type: 'file', size: '10Gi' };
    const metricdWorkers = props.metricdWorkers ?? 2;
    addCheck(this, () => [
      ...(props.cache.servers.length === 0
        ? ['cache has no servers; metricd needs one as its coordinator']
        : []),
    ]);

    // The indexer only: storage is initialised by storage-init, which needs no database.
    const deps = this.dependencies(props, {
      syncCommand: ['gnocchi-upgrade', '--skip-storage', '--skip-incoming'],
      connectionOption: { section: 'indexer', option: 'url' },
    });
    this.registration = deps.registration;

    const storageOptions: Record<string, string> =
      storage.type === 'file'
        ? { driver: 'file', file_basepath: FILE_BASEPATH }
        : {
            driver: 'ceph',
            ceph_pool: storage.pool,
            ceph_username: storage.ceph.user,
            ceph_conffile: `${this.configDir}/ceph.conf`,
            ceph_keyring: cephKeyringPath(storage.ceph),
          };
    // What the storage lives on, mounted by storage-init, the API and metricd alike.
    const claimName = `${this.serviceName}-storage`;
    const keyring = storage.type === 'ceph' ? cephKeyringVolume(storage.ceph, 'ceph-keyring') : undefined;
    const storageVolumes: k8s.Volume[] = keyring
      ? [keyring.volume]
      : [{ name: 'storage', persistentVolumeClaim: { claimName } }];
    const storageMounts: k8s.VolumeMount[] = keyring
      ? [keyring.mount]
      : [{ name: 'storage', mountPath: FILE_BASEPATH }];
    const cephFiles: Record<string, string> =
      storage.type === 'ceph' ? { 'ceph.conf': renderCephConf(storage.ceph) } : {};

    const cephConfName = `${this.serviceName}-storage-init-ceph`;
    this.storageInit = new JobComponent(this, 'storage-init', {
      operatorKey,
      image,
      command: ['gnocchi-upgrade', '--skip-index'],
      // Options through oslo.config's environment source: this Job has no config file of its own.
      env: Object.fromEntries(
        Object.entries(storageOptions).map(([option, value]) => [osloEnvName('storage', option), value]),
      ),
      volumes: [
        ...storageVolumes,
        ...(keyring ? [{ name: 'ceph-conf', configMap: { name: cephConfName } }] : []),
      ],
      volumeMounts: [
        ...storageMounts,
        ...(keyring
          ? [
              {
                name: 'ceph-conf',
                mountPath: `${this.configDir}/ceph.conf`,
                subPath: 'ceph.conf',
                readOnly: true,
              },
            ]
          : []),
      ],
    });
    if (storage.type === 'file') {
      // Owned by storage-init: applied with the first pod that binds it, so a WaitForFirstConsumer
      // class never leaves it pending on its own.
      volumeClaim(this.storageInit, 'claim', {
        name: claimName,
        accessMode: 'ReadWriteMany',
        storageClassName: storage.storageClassName,
        size: storage.size ?? '10Gi',
      });
    } else {
      new JsonApiObject(this.storageInit, 'ceph-conf', k8s.KubeConfigMap, {
        metadata: { name: cephConfName },
        data: cephFiles,
      });
    }

    const conf = this.renderConfig({
      DEFAULT: {
        debug: false,
        coordination_url: `memcached://${props.cache.servers[0] ?? ''}`,
      },
      api: { auth_mode: 'keystone' },
      storage: storageOptions,
      metricd: { workers: metricdWorkers },
      ...deps.authtokenConfig,
    });
    const files = { 'gnocchi.conf': conf, ...cephFiles };
    const gate = (c: Component) => deps.gate(c).dependsOn(this.storageInit, 'completed');

    this.api = this.serveApi({
      schedulingKey: SchedulingKey.GNOCCHI_API,
      command: uwsgiCommand('gnocchi-api', PORT),
      healthPath: '/healthcheck',
      replicas: props.apiReplicas,
      env: deps.env,
      files: files,
      volumes: storageVolumes,
      volumeMounts: storageMounts,
    });
    gate(this.api);

    this.metricd = new WorkerService(this, 'metricd', {
      // Seed 000 gives metricd a key of its own and no group key.
      placement: placement(SchedulingKey.GNOCCHI_METRICD),
      image,
      command: ['gnocchi-metricd'],
      replicas: props.metricdReplicas ?? 2,
      // metricd has no message bus: it is working when it holds its indexer connection.
      connectedTo: [props.database.port],
      env: deps.database.connectionEnv(),
      config: { mountPath: this.configDir, files },
      volumes: storageVolumes,
      volumeMounts: storageMounts,
      requests: { cpu: '200m', memory: '512Mi' },
    });
    gate(this.metricd);
  }
}
