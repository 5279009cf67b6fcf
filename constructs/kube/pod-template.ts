import { k8s } from 'cdk8s-plus-33';
import { Cloud, Component } from '../../lib/model';
import { podScheduling } from '../../lib/scheduling';
import { denyIngressToAgents } from './network-policies';
import { resourcesWithMemoryLimit } from './memory-limit';
import { priorityClassName } from './priority-classes';

export interface PodTemplateOptions {
  readonly containers: k8s.Container[];
  readonly initContainers?: k8s.Container[];
  readonly volumes?: k8s.Volume[];
  readonly serviceAccountName?: string;
  /**
   * With `serviceAccountName`: the containers that get its API token (a projected volume at the
   * path the Kubernetes clients read), instead of every container of the pod. For a pod whose other
   * containers read credentials: they then hold no token.
   * @default - every container (`automountServiceAccountToken`)
   */
  readonly apiTokenFor?: readonly string[];
  /** @default 'Always' for long-running workloads; Jobs pass 'OnFailure' or 'Never'. */
  readonly restartPolicy?: string;
  /**
   * Node agents that manage the host's network or hypervisor need the host namespaces. Everything
   * else runs as a non-root user. A pod that needs the host (this, or a `hostPath` volume) makes its
   * component a node agent, in the cloud's agent namespace (`Cloud.addNodeAgent`).
   * @default false
   */
  readonly hostAgent?: boolean;
  /**
   * How replicas spread over nodes: `preferred` (pod anti-affinity the scheduler weighs) or `even`
   * (a topology spread constraint on the hostname with `DoNotSchedule`: with at least as many
   * eligible nodes as replicas, never two on one node, so the loss of a node costs a quorum
   * cluster one member).
   * @default - no spreading
   */
  readonly spread?: PodSpread;
  /** Remove every pod via the reserved downscale nodeSelector (DaemonSets only). @default false */
  readonly forcedDownscale?: boolean;
  /** Extra pod annotations (e.g. a config hash that rolls the pods on change). */
  readonly annotations?: Record<string, string>;
  /**
   * Seconds from the pod's deletion to SIGKILL, preStop hooks included.
   * @default - Kubernetes' default (30)
   */
  readonly terminationGracePeriodSeconds?: number;
}

export type PodSpread = 'preferred' | 'even';

/** Non-root by default: OpenStack services run as the image's unprivileged user. */
const RESTRICTED_POD_SECURITY: k8s.PodSecurityContext = {
  runAsNonRoot: true,
  runAsUser: 42424,
  runAsGroup: 42424,
  fsGroup: 42424,
  seccompProfile: { type: 'RuntimeDefault' },
};

/**
 * The pod template of a component's workload: its selector labels, its Yaook placement (affinity +
 * tolerations), the security context, and optional anti-affinity for HA.
 */
export function podTemplate(component: Component, options: PodTemplateOptions): k8s.PodTemplateSpec {
  if (!component.placement) {
    throw new Error(
      `[${component.node.path}] owns pods but has no placement; pass \`placement\` to the component`,
    );
  }
  if (needsTheHost(options)) {
    Cloud.of(component).addNodeAgent(component);
    denyIngressToAgents(Cloud.of(component));
  }
  const scheduling = podScheduling(component.placement, { forcedDownscale: options.forcedDownscale });
  const antiAffinity: k8s.PodAntiAffinity | undefined =
    options.spread === 'preferred'
      ? {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              podAffinityTerm: {
                topologyKey: 'kubernetes.io/hostname',
                labelSelector: { matchLabels: component.selectorLabels },
              },
            },
          ],
        }
      : undefined;
  const evenSpread: k8s.TopologySpreadConstraint[] | undefined =
    options.spread === 'even'
      ? [
          {
            maxSkew: 1,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: component.selectorLabels },
          },
        ]
      : undefined;
  // Long-running pods only (Jobs pass a restartPolicy): a one-shot task never pre-empts a service.
  const priority =
    options.restartPolicy === undefined
      ? priorityClassName(Cloud.of(component), options.hostAgent ? 'node-agent' : 'control-plane')
      : undefined;
  return {
    metadata: { labels: component.selectorLabels, annotations: options.annotations },
    spec: {
      affinity: { ...scheduling.affinity, podAntiAffinity: antiAffinity } as k8s.Affinity,
      tolerations: scheduling.tolerations.map((t) => ({ ...t })),
      topologySpreadConstraints: evenSpread,
      nodeSelector: scheduling.nodeSelector ? { ...scheduling.nodeSelector } : undefined,
      priorityClassName: priority,
      serviceAccountName: options.serviceAccountName,
      automountServiceAccountToken: options.serviceAccountName !== undefined && !options.apiTokenFor,
      restartPolicy: options.restartPolicy,
      terminationGracePeriodSeconds: options.terminationGracePeriodSeconds,
      securityContext: options.hostAgent ? undefined : RESTRICTED_POD_SECURITY,
      hostNetwork: options.hostAgent ? true : undefined,
      // A host-network pod otherwise resolves with the node's resolver, which knows no Service names.
      dnsPolicy: options.hostAgent ? 'ClusterFirstWithHostNet' : undefined,
      hostPid: options.hostAgent ? true : undefined,
      initContainers: options.initContainers?.map((c) =>
        withContainerDefaults(withApiToken(c, options.apiTokenFor), options.hostAgent ?? false),
      ),
      containers: options.containers.map((c) =>
        withContainerDefaults(withApiToken(c, options.apiTokenFor), options.hostAgent ?? false),
      ),
      volumes: options.apiTokenFor ? [...(options.volumes ?? []), API_TOKEN_VOLUME] : options.volumes,
    },
  };
}

/** What `automountServiceAccountToken` mounts, as a volume for the containers named in `apiTokenFor`. */
const API_TOKEN_VOLUME: k8s.Volume = {
  name: 'kube-api-access',
  projected: {
    sources: [
      { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardApi: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
    ],
  },
};

function withApiToken(container: k8s.Container, apiTokenFor: readonly string[] | undefined): k8s.Container {
  if (!apiTokenFor?.includes(container.name)) return container;
  const mount = {
    name: API_TOKEN_VOLUME.name,
    mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
    readOnly: true,
  };
  return { ...container, volumeMounts: [...(container.volumeMounts ?? []), mount] };
}

/**
 * True when Pod Security `restricted` refuses the pod because it reaches into its node: the host's
 * namespaces and privileges (`hostAgent`), or a directory of the node (`hostPath`).
 */
function needsTheHost(options: PodTemplateOptions): boolean {
  return (options.hostAgent ?? false) || (options.volumes ?? []).some((v) => v.hostPath !== undefined);
}

/** Unprivileged containers drop every capability; host agents are privileged (see `hostAgent`). */
function withContainerDefaults(container: k8s.Container, hostAgent: boolean): k8s.Container {
  const securityContext: k8s.SecurityContext = hostAgent
    ? { privileged: true }
    : { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } };
  return { imagePullPolicy: 'IfNotPresent', securityContext, ...container };
}

/** CPU and memory a container requests, as Kubernetes quantities (`'100m'`, `'256Mi'`). */
export interface ResourceRequests {
  readonly cpu: string;
  readonly memory: string;
}

/**
 * The resources of a service's main container: the requests as given, and a memory limit of four
 * times the memory request (same unit), with no CPU limit.
 */
export function containerResources(requests: ResourceRequests): k8s.ResourceRequirements {
  return resourcesWithMemoryLimit(
    requests,
    requests.memory.replace(/^(\d+)/, (n) => String(Number(n) * 4)),
  );
}
