import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { Cloud, Component } from '../../lib/model';
import { operatorJobPlacement, SchedulingKey } from '../../lib/scheduling';
import { resourcesWithMemoryLimit } from '../kube/memory-limit';
import {
  credentialKeysPublishScript,
  credentialMigrateAndRotateScript,
  ROTATION_WORK_DIR,
} from './credential-rotation-script';
import { keyRotationCronJob } from './key-rotation-cron-job';

/** How often the credential keys rotate; `never` makes no CronJob. */
export const CREDENTIAL_ROTATIONS = ['daily', 'weekly', 'monthly', 'never'] as const;
export type CredentialRotation = (typeof CREDENTIAL_ROTATIONS)[number];

/** At 03:23 UTC (away from the Fernet rotation's minute 41): every day, on Sundays, on the 1st. */
const SCHEDULES: Record<Exclude<CredentialRotation, 'never'>, string> = {
  daily: '23 3 * * *',
  weekly: '23 3 * * 0',
  monthly: '23 3 1 * *',
};

/** What {@link CredentialKeyRotation} needs of Keystone. */
export interface CredentialKeyRotationProps {
  /** The operator key of the owning service (the Job is scheduled with it). */
  readonly operatorKey: SchedulingKey;
  readonly rotation: Exclude<CredentialRotation, 'never'>;
  /** The Secret holding the keys, named `0` (staged) to the highest (primary). */
  readonly secretName: string;
  /** The Keystone image (`keystone-manage`). */
  readonly image: string;
  /**
   * Keystone's configuration, its database connection, and its key Secrets (the Fernet keys too:
   * `keystone-manage` will not start without them), as its API pods mount them.
   */
  readonly volumes: k8s.Volume[];
  readonly volumeMounts: k8s.VolumeMount[];
  readonly env: k8s.EnvVar[];
  /** Where `volumeMounts` put the keys' Secret. */
  readonly keysMountPath: string;
}

/**
 * Keystone's credential encryption keys rotated on a schedule, every credential re-encrypted
 * before (see {@link credentialMigrateAndRotateScript} for why none is lost and why a run refuses
 * to follow the last one by less than ten minutes). A CronJob whose pod migrates and rotates with
 * `keystone-manage` in the Keystone image, then publishes the keys to their Secret from the
 * toolbox image; its ServiceAccount may read and patch that one Secret and nothing else
 * ({@link keyRotationCronJob}). Run one by
 * hand with `kubectl create job --from=cronjob/<name> <job>`.
 */
export class CredentialKeyRotation extends Component {
  constructor(scope: Construct, id: string, props: CredentialKeyRotationProps) {
    super(scope, id, { placement: operatorJobPlacement(props.operatorKey) });
    const work = { name: 'work', mountPath: ROTATION_WORK_DIR };
    keyRotationCronJob(this, {
      secretName: props.secretName,
      schedule: SCHEDULES[props.rotation],
      deadlineSeconds: 1800,
      // The first container reads the database password: only the second may call the API.
      apiTokenFor: ['publish'],
      pod: {
        volumes: [...props.volumes, { name: 'work', emptyDir: {} }, { name: 'tmp', emptyDir: {} }],
        initContainers: [
          {
            name: 'migrate-and-rotate',
            image: props.image,
            command: ['/bin/sh', '-c', credentialMigrateAndRotateScript(props.keysMountPath)],
            env: props.env,
            volumeMounts: [...props.volumeMounts, work],
            resources: resourcesWithMemoryLimit({ cpu: '100m', memory: '128Mi' }, '512Mi'),
          },
        ],
        containers: [
          {
            name: 'publish',
            image: Cloud.of(this).toolboxImage,
            command: ['/bin/sh', '-c', credentialKeysPublishScript(props.secretName)],
            volumeMounts: [work, { name: 'tmp', mountPath: '/tmp' }],
            resources: resourcesWithMemoryLimit({ cpu: '50m', memory: '64Mi' }, '256Mi'),
          },
        ],
      },
    });
  }
}
