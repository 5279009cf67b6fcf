import { k8s } from 'cdk8s-plus-33';
import { commonInputHints, commonInputRules } from '../openstack-kit/input-rules';
import { Construct } from 'constructs';
import { addCheck, required, Rules } from '../../lib/model';
import { SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../kube/api-service';
import { JobComponent } from '../kube/job-component';
import { volumeClaim } from '../kube/volume-claim';
import { KeystoneRegistration } from '../openstack-kit/keystone-registration';
import { ServiceDatabase } from '../openstack-kit/service-database';
import { apiServiceDefaults, OpenStackServiceProps } from '../openstack-kit/openstack-service';
import { OpenStackApiService, OpenStackApiServiceDescriptor } from '../openstack-kit/openstack-api-service';

/** Glance's file store on a PersistentVolumeClaim that Glance creates (`<svc>-images`). */
export interface GlancePvcStorage {
  readonly type: 'pvc';
  /** @default '50Gi' */
  readonly size?: string;
  /** @default - the cluster's default StorageClass */
  readonly storageClassName?: string;
  /**
   * `ReadWriteMany` lets every API replica, on any node, read and write the images; with
   * `ReadWriteOnce` the API must run a single replica.
   * @default 'ReadWriteMany'
   */
  readonly accessMode?: 'ReadWriteOnce' | 'ReadWriteMany';
}

/**
 * Glance's file store on a volume the user provides (an NFS export, an existing claim, a hostPath
 * on a single-node lab): the storage-init Job and every API pod mount it, so it must look the same
 * from every node they may run on.
 */
export interface GlanceFileStorage {
  readonly type: 'file';
  /** The volume source; its `name` is replaced by `images`. */
  readonly volume: k8s.Volume;
}

/** Where Glance keeps image data. */
export type GlanceStorage = GlancePvcStorage | GlanceFileStorage;

export interface GlanceProps extends Omit<OpenStackServiceProps, 'messaging'> {
  /** @default { type: 'pvc' } */
  readonly storage?: GlanceStorage;
  /** @default 2 */
  readonly replicas?: number;
}

const PORT = 9292;
const DATA_DIR = '/var/lib/glance';

const GLANCE: OpenStackApiServiceDescriptor<GlanceProps> = {
  image: 'glance',
  operatorKey: SchedulingKey.OPERATOR_GLANCE,
  catalog: { type: 'image', name: 'glance', port: PORT },
  schema: 'glance-api',
  inputs: commonInputHints('keystone', 'database', 'cache'),
  props: {
    ...commonInputRules('keystone', 'database', 'cache'),
    replicas: Rules.count({ min: 1, max: 20 }),
    storage: Rules.either(
      (value) => (value as { type?: unknown }).type === 'file',
      Rules.object<GlanceFileStorage>({
        type: Rules.oneOf('file'),
        volume: required(
          Rules.checkedElsewhere(),
          'a Kubernetes volume, e.g. { name: "images", nfs: {...} }',
        ),
      }),
      Rules.object<GlancePvcStorage>({
        type: required(Rules.oneOf('pvc', 'file'), "'pvc' or 'file'"),
        size: Rules.quantity(),
        storageClassName: Rules.dnsSubdomain(),
        accessMode: Rules.oneOf('ReadWriteOnce', 'ReadWriteMany'),
      }),
    ),
  },
};

/**
 * Glance, the image service: the database chain, the catalogue entry (`image`), a storage-init Job
 * that prepares the file store, and the API. glance-api waits for Keystone, the database and
 * memcached to be ready and for db-sync, registration and storage-init to have completed. Glance
 * has no message bus: it makes no RPC calls, and it sends no notifications since nothing consumes them.
 *
 * @example
 * const glance = new Glance(cloud, 'glance', { keystone, database, cache, storage: { type: 'pvc', size: '200Gi' } });
 */
export class Glance extends OpenStackApiService {
  readonly api: ApiService;
  readonly registration: KeystoneRegistration;
  readonly database: ServiceDatabase;
  readonly storageInit: JobComponent;

  constructor(scope: Construct, id: string, props: GlanceProps) {
    super(scope, id, props, GLANCE);
    const { image, operatorKey } = this;
    const storage: GlanceStorage = props.storage ?? { type: 'pvc' };
    const replicas = props.replicas ?? 2;
    addCheck(this, () => [
      ...(storage.type === 'pvc' && storage.accessMode === 'ReadWriteOnce' && replicas > 1
        ? [
            `storage.accessMode ReadWriteOnce allows one API pod, got replicas ${replicas}; use accessMode 'ReadWriteMany' or replicas 1`,
          ]
        : []),
    ]);

    const deps = this.dependencies(props, {
      syncCommand: ['glance-manage', 'db_sync'],
    });
    this.database = deps.database;
    this.registration = deps.registration;

    const imagesVolume = this.imagesVolume(storage);
    const imagesMount: k8s.VolumeMount = { name: 'images', mountPath: DATA_DIR };
    const directories = ['images', 'staging', 'tasks'].map((d) => `${DATA_DIR}/${d}`);
    this.storageInit = new JobComponent(this, 'storage-init', {
      operatorKey,
      image,
      // Creates the store's directories and proves the volume is writable by Glance's user, so a
      // wrongly provisioned volume fails here, with a Job log, not on the first image upload.
      command: [
        '/bin/sh',
        '-ec',
        `mkdir -p ${directories.join(' ')}\n` +
          directories.map((d) => `touch ${d}/.stackwright-probe && rm ${d}/.stackwright-probe`).join('\n') +
          `\ndf -h ${DATA_DIR}`,
      ],
      volumes: [imagesVolume],
      volumeMounts: [imagesMount],
    });
    if (storage.type === 'pvc') {
      // Owned by storage-init, so the claim is applied with (and before) the Job that first mounts it.
      volumeClaim(this.storageInit, 'images', {
        name: `${this.serviceName}-images`,
        accessMode: storage.accessMode ?? 'ReadWriteMany',
        storageClassName: storage.storageClassName,
        size: storage.size ?? '50Gi',
      });
    }

    const conf = this.renderConfig(
      apiServiceDefaults({
        DEFAULT: {
          enabled_backends: { file: 'file' },
          show_image_direct_url: false,
        },
        glance_store: { default_backend: 'file' },
        file: { filesystem_store_datadir: `${DATA_DIR}/images` },
        os_glance_staging_store: { filesystem_store_datadir: `${DATA_DIR}/staging` },
        os_glance_tasks_store: { filesystem_store_datadir: `${DATA_DIR}/tasks` },
        paste_deploy: { flavor: 'keystone' },
        oslo_concurrency: { lock_path: '/tmp/glance' },
        ...deps.authtokenConfig,
      }),
    );

    this.api = this.serveApi({
      schedulingKey: SchedulingKey.IMAGE_API,
      command: ['glance-api'],
      healthPath: '/healthcheck',
      replicas,
      env: deps.env,
      files: { 'glance-api.conf': conf },
      volumes: [imagesVolume],
      volumeMounts: [imagesMount],
      requests: { cpu: '100m', memory: '512Mi' },
    });
    deps.gate(this.api).dependsOn(this.storageInit, 'completed');
  }

  private imagesVolume(storage: GlanceStorage): k8s.Volume {
    if (storage.type === 'file') return { ...storage.volume, name: 'images' };
    return { name: 'images', persistentVolumeClaim: { claimName: `${this.serviceName}-images` } };
  }
}
