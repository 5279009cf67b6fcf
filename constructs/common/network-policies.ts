import { Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-33';
import { Cloud, Component, JsonApiObject } from '../../lib/model';

/**
 * The cloud's network fence, ingress only: every pod of the namespace refuses connections unless a
 * policy below allows them.
 * - {@link allowFromAnywhere}: an API on its port, from anywhere (the cloud's public face;
 *   Keystone authenticates every request);
 * - {@link allowFromConsumers}: an infrastructure server (database, message bus, cache, OVSDB)
 *   from its own members on every port, and on its client ports from the pods of the services
 *   that have a component with an edge to it (the same edges that order the rollout).
 * Egress is not fenced. docs/security.md has the reachability table and what the fence does not
 * cover.
 */
function denyIngressByDefault(cloud: Cloud): void {
  const id = 'default-deny-ingress';
  if (cloud.node.tryFindChild(id)) return;
  new JsonApiObject(cloud, id, k8s.KubeNetworkPolicy, {
    metadata: { name: id },
    spec: { podSelector: {}, policyTypes: ['Ingress'] },
  });
}

/** Lets anyone connect to `component`'s pods on `port`. */
export function allowFromAnywhere(component: Component, port: number): void {
  denyIngressByDefault(Cloud.of(component));
  new JsonApiObject(component, 'network-policy', k8s.KubeNetworkPolicy, {
    metadata: { name: component.componentName },
    spec: {
      podSelector: { matchLabels: component.selectorLabels },
      policyTypes: ['Ingress'],
      ingress: [{ ports: [{ protocol: 'TCP', port: k8s.IntOrString.fromNumber(port) }] }],
    },
  });
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
  denyIngressByDefault(Cloud.of(component));
  const ports = (list: readonly number[]) =>
    list.map((port) => ({ protocol: 'TCP', port: k8s.IntOrString.fromNumber(port) }));
  new JsonApiObject(component, 'network-policy', k8s.KubeNetworkPolicy, {
    metadata: { name: component.componentName },
    spec: {
      podSelector: { matchLabels: component.selectorLabels },
      policyTypes: ['Ingress'],
      ingress: Lazy.any({
        produce: () => {
          const consumers = consumersOf(component);
          const services = [...new Set(consumers.map((c) => c.serviceName))].sort();
          const fromHost = consumers.some(inHostNetwork);
          return [
            { from: [{ podSelector: { matchLabels: component.selectorLabels } }] },
            ...(services.length > 0
              ? [
                  {
                    from: services.map((s) => ({
                      podSelector: { matchLabels: { 'app.kubernetes.io/instance': s } },
                    })),
                    ports: ports(clientPorts),
                  },
                ]
              : []),
            ...(fromHost ? [{ ports: ports(clientPorts.slice(0, 1)) }] : []),
          ];
        },
      }),
    },
  });
}

/** The enabled components of the cloud with an edge (of any kind) to `component`. */
function consumersOf(component: Component): Component[] {
  return Cloud.of(component).components.filter(
    (c) => c !== component && c.enabled && c.edges.some((e) => e.target === component),
  );
}

/** True when a workload of `component` runs its pods in the host's network namespace. */
function inHostNetwork(component: Component): boolean {
  return component.apiObjects.some((object) => {
    // The manifest as built: rendering every consumer's objects once per infrastructure server
    // cost a sixth of the reference cloud's synthesis (bench/synth).
    const manifest = JsonApiObject.isJsonApiObject(object) ? object.manifest : object.toJson();
    const spec = (manifest as { spec?: { template?: { spec?: { hostNetwork?: boolean } } } }).spec;
    return spec?.template?.spec?.hostNetwork === true;
  });
}
