import { k8s } from 'cdk8s-plus-33';
import {
  assertNoProblems,
  Component,
  dnsLabelProblems,
  JsonApiObject,
  rangeProblems,
  Rule,
  Rules,
} from '../../lib/model';
import { disruptionBudget } from './disruption-budget';
import { allowFromConsumers } from './network-policies';
import { podTemplate, PodSpread, PodTemplateOptions } from './pod-template';
import { volumeClaimSpec } from './volume-claim';

/** How a clustered StatefulSet's members are reached: what decides its Services and member names. */
export interface ClusterServices {
  /** Members, each with a stable name `<name>-<i>`. */
  readonly replicas: number;
  /** Ports clients connect to, on the `<name>` Service. */
  readonly clientPorts: k8s.ServicePort[];
  /**
   * Ports the members talk to each other on, on the headless `<name>-peers` Service, which also
   * publishes members that are not ready: a member resolves the others before any of them is
   * ready, since readiness needs a quorum.
   * @default - the members do not talk to each other: the `<name>` Service itself is headless, so
   * clients list every member by its stable name (Memcached)
   */
  readonly peerPorts?: k8s.ServicePort[];
}

export interface ClusteredStatefulSetProps extends ClusterServices {
  /**
   * `OrderedReady` when a member can only start once the ones before it are ready; `Parallel` when
   * members find each other on their own (Galera, RabbitMQ and the OVSDB raft clusters order
   * themselves in their start scripts, since after a full stop none is ready without the others).
   */
  readonly podManagementPolicy: 'OrderedReady' | 'Parallel';
  /** The members' pods (spread over nodes as `spread` says). */
  readonly pod: Omit<PodTemplateOptions, 'spread'>;
  /**
   * `even` for a cluster that needs a majority (Galera, RabbitMQ, OVSDB raft): never two members on
   * one node while there are enough nodes; `preferred` where losing members together costs no
   * data (Memcached).
   */
  readonly spread: PodSpread;
  /** A ReadWriteOnce volume `data` per member, kept across restarts and reschedules. @default - none */
  readonly storage?: { readonly size: string; readonly storageClassName?: string };
  /**
   * Send clients to this member only (by its StatefulSet pod-name label), for a cluster that must
   * take writes on one member (Galera); the peers Service still lists every member.
   * @default - every ready member
   */
  readonly clientMember?: number;
}

/**
 * The size of a cluster that needs a majority (Galera, quorum queues, raft): a whole number between
 * 1 and `max`, and odd, since an even size tolerates no more failures than the odd size below it and
 * a partition into halves leaves no side with a majority.
 * @param why what the majority is for, completing "replicas must be odd …"
 */
export function quorumReplicas(max: number, why: string): Rule {
  return Rules.given((value, name) => {
    const range = rangeProblems(name, value, { min: 1, max });
    if (range.length > 0) return range;
    const replicas = value as number;
    return replicas % 2 === 0 ? [`${name} must be odd ${why}, got ${replicas}; use ${replicas + 1}`] : [];
  });
}

/**
 * The longest StatefulSet name whose pods can be created: the pods' `controller-revision-hash`
 * label is `<name>-<10 characters>` and must fit the 63 of a label value.
 */
const MAX_STATEFUL_SET_NAME = 52;

/** The StatefulSet's governing Service, through which each member has its DNS name. */
export function clusterServiceName(
  component: Component,
  services: Pick<ClusterServices, 'peerPorts'>,
): string {
  return services.peerPorts ? `${component.componentName}-peers` : component.componentName;
}

/**
 * The stable host names of the members, `<name>-<i>.<governing Service>`, for configuration that
 * lists them (Galera's cluster address, RabbitMQ's classic peer discovery, OVSDB raft remotes).
 */
export function clusterMemberHosts(
  component: Component,
  services: Pick<ClusterServices, 'replicas' | 'peerPorts'>,
): string[] {
  const name = component.componentName;
  const governing = clusterServiceName(component, services);
  return Array.from({ length: services.replicas }, (_, i) => `${name}-${i}.${governing}`);
}

