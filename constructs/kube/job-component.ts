import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import {
  Cloud,
  Component,
  JsonApiObject,
  ComponentProps,
  propsProblems,
  PropsSpec,
  required,
  Rules,
  schedulingKeyRule,
  ValidationError,
} from '../../lib/model';
import { commandRule, envNameRule, secretRefRule } from './building-block-rules';
import { operatorJobPlacement, PodPlacement, SchedulingKey } from '../../lib/scheduling';
import { jobIdentity } from './job-identity';
import { resourcesWithMemoryLimit } from './memory-limit';
import { podTemplate } from './pod-template';
import { SecretRef, envFromSecret } from './secret-ref';
import { Annotations, jobName, shown, UPGRADE_TEMPLATE_ROLES, UpgradeTemplateRole } from '../../lib/graph';

export interface JobComponentProps extends Omit<ComponentProps, 'placement'> {
  /** The operator key of the service running the Job, e.g. `SchedulingKey.OPERATOR_KEYSTONE`. */
  readonly operatorKey: SchedulingKey;
  /** The container image. */
  readonly image: string;
  /** The command (the image's entrypoint is replaced). */
  readonly command: string[];
  /** Plain environment variables. @default - none */
  readonly env?: Readonly<Record<string, string>>;
  /** Environment variables read from Secrets. @default - none */
  readonly secretEnv?: Readonly<Record<string, SecretRef>>;
  /** Environment variables composed by the caller (e.g. a database connection). @default - none */
  readonly extraEnv?: k8s.EnvVar[];
  /** Volumes and their mounts. @default - none */
  readonly volumes?: k8s.Volume[];
  readonly volumeMounts?: k8s.VolumeMount[];
  /**
   * What the Job may do on the Kubernetes API: its own ServiceAccount gets a Role with exactly
   * these rules (see {@link jobIdentity}) and its token is mounted.
   * @default - no access: no ServiceAccount of its own, no token mounted
   */
  readonly kubernetesAccess?: readonly k8s.PolicyRule[];
  /**
   * Retries before the Job counts as failed. Kept low on purpose: a broken db-sync should fail
   * the rollout quickly and be explained, not retry for hours.
   * @default 3
   */
  readonly backoffLimit?: number;
  /**
   * Seconds the Job may run, retries included, before Kubernetes fails it (and kills its pod), so
   * a hung task fails the rollout instead of waiting forever.
   * @default 3600
   */
  readonly deadlineSeconds?: number;
  /**
   * Seconds a finished Job is kept (to read its logs) before Kubernetes deletes it. `verify`
   * still counts a Job that is gone as completed when the last deploy recorded it; a later deploy
   * runs it again, which every Job of the SDK survives (they are idempotent).
   * @default 86400 (one day)
   */
  readonly ttlSecondsAfterFinished?: number;
  /**
   * What a release upgrade derives from this Job (docs/upgrades.md, "Running the plan"):
   * `schema-sync` marks a service's schema migration, whose pod — image, configuration,
   * credentials — runs the upgrade's checks and schema steps. Part of the manifest contract
   * (`stackwright.io/upgrade-template`); it does not change the Job's name.
   * @default - none: the upgrade derives nothing from it
   */
  readonly upgradeTemplate?: UpgradeTemplateRole;
}

const JOB_COMPONENT_PROPS: PropsSpec<JobComponentProps> = {
  name: Rules.checkedElsewhere(), // by Component
  enabled: Rules.checkedElsewhere(),
  operatorKey: required(
    schedulingKeyRule,
    'the operator key of the service, e.g. SchedulingKey.OPERATOR_KEYSTONE',
  ),
  image: required(Rules.image(), 'the container image'),
  command: commandRule,
  env: Rules.record(
    Rules.given((value, name) =>
      typeof value === 'string' ? [] : [`${name} must be a string, got ${shown(value)}`],
    ),
    envNameRule,
  ),
  secretEnv: Rules.record(secretRefRule, envNameRule),
  extraEnv: Rules.kubernetesObjects(),
  volumes: Rules.kubernetesObjects(),
  volumeMounts: Rules.kubernetesObjects(),
  kubernetesAccess: Rules.kubernetesObjects(),
  backoffLimit: Rules.count({ min: 0, max: 100 }),
  deadlineSeconds: Rules.count({ min: 60, max: 86400 }),
  ttlSecondsAfterFinished: Rules.count({ min: 0, max: 2592000 }),
  upgradeTemplate: Rules.oneOf(...UPGRADE_TEMPLATE_ROLES),
};

/**
 * A one-shot task of a service (db-sync, bootstrap, keystone registration, credential generation)
 * as its own component: dependants use a `completed` edge on it. Scheduled the way Yaook schedules
 * its operator Jobs: the service's `OPERATOR_*` key with the `OPERATOR_ANY` group.
 */
export class JobComponent extends Component {
  readonly job: JsonApiObject<k8s.KubeJobProps>;

  constructor(scope: Construct, id: string, props: JobComponentProps) {
    // Checked before Component's own check, which would see only the placement built from operatorKey.
    const problems = propsProblems(props, JOB_COMPONENT_PROPS);
    if (problems.length > 0) throw new ValidationError(`${scope.node.path}/${id}`, problems);
    const placement: PodPlacement = operatorJobPlacement(props.operatorKey);
    super(scope, id, { ...props, placement });
    const backoffLimit = props.backoffLimit ?? 3;
    const deadlineSeconds = props.deadlineSeconds ?? 3600;
    const ttlSecondsAfterFinished = props.ttlSecondsAfterFinished ?? 86400;
    const env: k8s.EnvVar[] = [
      ...Object.entries(props.secretEnv ?? {}).map(([name, ref]) => envFromSecret(name, ref)),
      ...Object.entries(props.env ?? {}).map(([name, value]) => ({ name, value })),
      ...(props.extraEnv ?? []),
    ];
    const serviceAccountName = props.kubernetesAccess ? jobIdentity(this, props.kubernetesAccess) : undefined;
    const release = Cloud.of(this).release; // a Job outside a cloud has no namespace: fail early with the path
    const spec: k8s.JobSpec = {
      backoffLimit,
      activeDeadlineSeconds: deadlineSeconds,
      ttlSecondsAfterFinished,
      template: podTemplate(this, {
        restartPolicy: 'Never',
        serviceAccountName,
        volumes: props.volumes,
        containers: [
          {
            name: 'main',
            image: props.image,
            command: props.command,
            env: env.length > 0 ? env : undefined,
            volumeMounts: props.volumeMounts,
            resources: resourcesWithMemoryLimit({ cpu: '50m', memory: '64Mi' }, '512Mi'),
          },
        ],
      }),
    };
    this.job = new JsonApiObject(this, 'job', k8s.KubeJob, {
      metadata: {
        name: jobName(this.componentName, release, spec),
        ...(props.upgradeTemplate
          ? { annotations: { [Annotations.UPGRADE_TEMPLATE]: props.upgradeTemplate } }
          : {}),
      },
      spec,
    });
  }
}
