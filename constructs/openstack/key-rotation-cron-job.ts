import { Component } from '../../lib/model';
import { jobIdentity } from '../kube/job-identity';
import { PodTemplateOptions } from '../kube/pod-template';
import { utcCronJob } from '../kube/utc-cron-job';

/** A key rotation's schedule, deadline and pod; the pod's ServiceAccount is made here. */
export interface KeyRotationCronJobOptions {
  /** The Secret holding the keys: the one object the rotation may read and patch. */
  readonly secretName: string;
  /** A five-field cron schedule, read in UTC. */
  readonly schedule: string;
  readonly deadlineSeconds: number;
  readonly pod: Omit<PodTemplateOptions, 'restartPolicy' | 'serviceAccountName'>;
  /** The containers that get the ServiceAccount's token. @default - every container */
  readonly apiTokenFor?: readonly string[];
}

/**
 * The CronJob of one of Keystone's key rotations, named as its component: its ServiceAccount may
 * `get` and `patch` the keys' Secret and nothing else, and a failed run is retried twice (a run
 * that lost a race with another changed nothing; the next one reads the keys again).
 */
export function keyRotationCronJob(component: Component, options: KeyRotationCronJobOptions): void {
  const serviceAccountName = jobIdentity(component, [
    { apiGroups: [''], resources: ['secrets'], resourceNames: [options.secretName], verbs: ['get', 'patch'] },
  ]);
  utcCronJob(component, {
    name: component.componentName,
    schedule: options.schedule,
    backoffLimit: 2,
    deadlineSeconds: options.deadlineSeconds,
    pod: { ...options.pod, serviceAccountName, apiTokenFor: options.apiTokenFor },
  });
}
