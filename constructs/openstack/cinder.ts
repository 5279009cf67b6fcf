import { k8s } from 'cdk8s-plus-33';
import { COMMON_INPUT_RULES, commonInputHints } from '../openstack-kit/input-rules';
import { Construct } from 'constructs';
import { addCheck, IDependable, required, Rules } from '../../lib/model';
import { placement, restrictedTo, SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../kube/api-service';
import {
  CephClient,
  cephKeyringVolume,
  cephPoolProblems,
  renderCephConf,
} from '../openstack-kit/ceph-client';
import { MessagingEndpoint } from '../openstack-kit/endpoints';
import { KeystoneRegistration } from '../openstack-kit/keystone-registration';
import { mergeOslo, OsloSchema, OsloValues, osloEnvName, renderOslo } from '../openstack-kit/oslo-config';
import { uwsgiCommand } from '../openstack-kit/uwsgi';
import { WorkerService } from '../kube/worker-service';
import { apiServiceDefaults, OpenStackServiceProps } from '../openstack-kit/openstack-service';
import { OpenStackApiService, OpenStackApiServiceDescriptor } from '../openstack-kit/openstack-api-service';

/** A Ceph RBD pool as a volume backend: cinder-volume talks to Ceph over the network, unprivileged. */
export interface CinderRbdBackend {
  readonly type: 'rbd';
  /** The backend's name: its cinder.conf section, `volume_backend_name`, and the component `cinder-volume-<name>`. */
  readonly name: string;
  readonly pool: string;
  readonly ceph: CephClient;
  /**
   * UUID of the libvirt secret holding the same cephx key on the hypervisors, so nova-compute can attach.
   * @default - none (attachments need it)
   */
  readonly libvirtSecretUuid?: string;
}

/**
 * An LVM volume group on one storage node, exported over iSCSI. cinder-volume then manages the
 * host's block devices and iSCSI target, so it runs privileged in the host's namespaces.
 */
export interface CinderLvmBackend {
  readonly type: 'lvm';
  /** The backend's name: its cinder.conf section, `volume_backend_name`, and the component `cinder-volume-<name>`. */
  readonly name: string;
  /** The volume group, which must exist on the node. */
  readonly volumeGroup: string;
  /** Labels of the node holding the volume group: LVM volumes live on that node's disks. */
  readonly nodeSelector: Readonly<Record<string, string>>;
  /** @default 'lioadm' */
  readonly targetHelper?: 'lioadm' | 'tgtadm';
}

export type CinderVolumeBackend = CinderRbdBackend | CinderLvmBackend;

/** Where cinder-backup writes backups. */
export type CinderBackupTarget =
  | { readonly type: 'ceph'; readonly pool: string; readonly ceph: CephClient }
  | {
      readonly type: 'swift';
      /** The object store, when it is part of this cloud: a runtime edge (found through the catalogue). @default - none */
      readonly swift?: IDependable;
    };

export interface CinderProps extends OpenStackServiceProps {
  readonly messaging: MessagingEndpoint;
  /**
   * The volume backends; each gets its own cinder-volume StatefulSet (one pod, stable
   * `backend_host`, since most drivers do not run active-active). At least one.
   */
  readonly volumeBackends: readonly CinderVolumeBackend[];
  /** cinder-backup and where it writes. @default - no backup service */
  readonly backup?: CinderBackupTarget;
  /** @default 2 */
  readonly apiReplicas?: number;
  /** @default 2 */
  readonly schedulerReplicas?: number;
}

const PORT = 8776;
const BACKEND_NAME = /^[a-z][a-z0-9]{0,19}$/;

const CINDER: OpenStackApiServiceDescriptor<CinderProps> = {
  image: 'cinder',
  operatorKey: SchedulingKey.OPERATOR_CINDER,
  catalog: { type: 'volumev3', name: 'cinder', port: PORT, path: '/v3/%(project_id)s' },
  inputs: {
    ...commonInputHints('keystone', 'database', 'messaging', 'cache'),
    volumeBackends: "a list of volume backends, e.g. [{ type: 'rbd', name: 'ceph', pool: 'volumes', ceph }]",
  },
  props: {
    ...COMMON_INPUT_RULES,
    // The Ceph clients here, before ceph.conf is rendered from them; the rest of each backend at
    // synthesis (backendProblems), against the schema the backends widen.
    volumeBackends: Rules.list(
      Rules.given((value, name) =>
        (value as { type?: unknown } | null)?.type === 'rbd'
          ? cephPoolProblems(value as CinderRbdBackend, name)
          : required(Rules.oneOf('rbd', 'lvm'), "'rbd' or 'lvm'")(
              (value as { type?: unknown } | null)?.type,
              `${name}.type`,
            ),
      ),
      { max: 32 },
    ),
    backup: Rules.given((value, name) =>
      (value as { type?: unknown } | null)?.type === 'ceph'
        ? cephPoolProblems(value as CinderBackupTarget & { type: 'ceph' }, name)
        : required(Rules.oneOf('ceph', 'swift'), "'ceph' or 'swift'")(
            (value as { type?: unknown } | null)?.type,
            `${name}.type`,
          ),
    ),
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    schedulerReplicas: Rules.count({ min: 1, max: 10 }),
  },
};

/**
 * Cinder, the block storage service: the API and the scheduler, one cinder-volume per backend
 * (Ceph RBD or LVM), an optional cinder-backup, its database chain, its RabbitMQ vhost and its
 * catalogue entry (`volumev3`). Volume and backup wait for the API, which waits for Keystone, the
 * database, RabbitMQ and memcached.
 *
 * @example
 * new Cinder(cloud, 'cinder', {
 *   keystone, database, messaging, cache,
 *   volumeBackends: [{ type: 'rbd', name: 'ceph', pool: 'volumes',
 *     ceph: { monitors: ['10.0.0.1'], user: 'cinder', keyring: { secretName: 'ceph-cinder', key: 'keyring' } } }],
 * });
 */
export class Cinder extends OpenStackApiService {
  readonly api: ApiService;
  readonly scheduler: WorkerService;
  /** cinder-volume, one per backend, in the order given. */
  readonly volumes: readonly WorkerService[];
  readonly backup?: WorkerService;
  readonly registration: KeystoneRegistration;
  private readonly volumeConfig: (backend: string, section: OsloValues[string]) => OsloValues;

  constructor(scope: Construct, id: string, props: CinderProps) {
    super(scope, id, props, CINDER);
    const { image } = this;
    const backends = props.volumeBackends;
    const cinderSchema = this.schema;
    // A backend's section takes the volume driver options, which cinder registers under each
    // name in enabled_backends (defaults in [backend_defaults]).
    const schema: OsloSchema = {
      ...cinderSchema,
      ...Object.fromEntries(backends.map((b) => [b.name, backendSection(cinderSchema)])),
    };
    this.schema = schema;
    addCheck(this, () => [...backendProblems(backends, cinderSchema)]);

    const deps = this.dependencies(props, {
      syncCommand: ['cinder-manage', 'db', 'sync'],
    });
    this.registration = deps.registration;

    const defaults: OsloValues = apiServiceDefaults({
      DEFAULT: backupOptions(props.backup, this.configDir),
      oslo_concurrency: { lock_path: '/tmp/cinder' },
      ...deps.authtokenConfig,
    });
    // Backend sections of the user's overrides go to their cinder-volume only.
    const userConfig = props.config ?? {};
    const backendNames = new Set(backends.map((b) => b.name));
    const commonConfig = Object.fromEntries(
      Object.entries(userConfig).filter(([section]) => !backendNames.has(section)),
    );
    const base = mergeOslo(defaults, commonConfig);
    this.volumeConfig = (backend, section) =>
      mergeOslo(
        mergeOslo(defaults, { DEFAULT: { enabled_backends: [backend] }, [backend]: section }),
        userConfig,
      );

    this.api = this.serveApi({
      schedulingKey: SchedulingKey.BLOCK_STORAGE_API,
      command: uwsgiCommand('cinder-wsgi', PORT),
      healthPath: '/',
      replicas: props.apiReplicas,
      env: deps.env,
      files: { 'cinder.conf': renderOslo(base, schema) },
    });
    deps.gate(this.api);

    this.scheduler = new WorkerService(this, 'scheduler', {
      placement: placement(
        SchedulingKey.BLOCK_STORAGE_CINDER_SCHEDULER,
        SchedulingKey.BLOCK_STORAGE_CINDER_ANY_SERVICE,
      ),
      image,
      command: ['cinder-scheduler'],
      replicas: props.schedulerReplicas ?? 2,
      connectedTo: [props.messaging.port],
      env: deps.env,
      config: { mountPath: this.configDir, files: { 'cinder.conf': renderOslo(base, schema) } },
    });
    // RPC only, no tokens to validate: it need not wait for the service user.
    deps.gate(this.scheduler, { registration: false });

    // A repeated name is reported by the check above; build the first one only so synthesis gets there.
    const distinct = backends.filter((b, i) => backends.findIndex((other) => other.name === b.name) === i);
    this.volumes = distinct.map((backend) => {
      const volume = this.volumeService(backend, image, deps.env, props.messaging.port);
      return volume.dependsOn(this.api, 'ready');
    });

    if (props.backup) {
      const ceph = props.backup.type === 'ceph' ? props.backup.ceph : undefined;
      const keyring = ceph ? cephKeyringVolume(ceph, 'ceph-keyring') : undefined;
      this.backup = new WorkerService(this, 'backup', {
        placement: placement(
          SchedulingKey.BLOCK_STORAGE_CINDER_BACKUP,
          SchedulingKey.BLOCK_STORAGE_CINDER_ANY_SERVICE,
        ),
        image,
        command: ['cinder-backup'],
        connectedTo: [props.messaging.port],
        env: deps.env,
        config: {
          mountPath: this.configDir,
          files: {
            'cinder.conf': renderOslo(base, schema),
            ...(ceph ? { 'ceph.conf': renderCephConf(ceph) } : {}),
          },
        },
        volumes: keyring ? [keyring.volume] : undefined,
        volumeMounts: keyring ? [keyring.mount] : undefined,
      });
      this.backup.dependsOn(this.api, 'ready');
      if (props.backup.type === 'swift' && props.backup.swift)
        this.backup.dependsOn(props.backup.swift, 'runtime');
    }
  }

  private volumeService(
    backend: CinderVolumeBackend,
    image: string,
    env: k8s.EnvVar[],
    messagingPort: number,
  ): WorkerService {
    const id = `volume-${backend.name}`;
    const keyPlacement = placement(
      SchedulingKey.BLOCK_STORAGE_CINDER_VOLUME,
      SchedulingKey.BLOCK_STORAGE_CINDER_ANY_SERVICE,
    );
    const section: Record<string, string | boolean> = {
      volume_backend_name: backend.name,
      // Stable across pod restarts and reschedules: volumes record the host that manages them.
      backend_host: `${this.serviceName}-${id}`,
    };
    if (backend.type === 'rbd') {
      Object.assign(section, {
        volume_driver: 'cinder.volume.drivers.rbd.RBDDriver',
        rbd_pool: backend.pool,
        rbd_user: backend.ceph.user,
        rbd_ceph_conf: `${this.configDir}/ceph.conf`,
        ...(backend.libvirtSecretUuid ? { rbd_secret_uuid: backend.libvirtSecretUuid } : {}),
      });
      const keyring = cephKeyringVolume(backend.ceph, 'ceph-keyring');
      return new WorkerService(this, id, {
        placement: keyPlacement,
        image,
        command: ['cinder-volume'],
        workload: 'StatefulSet',
        connectedTo: [messagingPort],
        env,
        config: {
          mountPath: this.configDir,
          files: {
            'cinder.conf': renderOslo(this.volumeConfig(backend.name, section), this.schema),
            'ceph.conf': renderCephConf(backend.ceph),
          },
        },
        volumes: [keyring.volume],
        volumeMounts: [keyring.mount],
      });
    }
    Object.assign(section, {
      volume_driver: 'cinder.volume.drivers.lvm.LVMVolumeDriver',
      volume_group: backend.volumeGroup,
      target_helper: backend.targetHelper ?? 'lioadm',
      target_protocol: 'iscsi',
    });
    const host = (name: string, path: string, type?: string): k8s.Volume => ({
      name,
      hostPath: { path, type },
    });
    return new WorkerService(this, id, {
      placement: restrictedTo(keyPlacement, backend.nodeSelector),
      image,
      command: ['cinder-volume'],
      workload: 'StatefulSet',
      // LVM volumes are logical volumes of the host's disks exported by the host kernel's iSCSI
      // target: cinder-volume must create device nodes, run lvm and configure the target in the
      // host's namespaces, which needs privileges and the host network (the target's portal).
      hostAgent: true,
      connectedTo: [messagingPort],
      env: [
        ...env,
        {
          name: osloEnvName(backend.name, 'target_ip_address'),
          valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } },
        },
      ],
      config: {
        mountPath: this.configDir,
        files: { 'cinder.conf': renderOslo(this.volumeConfig(backend.name, section), this.schema) },
      },
      volumes: [
        host('dev', '/dev'),
        host('run-lvm', '/run/lvm', 'DirectoryOrCreate'),
        host('lib-modules', '/lib/modules'),
        host('etc-target', '/etc/target', 'DirectoryOrCreate'),
      ],
      volumeMounts: [
        { name: 'dev', mountPath: '/dev' },
        { name: 'run-lvm', mountPath: '/run/lvm' },
        { name: 'lib-modules', mountPath: '/lib/modules', readOnly: true },
        { name: 'etc-target', mountPath: '/etc/target' },
      ],
      requests: { cpu: '100m', memory: '512Mi' },
    });
  }
}

