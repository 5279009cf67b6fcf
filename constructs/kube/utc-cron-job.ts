import { k8s } from 'cdk8s-plus-33';
import { Component, JsonApiObject } from '../../lib/model';
import { podTemplate, PodTemplateOptions } from './pod-template';

export interface UtcCronJobOptions {
  /** The CronJob's name. */
  readonly name: string;
  /** A five-field cron schedule, read in UTC. */
  readonly schedule: string;
  /** @default false */
  readonly suspend?: boolean;
  readonly annotations?: Record<string, string>;
  /** Retries of a failed run. */
  readonly backoffLimit: number;
  /** A run's deadline. */
  readonly deadlineSeconds: number;
  /** The pod of each run (its restart policy is `Never`). */
  readonly pod: Omit<PodTemplateOptions, 'restartPolicy'>;
}

/**
 * A component's CronJob: the schedule is UTC whatever the controller manager's local time zone
 * (`timeZone: Etc/UTC`), runs never overlap (`concurrencyPolicy: Forbid`), a finished run's Job
 * stays a day for its log, and the pod carries the component's placement and security context.
 */
export function utcCronJob(
  component: Component,
  options: UtcCronJobOptions,
): JsonApiObject<k8s.KubeCronJobProps> {
  return new JsonApiObject(component, 'cron-job', k8s.KubeCronJob, {
    metadata: { name: options.name, ...(options.annotations ? { annotations: options.annotations } : {}) },
    spec: {
      schedule: options.schedule,
      timeZone: 'Etc/UTC',
      suspend: options.suspend ?? false,
      concurrencyPolicy: 'Forbid',
      jobTemplate: {
        spec: {
          backoffLimit: options.backoffLimit,
          activeDeadlineSeconds: options.deadlineSeconds,
          ttlSecondsAfterFinished: 86400,
          template: podTemplate(component, { ...options.pod, restartPolicy: 'Never' }),
        },
      },
    },
  });
}
