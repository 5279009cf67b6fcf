import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { Annotations } from '../../lib/graph';
import { Component, JsonApiObject } from '../../lib/model';
import { operatorJobPlacement, SchedulingKey } from '../../lib/scheduling';
import { resourcesWithMemoryLimit } from '../kube/memory-limit';
import { utcCronJob } from '../kube/utc-cron-job';
import { volumeClaim } from '../kube/volume-claim';
import { envFromSecret, SecretRef } from '../kube/secret-ref';
import { galeraBackupScript } from './galera-backup';
import { galeraBackupRetentionScript } from './galera-backup-retention';

/** Where the backup volume is mounted; each run writes a directory of its own under it. */
export const BACKUP_MOUNT = '/backups';

/** Verified backups kept on the volume unless told otherwise: a week of daily runs. */
const DEFAULT_BACKUPS_KEPT = 7;

/** When the CronJob would run if it were not suspended (03:17 UTC, off the full hour). */
const SCHEDULE = '17 3 * * *';

export interface GaleraBackupCronJobProps {
  /** The client image (with `mariadb` and `mariadb-dump`). */
  readonly image: string;
  /** The client Service's host and port. */
  readonly host: string;
  readonly port: number;
  /** The root password. */
  readonly adminPassword: SecretRef;
  /** Size of the backup volume. */
  readonly storageSize: string;
  /** @default - the cluster's default StorageClass */
  readonly storageClassName?: string;
  /**
   * How many verified backups stay on the volume; older runs are removed after a verified one.
   * @default 7
   */
  readonly backupsKept?: number;
}

/**
 * The verified Galera backup as a component: a suspended CronJob running `galeraBackupScript()`
 * (dump, restore into a scratch database, compare every table) into a directory per run on a
 * volume of its own (docs/upgrades.md, "The backup before the first schema step"). Suspended, so
 * nothing runs on its own: a release upgrade runs its Job template before the first schema step
 * (`stackwright.io/upgrade-template: backup`), an operator runs it once with
 * `kubectl create job --from=cronjob/<name> <job>`, or un-suspends it for daily backups.
 *
 * The claim carries `stackwright.io/wait: exists`: with a StorageClass that binds on first
 * consumer it stays Pending until a backup pod mounts it, which a deploy must not wait for.
 */
export class GaleraBackupCronJob extends Component {
  readonly cronJob: JsonApiObject<k8s.KubeCronJobProps>;
  readonly claim: JsonApiObject<k8s.KubePersistentVolumeClaimProps>;

  constructor(scope: Construct, id: string, props: GaleraBackupCronJobProps) {
    super(scope, id, { placement: operatorJobPlacement(SchedulingKey.OPERATOR_ANY) });
    const claimName = `${this.componentName}s`;
    this.claim = volumeClaim(this, 'claim', {
      name: claimName,
      annotations: { [Annotations.WAIT]: 'exists' },
      accessMode: 'ReadWriteOnce',
      size: props.storageSize,
      storageClassName: props.storageClassName,
    });
    // The credentials go to a client option file, never to argv; one directory per run; after a
    // verified run (a failed one exits first), the oldest runs beyond `backupsKept` go.
    const run = [
      'umask 077',
      'cnf=/tmp/client.cnf',
      `printf '[client]\\nhost = %s\\nport = %s\\nuser = root\\npassword = %s\\n' "$DB_HOST" "$DB_PORT" "$MYSQL_PWD" >"$cnf"`,
      'export BACKUP_CLIENT_CNF="$cnf"',
      `export BACKUP_ROOT="${BACKUP_MOUNT}"`,
      'export BACKUP_DIR="$BACKUP_ROOT/$(date -u +%Y%m%dT%H%M%SZ)"',
      'echo "backup: writing to $BACKUP_DIR"',
      galeraBackupScript(),
      galeraBackupRetentionScript(props.backupsKept ?? DEFAULT_BACKUPS_KEPT),
    ].join('\n');
    this.cronJob = utcCronJob(this, {
      name: this.componentName,
      schedule: SCHEDULE,
      suspend: true,
      annotations: { [Annotations.UPGRADE_TEMPLATE]: 'backup' },
      // A backup that does not restore equal is not retried into the same directory: it is a
      // finding, for the operator to read in the log.
      backoffLimit: 0,
      deadlineSeconds: 3600,
      pod: {
        volumes: [
          { name: 'backups', persistentVolumeClaim: { claimName } },
          { name: 'tmp', emptyDir: {} },
        ],
        containers: [
          {
            name: 'main',
            image: props.image,
            command: ['/bin/bash', '-c', run],
            env: [
              { name: 'DB_HOST', value: props.host },
              { name: 'DB_PORT', value: String(props.port) },
              envFromSecret('MYSQL_PWD', props.adminPassword),
            ],
            volumeMounts: [
              { name: 'backups', mountPath: BACKUP_MOUNT },
              { name: 'tmp', mountPath: '/tmp' },
            ],
            resources: resourcesWithMemoryLimit({ cpu: '100m', memory: '128Mi' }, '512Mi'),
          },
        ],
      },
    });
  }
}