function backupOptions(backup: CinderBackupTarget | undefined, configDir: string): Record<string, string> {
  if (!backup) return {};
  if (backup.type === 'swift') return { backup_driver: 'cinder.backup.drivers.swift.SwiftBackupDriver' };
  return {
    backup_driver: 'cinder.backup.drivers.ceph.CephBackupDriver',
    backup_ceph_conf: `${configDir}/ceph.conf`,
    backup_ceph_user: backup.ceph.user,
    backup_ceph_pool: backup.pool,
  };
}

const backendSections = new WeakMap<OsloSchema, OsloSchema[string]>();

/**
 * The options of a backend's section: the driver options and their defaults, merged once per schema
 * and shared (read-only) by every backend. Merging the thousands of driver options per backend of
 * every Cinder was a seventh of building the reference cloud (bench/synth).
 */
function backendSection(cinderSchema: OsloSchema): OsloSchema[string] {
  let section = backendSections.get(cinderSchema);
  if (!section) {
    section = { ...cinderSchema.backend, ...cinderSchema.backend_defaults };
    backendSections.set(cinderSchema, section);
  }
  return section;
}

function backendProblems(backends: readonly CinderVolumeBackend[], cinderSchema: OsloSchema): string[] {
  const problems: string[] = [];
  if (backends.length === 0) {
    problems.push(
      "volumeBackends is empty; add at least one, e.g. { type: 'rbd', name: 'ceph', pool: 'volumes', ceph }",
    );
  }
  const seen = new Set<string>();
  backends.forEach((backend, i) => {
    const where = `volumeBackends[${i}]`;
    if (!BACKEND_NAME.test(backend.name)) {
      problems.push(
        `${where}.name "${backend.name}" must be lower-case letters and digits, starting with a letter, at most 20 characters ` +
          '(it names a cinder.conf section, an environment variable and a component)',
      );
    } else if (cinderSchema[backend.name] !== undefined) {
      problems.push(
        `${where}.name "${backend.name}" is a cinder.conf section of its own; choose another name`,
      );
    }
    if (seen.has(backend.name))
      problems.push(`${where}.name "${backend.name}" is used twice; backend names must be unique`);
    seen.add(backend.name);
    if (backend.type === 'lvm' && Object.keys(backend.nodeSelector ?? {}).length === 0) {
      problems.push(
        `${where}.nodeSelector is empty; LVM volumes live on one node's disks: select the node holding "${backend.volumeGroup}"`,
      );
    }
  });
  return problems;
}