/**
 * A clustered StatefulSet owned by `component` (MariaDB/Galera, RabbitMQ, the OVSDB raft clusters,
 * Memcached): the headless peers Service, the client Service, the StatefulSet with its members
 * spread over nodes and a volume per member, and the PodDisruptionBudget, all named after the
 * component. Compute member names for the configuration with {@link clusterMemberHosts} and the
 * same `replicas` and `peerPorts`.
 *
 * @example
 * const services = { replicas: 3, peerPorts: [{ name: 'raft', port: 6643 }], clientPorts: [{ name: 'ovsdb', port: 6641 }] };
 * const members = clusterMemberHosts(component, services);
 * clusteredStatefulSet(component, { ...services, podManagementPolicy: 'Parallel', storage: { size: '1Gi' }, pod });
 */
export function clusteredStatefulSet(
  component: Component,
  props: ClusteredStatefulSetProps,
): JsonApiObject<k8s.KubeStatefulSetProps> {
  const name = component.componentName;
  assertNoProblems(
    component,
    dnsLabelProblems(name, 'the StatefulSet name (the component name)', MAX_STATEFUL_SET_NAME),
  );
  const selector = component.selectorLabels;
  if (props.peerPorts) {
    new JsonApiObject(component, 'peers', k8s.KubeService, {
      metadata: { name: clusterServiceName(component, props) },
      spec: { clusterIp: 'None', publishNotReadyAddresses: true, selector, ports: props.peerPorts },
    });
  }
  const clientSelector =
    props.clientMember === undefined
      ? selector
      : { ...selector, 'statefulset.kubernetes.io/pod-name': `${name}-${props.clientMember}` };
  new JsonApiObject(component, 'client', k8s.KubeService, {
    metadata: { name },
    spec: {
      clusterIp: props.peerPorts ? undefined : 'None',
      selector: clientSelector,
      ports: props.clientPorts,
    },
  });
  const storage = props.storage;
  const statefulSet = new JsonApiObject(component, 'statefulset', k8s.KubeStatefulSet, {
    metadata: { name },
    spec: {
      serviceName: clusterServiceName(component, props),
      replicas: props.replicas,
      podManagementPolicy: props.podManagementPolicy,
      selector: { matchLabels: selector },
      template: podTemplate(component, { ...props.pod, spread: props.spread }),
      volumeClaimTemplates: storage
        ? [{ metadata: { name: 'data' }, spec: volumeClaimSpec({ ...storage, accessMode: 'ReadWriteOnce' }) }]
        : undefined,
    },
  });
  disruptionBudget(component, props.replicas);
  allowFromConsumers(
    component,
    props.clientPorts.map((p) => p.port),
  );
  return statefulSet;
}

/** How a clustered server's members are probed: what tells a member is alive, and that it is ready. */
export interface MemberProbes {
  /** A cheap check that the server answers (its socket, a ping). */
  readonly alive: k8s.Probe;
  /** The check that the member serves clients (synced, in the cluster). */
  readonly ready: k8s.Probe;
  /** How many 10-second attempts the first start may take: joining a cluster can take long. */
  readonly startupAttempts: number;
}

/**
 * A member's three probes: `alive` every 10 s until it first answers (the other probes start once
 * it does), then `ready` as given, and `alive` every 30 s, so only a member that stops answering
 * for two minutes is restarted (a member busy with a state transfer is not dead).
 */
export function memberProbes(
  probes: MemberProbes,
): Pick<k8s.Container, 'startupProbe' | 'readinessProbe' | 'livenessProbe'> {
  return {
    startupProbe: { ...probes.alive, periodSeconds: 10, failureThreshold: probes.startupAttempts },
    readinessProbe: probes.ready,
    livenessProbe: { ...probes.alive, periodSeconds: 30, failureThreshold: 4 },
  };
}
