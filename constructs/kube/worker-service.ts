import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import {
  addCheck,
  assertNoProblems,
  Component,
  JsonApiObject,
  propsProblems,
  PropsSpec,
  required,
  Rules,
} from '../../lib/model';
import { commandRule, configFilesRule, requestsRule } from './building-block-rules';
import { PodPlacement } from '../../lib/scheduling';
import { ConfigDirectory, ConfigFiles } from './config-files';
import { copySecretsForNodeAgent } from './agent-secret-copy';
import { disruptionBudget } from './disruption-budget';
import { containerResources, podTemplate, ResourceRequests } from './pod-template';
import { serviceVolumes } from './service-volumes';

/** The workload kind of a worker. */
export type WorkerWorkload = 'Deployment' | 'StatefulSet' | 'DaemonSet';

export interface WorkerServiceProps {
  /** Where the worker's pods run. */
  readonly placement: PodPlacement;
  readonly image: string;
  /**
   * The command, stated explicitly so the same manifests run on any image of the service (an
   * image's entrypoint differs between image builds).
   */
  readonly command: string[];
  /**
   * `Deployment` for interchangeable workers, `StatefulSet` for workers whose host name is part of
   * their identity (Ironic conductors on the hash ring, cinder-volume's `backend_host`), `DaemonSet`
   * for one pod per eligible node (node agents).
   * @default 'Deployment'
   */
  readonly workload?: WorkerWorkload;
  /** Number of pods (not used by a DaemonSet). Two or more are spread over nodes. @default 1 */
  readonly replicas?: number;
  /**
   * TCP ports the worker must hold an established connection to, to count as ready: an RPC worker
   * that is not connected to its message bus (or database) does no work. This is the check
   * openstack-helm's health probes make, read from `/proc/net/tcp` so the image needs only `awk`.
   */
  readonly connectedTo: readonly number[];
  /** @default - none */
  readonly env?: k8s.EnvVar[];
  /** Configuration files, in a ConfigMap `<component>-config`; each file is mounted as `<mountPath>/<file>`. @default - none */
  readonly config?: ConfigDirectory;
  /** @default - none */
  readonly volumes?: k8s.Volume[];
  /** @default - none */
  readonly volumeMounts?: k8s.VolumeMount[];
  /** @default { cpu: '100m', memory: '256Mi' } */
  readonly requests?: ResourceRequests;
  /**
   * Privileged with the host's network and PID namespaces. Only for node agents that manage the
   * host (LVM volumes, iSCSI targets); the caller says why at the call site. The connection check
   * then sees the host's sockets, so it proves less.
   * @default false
   */
  readonly hostAgent?: boolean;
  /** DaemonSets only: remove every pod with the reserved downscale nodeSelector. @default false */
  readonly forcedDownscale?: boolean;
}

/**
 * An OpenStack worker without an HTTP API (schedulers, conductors, engines, agents): a Deployment,
 * StatefulSet (with its headless Service) or DaemonSet with resource requests, probes on its
 * connections, and its configuration mounted from a ConfigMap whose checksum rolls the pods.
 */
const WORKER_SERVICE_PROPS: PropsSpec<WorkerServiceProps> = {
  placement: Rules.checkedElsewhere(), // by Component
  image: required(Rules.image(), 'the container image'),
  command: commandRule,
  workload: Rules.oneOf('Deployment', 'StatefulSet', 'DaemonSet'),
  replicas: Rules.count({ min: 1, max: 50 }),
  connectedTo: required(
    Rules.list(Rules.port(), { min: 1 }),
    'the ports the worker connects to (at least one), which its readiness check tries',
  ),
  env: Rules.kubernetesObjects(),
  config: configFilesRule,
  volumes: Rules.kubernetesObjects(),
  volumeMounts: Rules.kubernetesObjects(),
  requests: requestsRule,
  hostAgent: Rules.bool(),
  forcedDownscale: Rules.bool(),
};

export class WorkerService extends Component {
  /** The Deployment, StatefulSet or DaemonSet. */
  readonly workload: JsonApiObject<
    k8s.KubeDeploymentProps | k8s.KubeStatefulSetProps | k8s.KubeDaemonSetProps
  >;
  readonly config?: ConfigFiles;

