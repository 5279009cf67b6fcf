import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import {
  assertNoProblems,
  Component,
  JsonApiObject,
  propsProblems,
  PropsSpec,
  required,
  Rules,
} from '../../lib/model';
import { commandRule, configFilesRule, healthPathRule, requestsRule } from './building-block-rules';
import { PodPlacement } from '../../lib/scheduling';
import { ConfigDirectory, ConfigFiles } from './config-files';
import { disruptionBudget } from './disruption-budget';
import { API_TERMINATION_GRACE_SECONDS, endpointDrain } from './endpoint-drain';
import { allowFromAnywhere } from './network-policies';
import { containerResources, podTemplate, ResourceRequests } from './pod-template';
import { serviceUrl } from './service-host';
import { serviceVolumes } from './service-volumes';

export interface ApiServiceProps {
  /** Where the API pods run (the service's API key and `ANY_API`). */
  readonly placement: PodPlacement;
  readonly image: string;
  /**
   * The command, stated explicitly so the same manifests run on any image of the service (an
   * image's entrypoint differs between image builds).
   */
  readonly command: string[];
  /** The port the API listens on; the Service exposes the same port. */
  readonly port: number;
  /** HTTP path answered once the API is healthy, used by the readiness and liveness probes. */
  readonly healthPath: string;
  /**
   * Number of API pods. Two or more are spread over nodes and protected by a PodDisruptionBudget.
   * @default 2
   */
  readonly replicas?: number;
  /** Environment of the API container. @default - none */
  readonly env?: k8s.EnvVar[];
  /** Configuration files, in a ConfigMap; each file is mounted as `<mountPath>/<file>`. @default - none */
  readonly config?: ConfigDirectory;
  /** Extra volumes and mounts (e.g. fernet keys). @default - none */
  readonly volumes?: k8s.Volume[];
  readonly volumeMounts?: k8s.VolumeMount[];
  /** @default { cpu: '100m', memory: '256Mi' } */
  readonly requests?: ResourceRequests;
}

const API_SERVICE_PROPS: PropsSpec<ApiServiceProps> = {
  placement: Rules.checkedElsewhere(), // by Component
  image: required(Rules.image(), 'the container image'),
  command: commandRule,
  port: required(Rules.port(), 'the port the API listens on'),
  healthPath: healthPathRule,
  replicas: Rules.count({ min: 1, max: 50 }),
  env: Rules.kubernetesObjects(),
  config: configFilesRule,
  volumes: Rules.kubernetesObjects(),
  volumeMounts: Rules.kubernetesObjects(),
  requests: requestsRule,
};

/**
 * An OpenStack API as a component: Deployment with probes, ClusterIP Service, and for two or more
 * replicas a PodDisruptionBudget and preferred anti-affinity so a node drain never takes the API down.
 * A roll drops no request: a new pod must pass its readiness probe before an old one goes
 * (`maxUnavailable: 0`), and an old pod keeps serving for the endpoint drain (endpoint-drain.ts)
 * before it is told to stop.
 */
export class ApiService extends Component {
  readonly deployment: JsonApiObject<k8s.KubeDeploymentProps>;
  readonly serviceObject: JsonApiObject<k8s.KubeServiceProps>;
  readonly port: number;
  /** The mounted configuration, for Jobs that need the same files. */
  readonly config?: ConfigFiles;

  constructor(scope: Construct, id: string, props: ApiServiceProps) {
    super(scope, id, { placement: props?.placement });
    assertNoProblems(this, propsProblems(props, API_SERVICE_PROPS));
    const replicas = props.replicas ?? 2;
    this.port = props.port;
    const files = serviceVolumes(this, props);
    this.config = files.config;
    const port = k8s.IntOrString.fromNumber(props.port);
    const requests = props.requests ?? { cpu: '100m', memory: '256Mi' };
    const probe = (initialDelaySeconds: number): k8s.Probe => ({
      httpGet: { path: props.healthPath, port },
      initialDelaySeconds,
      periodSeconds: 10,
      timeoutSeconds: 5,
      failureThreshold: 3,
    });
    this.deployment = new JsonApiObject(this, 'deployment', k8s.KubeDeployment, {
      metadata: { name: this.componentName },
      spec: {
        replicas,
        selector: { matchLabels: this.selectorLabels },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: k8s.IntOrString.fromNumber(0) } },
        template: podTemplate(this, {
          spread: replicas > 1 ? 'preferred' : undefined,
          terminationGracePeriodSeconds: API_TERMINATION_GRACE_SECONDS,
          annotations: files.annotations,
          volumes: files.volumes,
          containers: [
            {
              name: 'api',
              image: props.image,
              command: props.command,
              ports: [{ name: 'api', containerPort: props.port }],
              env: props.env,
              volumeMounts: files.volumeMounts,
              readinessProbe: probe(5),
              livenessProbe: probe(30),
              lifecycle: endpointDrain(),
              resources: containerResources(requests),
            },
          ],
        }),
      },
    });
    this.serviceObject = new JsonApiObject(this, 'service', k8s.KubeService, {
      metadata: { name: this.componentName },
      spec: {
        selector: this.selectorLabels,
        ports: [{ name: 'api', port: props.port, targetPort: port, protocol: 'TCP' }],
      },
    });
    disruptionBudget(this, replicas);
    allowFromAnywhere(this, props.port);
  }

  /** In-cluster URL of the API, from either namespace of the cloud: `http://keystone-api.openstack.svc:5000`. */
  get internalUrl(): string {
    return serviceUrl(this, this.componentName, this.port);
  }
}
