import { k8s } from 'cdk8s-plus-33';
import { Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { Cloud, Component, JsonApiObject } from '../../lib/model';
import { operatorJobPlacement, SchedulingKey } from '../../lib/scheduling';
import { isCopiedForNodeAgents } from '../kube/agent-secret-copy';
import { envFromSecret } from '../kube/secret-ref';
import { resourcesWithMemoryLimit } from '../kube/memory-limit';
import { RestartableKind, WorkloadRef, workloadsReading } from '../kube/secret-readers';
import { utcCronJob } from '../kube/utc-cron-job';
import { IdentityEndpoint } from './endpoints';
import { keystoneAdminClientEnv, keystoneAdminProgram } from './keystone-admin-job';
import {
  ROTATION_KEYSTONE_PROGRAM,
  ROTATION_KUBERNETES_PROGRAM,
  ROTATION_STEPS,
  ROTATION_WORK_DIR,
} from './service-user-rotation-program';

/**
 * How often a service user's password rotates: on a schedule, only when run by hand
 * (`on-demand`: the CronJob is suspended), or `never` (no CronJob, no grant to roll the service).
 */
export const SERVICE_USER_ROTATIONS = ['weekly', 'monthly', 'on-demand', 'never'] as const;
export type ServiceUserRotationSchedule = (typeof SERVICE_USER_ROTATIONS)[number];

/** The second user a service alternates with: `<name>-alt`. */
export const ALTERNATE_USER_SUFFIX = '-alt';

/** At 04:07 UTC (away from Keystone's key rotations): on Mondays, or on the 2nd. */
const SCHEDULES: Record<'weekly' | 'monthly', string> = {
  weekly: '7 4 * * 1',
  monthly: '7 4 2 * *',
};

/** How long the workloads may take to roll: DaemonSets roll node by node. */
const ROLL_TIMEOUT_SECONDS = 2 * 3600;
/** A replaced pod's grace period is counted from the end of the roll; a margin over it. */
const DRAIN_MARGIN_SECONDS = 10;

export interface ServiceUserRotationProps {
  readonly keystone: IdentityEndpoint;
  /** The operator key of the owning service (the Job is scheduled with it). */
  readonly operatorKey: SchedulingKey;
  readonly schedule: Exclude<ServiceUserRotationSchedule, 'never'>;
  /** The Secret with the user's name and password (keys `username`, `password`). */
  readonly secretName: string;
  /** The two users the service alternates between; the Secret names the first at the start. */
  readonly users: readonly [string, string];
}

/**
 * A service user's password rotated with two valid credentials during the switch: a CronJob
 * (`<svc>-ks-user-rotation`) whose run gives the idle one of the service's two users a new
 * password, switches the Secret to it, rolls every pod that reads the Secret, then disables the
 * user switched from (the steps, which of them hold the admin's password and which the API token,
 * and how a run that stopped half-way is resumed: service-user-rotation-program.ts). Run one by
 * hand with
 * `kubectl create job --from=cronjob/<svc>-ks-user-rotation <job>`.
 *
 * Its ServiceAccount may get and patch the Secret and exactly the Deployments, StatefulSets and
 * DaemonSets whose pods read it, found in the cloud when it is synthesised; in the agents'
 * namespace, the Secret's copy and the agents' workloads that read it, when a node agent does.
 */
export class ServiceUserRotation extends Component {
  constructor(scope: Construct, id: string, props: ServiceUserRotationProps) {
    super(scope, id, { placement: operatorJobPlacement(props.operatorKey) });
    const cloud = Cloud.of(this);
    const name = this.componentName;
    const workloads = (namespace: string) =>
      workloadsReading(cloud, props.secretName).filter((w) => w.namespace === namespace);
    new JsonApiObject(this, 'service-account', k8s.KubeServiceAccount, {
      metadata: { name },
      automountServiceAccountToken: false,
    });
    grantRolling(this, cloud.namespace, props.secretName, () => workloads(cloud.namespace));
    new RotationAccessForNodeAgents(this, props.secretName, () => workloads(cloud.agentNamespace));
    const kubernetesEnv: k8s.EnvVar[] = [
      ...plainEnv({
        SECRET: props.secretName,
        NAMESPACE: cloud.namespace,
        USERS: props.users.join(' '),
        ROLL_TIMEOUT_SECONDS: String(ROLL_TIMEOUT_SECONDS),
      }),
      {
        name: 'COPY_NAMESPACES',
        value: lazyString(() => (isCopiedForNodeAgents(cloud, props.secretName) ? cloud.agentNamespace : '')),
      },
      {
        name: 'WORKLOADS',
        value: lazyString(() =>
          JSON.stringify(
            workloadsReading(cloud, props.secretName).map((w) => ({
              kind: w.kind,
              namespace: w.namespace,
              name: w.name,
            })),
          ),
        ),
      },
      {
        name: 'DRAIN_SECONDS',
        value: lazyString(() => String(drainSeconds(workloadsReading(cloud, props.secretName)))),
      },
    ];
    const keystoneEnv: k8s.EnvVar[] = [
      ...plainEnv(keystoneAdminClientEnv(props.keystone)),
      envFromSecret('OS_PASSWORD', props.keystone.adminCredentials.ref('password')),
    ];
    const work = { name: 'work', mountPath: ROTATION_WORK_DIR };
    const steps: k8s.Container[] = ROTATION_STEPS.map(({ name: step, side }) => ({
      name: step,
      image: cloud.image('openstackclient'),
      command:
        side === 'keystone'
          ? [...keystoneAdminProgram(ROTATION_KEYSTONE_PROGRAM), step]
          : ['python3', '-c', ROTATION_KUBERNETES_PROGRAM, step],
      env: side === 'keystone' ? keystoneEnv : kubernetesEnv,
      volumeMounts: [work, { name: 'tmp', mountPath: '/tmp' }],
      resources: resourcesWithMemoryLimit({ cpu: '50m', memory: '96Mi' }, '256Mi'),
    }));
    utcCronJob(this, {
      name,
      schedule: SCHEDULES[props.schedule === 'on-demand' ? 'monthly' : props.schedule],
      suspend: props.schedule === 'on-demand',
      backoffLimit: 2,
      deadlineSeconds: ROLL_TIMEOUT_SECONDS + 1800,
      pod: {
        serviceAccountName: name,
        // The Kubernetes steps alone get the token; the Keystone steps alone the admin's password.
        apiTokenFor: ROTATION_STEPS.filter((s) => s.side === 'kubernetes').map((s) => s.name),
        volumes: [
          { name: 'work', emptyDir: {} },
          { name: 'tmp', emptyDir: {} },
        ],
        initContainers: steps.slice(0, -1),
        containers: steps.slice(-1),
      },
    });
  }
}

/**
 * The part of the rotation's grant in the agents' namespace: there only when a node agent reads
 * the Secret (the namespace exists then, and the copy is made).
 */
class RotationAccessForNodeAgents extends Component {
  constructor(
    private readonly rotation: ServiceUserRotation,
    private readonly secretName: string,
    workloads: () => readonly WorkloadRef[],
  ) {
    super(rotation, 'agents', { name: `${rotation.componentName}-agents`, placement: rotation.placement });
    const cloud = Cloud.of(this);
    grantRolling(this, cloud.agentNamespace, secretName, workloads, rotation.componentName);
  }

  override get enabled(): boolean {
    return this.rotation.enabled && isCopiedForNodeAgents(Cloud.of(this), this.secretName);
  }
}

/**
 * A Role in `namespace`, bound to the rotation's ServiceAccount `subject` (of the control plane's
 * namespace), that may get and patch the Secret and the workloads `workloads()` names (read at
 * synthesis). A rule with no name is left out: RBAC reads an empty `resourceNames` as every name.
 */
function grantRolling(
  owner: Component,
  namespace: string,
  secretName: string,
  workloads: () => readonly WorkloadRef[],
  subject: string = owner.componentName,
): void {
  const metadata = { name: subject, namespace };
  const verbs = ['get', 'patch'];
  new JsonApiObject(owner, 'role', k8s.KubeRole, {
    metadata,
    rules: Lazy.any({
      produce: () => {
        const byKind = new Map<RestartableKind, string[]>();
        for (const w of workloads()) byKind.set(w.kind, [...(byKind.get(w.kind) ?? []), w.name]);
        return [
          { apiGroups: [''], resources: ['secrets'], resourceNames: [secretName], verbs },
          ...[...byKind.entries()].map(([kind, names]) => ({
            apiGroups: ['apps'],
            resources: [`${kind.toLowerCase()}s`],
            resourceNames: names,
            verbs,
          })),
        ];
      },
    }),
  });
  new JsonApiObject(owner, 'role-binding', k8s.KubeRoleBinding, {
    metadata,
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: subject },
    subjects: [{ kind: 'ServiceAccount', name: subject, namespace: Cloud.of(owner).namespace }],
  });
}

/** How long after the roll the replaced pods may still serve: the longest grace period, and a margin. */
function drainSeconds(workloads: readonly WorkloadRef[]): number {
  return Math.max(0, ...workloads.map((w) => w.terminationGracePeriodSeconds)) + DRAIN_MARGIN_SECONDS;
}

/** Environment variables with plain values. */
function plainEnv(values: Readonly<Record<string, string>>): k8s.EnvVar[] {
  return Object.entries(values).map(([name, value]) => ({ name, value }));
}

/** A string computed at synthesis. */
function lazyString(produce: () => string): string {
  return Lazy.any({ produce }) as string;
}
