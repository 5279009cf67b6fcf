import { Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-33';
import { Cloud, Component, JsonApiObject } from '../../lib/model';

/**
 * The cloud's network fence, ingress only: every pod of the cloud's namespaces (the control plane's
 * and the agents') refuses connections unless a policy below allows them.
 * - {@link allowFromAnywhere}: an API on its port, from anywhere (the cloud's public face;
 *   Keystone authenticates every request);
 * - {@link allowFromConsumers}: an infrastructure server (database, message bus, cache, OVSDB)
 *   from its own members on every port, and on its client ports from the pods of the services
 *   that have a component with an edge to it (the same edges that order the rollout), in the
 *   control plane's namespace and, for a service with node agents, in the agents' namespace.
 * Egress is not fenced. docs/security.md has the reachability table and what the fence does not
 * cover.
 */
function denyIngressByDefault(cloud: Cloud): void {
  denyIngress(cloud, 'default-deny-ingress', cloud.namespace);
}

/** The agents' namespace refuses every connection too: its pods, on the host network or not, listen to no one. */
export function denyIngressToAgents(cloud: Cloud): void {
  denyIngress(cloud, 'agent-default-deny-ingress', cloud.agentNamespace);
}

function denyIngress(cloud: Cloud, id: string, namespace: string): void {
  if (cloud.node.tryFindChild(id)) return;
  new JsonApiObject(cloud, id, k8s.KubeNetworkPolicy, {
    metadata: { name: 'default-deny-ingress', namespace },
    spec: { podSelector: {}, policyTypes: ['Ingress'] },
  });
}

/** Lets anyone connect to `component`'s pods on `port`. */
export function allowFromAnywhere(component: Component, port: number): void {
  allowIngress(component, [{ ports: tcpPorts([port]) }]);
}

/**
 * Lets `component`'s own pods connect to each other on every port, and the pods of every service
 * with an edge to `component` connect on `clientPorts`. Consumers in the host's network
 * namespace (nova-compute, the OVN agent) connect from node addresses, which no pod selector
 * matches: for them the first client port (the service's own protocol: AMQP, the OVSDB protocol)
 * is open to every source. The consumers are read when the cloud is synthesised, so edges added
 * after this call count.
 */
export function allowFromConsumers(component: Component, clientPorts: readonly number[]): void {
  allowIngress(
    component,
    Lazy.any({
      produce: () => {
        const cloud = Cloud.of(component);
        const consumers = consumersOf(component);
        const fromHost = consumers.some(inHostNetwork);
        const services = servicesOf(consumers);
        // A service's node agents off the host network (ceilometer's compute agent) connect as
        // their service too, from the agents' namespace; those on it connect from node addresses
        // (below).
        const agentPods = new Set(
          servicesOf(cloud.components.filter((c) => c.enabled && cloud.isNodeAgent(c) && !inHostNetwork(c))),
        );
        const peers = [
          ...services.map((s) => ({ podSelector: { matchLabels: { 'app.kubernetes.io/instance': s } } })),
          ...services
            .filter((s) => agentPods.has(s))
            .map((s) => ({
              namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': cloud.agentNamespace } },
              podSelector: { matchLabels: { 'app.kubernetes.io/instance': s } },
            })),
        ];
        return [
          { from: [{ podSelector: { matchLabels: component.selectorLabels } }] },
          ...(peers.length > 0 ? [{ from: peers, ports: tcpPorts(clientPorts) }] : []),
          ...(fromHost ? [{ ports: tcpPorts(clientPorts.slice(0, 1)) }] : []),
        ];
      },
    }),
  );
}

/** `component`'s NetworkPolicy: its pods, fenced by the default deny, accept the connections of `ingress`. */
function allowIngress(component: Component, ingress: k8s.NetworkPolicyIngressRule[]): void {
  denyIngressByDefault(Cloud.of(component));
  new JsonApiObject(component, 'network-policy', k8s.KubeNetworkPolicy, {
    metadata: { name: component.componentName },
    spec: { podSelector: { matchLabels: component.selectorLabels }, policyTypes: ['Ingress'], ingress },
  });
}

/** The TCP ports of a NetworkPolicy rule. */
function tcpPorts(ports: readonly number[]): k8s.NetworkPolicyPort[] {
  return ports.map((port) => ({ protocol: 'TCP', port: k8s.IntOrString.fromNumber(port) }));
}

/** The enabled components of the cloud with an edge (of any kind) to `component`: the synthesis plan knows them. */
function consumersOf(component: Component): readonly Component[] {
  return Cloud.of(component)
    .plan()
    .consumersOf(component)
    .filter((c) => c !== component);
}

/** The names of the services of `components`, sorted, each once. */
function servicesOf(components: readonly Component[]): string[] {
  return [...new Set(components.map((c) => c.serviceName))].sort();
}

/** True when a workload of `component` runs its pods in the host's network namespace. */
function inHostNetwork(component: Component): boolean {
  return component.apiObjects.some((object) => {
    // The object as built (`hostNetwork` has the same name typed and in JSON): rendering every
    // consumer's objects once per infrastructure server cost a sixth of synthesis (bench/synth).
    const manifest = JsonApiObject.isJsonApiObject(object) ? object.manifest : object.toJson();
    const spec = (manifest as { spec?: { template?: { spec?: { hostNetwork?: boolean } } } }).spec;
    return spec?.template?.spec?.hostNetwork === true;
  });
}