  constructor(scope: Construct, id: string, props: WorkerServiceProps) {
    super(scope, id, { placement: props?.placement });
    assertNoProblems(this, propsProblems(props, WORKER_SERVICE_PROPS));
    const kind = props.workload ?? 'Deployment';
    const replicas = props.replicas ?? 1;
    addCheck(this, () => [
      ...(props.forcedDownscale && kind !== 'DaemonSet'
        ? ['forcedDownscale applies to DaemonSets only; scale a Deployment or StatefulSet with `replicas`']
        : []),
    ]);
    const files = serviceVolumes(this, props);
    this.config = files.config;
    const requests = props.requests ?? { cpu: '100m', memory: '256Mi' };
    const check = connectionCheck(props.connectedTo);
    const template = podTemplate(this, {
      hostAgent: props.hostAgent,
      spread: kind !== 'DaemonSet' && replicas > 1 ? 'preferred' : undefined,
      forcedDownscale: props.forcedDownscale,
      annotations: files.annotations,
      volumes: files.volumes,
      containers: [
        {
          // Named after the role (`scheduler`, `conductor`), so logs and diagnostics read naturally.
          name: this.role,
          image: props.image,
          command: props.command,
          env: props.env && props.env.length > 0 ? props.env : undefined,
          volumeMounts: files.volumeMounts,
          readinessProbe: {
            exec: { command: check },
            initialDelaySeconds: 10,
            periodSeconds: 10,
            timeoutSeconds: 5,
            failureThreshold: 3,
          },
          // Restart only after five minutes without a connection: oslo.messaging reconnects on its
          // own after a broker failover, but a worker that stays disconnected is wedged.
          livenessProbe: {
            exec: { command: check },
            initialDelaySeconds: 60,
            periodSeconds: 10,
            timeoutSeconds: 5,
            failureThreshold: 30,
          },
          resources: containerResources(requests),
        },
      ],
    });
    copySecretsForNodeAgent(this, template);
    const metadata = { name: this.componentName };
    const selector = { matchLabels: this.selectorLabels };
    if (kind === 'DaemonSet') {
      this.workload = new JsonApiObject(this, 'daemonset', k8s.KubeDaemonSet, {
        metadata,
        spec: { selector, updateStrategy: { type: 'RollingUpdate' }, template },
      });
    } else if (kind === 'StatefulSet') {
      // Headless: gives each pod a stable DNS name and host name; no ports, nothing connects to it.
      new JsonApiObject(this, 'service', k8s.KubeService, {
        metadata,
        spec: { clusterIp: 'None', selector: this.selectorLabels },
      });
      this.workload = new JsonApiObject(this, 'statefulset', k8s.KubeStatefulSet, {
        metadata,
        spec: {
          serviceName: this.componentName,
          replicas,
          podManagementPolicy: 'Parallel',
          selector,
          template,
        },
      });
    } else {
      this.workload = new JsonApiObject(this, 'deployment', k8s.KubeDeployment, {
        metadata,
        spec: {
          replicas,
          selector,
          strategy: {
            type: 'RollingUpdate',
            rollingUpdate: { maxUnavailable: k8s.IntOrString.fromNumber(replicas > 1 ? 1 : 0) },
          },
          template,
        },
      });
    }
    if (kind !== 'DaemonSet') disruptionBudget(this, replicas);
  }
}

/**
 * A shell command that succeeds when the pod holds an established TCP connection to every port in
 * `ports` (state 01 in `/proc/net/tcp{,6}`, remote port in hex).
 */
export function connectionCheck(ports: readonly number[]): string[] {
  const need = [...new Set(ports)]
    .sort((a, b) => a - b)
    .map((p) => `need["${p.toString(16).toUpperCase().padStart(4, '0')}"]`)
    .join('; ');
  const awk =
    `BEGIN { ${need} } ` +
    '$1 != "sl" && $4 == "01" { n = split($3, a, ":"); if (a[n] in need) seen[a[n]] = 1 } ' +
    'END { for (p in need) if (!(p in seen)) exit 1 }';
  return ['/bin/sh', '-c', `cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '${awk}'`];
}
