import { Construct } from 'constructs';
import { Cloud, Component } from '../../lib/model';
import { operatorJobPlacement, SchedulingKey } from '../../lib/scheduling';
import { resourcesWithMemoryLimit } from '../kube/memory-limit';
import { fernetRotationScript } from './fernet-rotation-script';
import { keyRotationCronJob } from './key-rotation-cron-job';

/** How often the keys may rotate: whole hours that divide a day, so runs fall at the same times every day. */
export const FERNET_ROTATION_HOURS = [1, 2, 3, 4, 6, 8, 12, 24] as const;
export type FernetRotationHours = (typeof FERNET_ROTATION_HOURS)[number];

/**
 * The fewest Fernet keys that keep every token valid for as long as Keystone accepts it when the
 * keys rotate every `rotationHours`: a token signed by a primary must still find that key after
 * `expiration + allow_expired_window` seconds of rotations, plus the staged and the primary key
 * (upstream's sizing rule, keystone's "Fernet - Frequently Asked Questions").
 */
export function fernetMaxActiveKeys(
  expirationSeconds: number,
  allowExpiredWindowSeconds: number,
  rotationHours: number,
): number {
  return Math.ceil((expirationSeconds + allowExpiredWindowSeconds) / (rotationHours * 3600)) + 2;
}

/** What {@link FernetKeyRotation} rotates, how often, and how many keys it keeps. */
export interface FernetKeyRotationProps {
  /** The operator key of the owning service (the Job is scheduled with it). */
  readonly operatorKey: SchedulingKey;
  /** The Secret holding the keys, named `0` (staged) to the highest (primary). */
  readonly secretName: string;
  /** Keystone's `[fernet_tokens] max_active_keys`: how many keys a rotation leaves. */
  readonly maxActiveKeys: number;
  /** Hours between rotations (the CronJob runs at minute 41 of every such hour, UTC). */
  readonly rotationHours: FernetRotationHours;
}

/**
 * Keystone's Fernet keys rotated on a schedule (a CronJob at minute 41 of every `rotationHours`-th
 * hour, UTC), in the Secret every Keystone pod mounts: see {@link fernetRotationScript} for why
 * tokens issued before a rotation stay valid. The Job's own ServiceAccount may read and patch this
 * one Secret and nothing else ({@link keyRotationCronJob}). Run one by hand with
 * `kubectl create job --from=cronjob/<name> <job>`.
 *
 * The kubelet refreshes a mounted Secret within about a minute (its sync period plus the cache's
 * TTL); rotations an hour apart leave every pod the staged key long before it becomes the primary.
 */
export class FernetKeyRotation extends Component {
  constructor(scope: Construct, id: string, props: FernetKeyRotationProps) {
    super(scope, id, { placement: operatorJobPlacement(props.operatorKey) });
    const hours = props.rotationHours === 24 ? '0' : `*/${props.rotationHours}`;
    keyRotationCronJob(this, {
      secretName: props.secretName,
      schedule: `41 ${hours} * * *`,
      deadlineSeconds: 600,
      pod: {
        volumes: [{ name: 'tmp', emptyDir: {} }],
        containers: [
          {
            name: 'main',
            image: Cloud.of(this).toolboxImage,
            command: ['/bin/sh', '-c', fernetRotationScript(props.secretName, props.maxActiveKeys)],
            volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
            resources: resourcesWithMemoryLimit({ cpu: '50m', memory: '64Mi' }, '256Mi'),
          },
        ],
      },
    });
  }
}
