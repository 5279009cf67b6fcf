import { App } from 'cdk8s';
import { k8s } from 'cdk8s-plus-33';
import { Annotations, KubeObject } from '../../lib/graph';
import { Cloud, Component } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { edgesOf, podSpecOf, synthObjects } from '../../lib/testing';
import { hostDirectory, podTemplate } from '../../constructs';
import { referenceCloud } from '../../stacks/reference-cloud';
import { TinyService } from '../support/tiny-service';

const objects = synthObjects(referenceCloud(new App()));
const WORKLOADS = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'];
const workloads = objects.filter((o) => WORKLOADS.includes(o.kind));
const inNamespace = (namespace: string) => objects.filter((o) => o.metadata.namespace === namespace);
const refs = (list: readonly KubeObject[]) => list.map((o) => `${o.kind}/${o.metadata.name}`).sort();

interface Container {
  readonly securityContext?: k8s.SecurityContext;
}

/**
 * What Pod Security `restricted` refuses in a pod spec (the checks of the profile that a
 * synthesised pod could fail): the host's namespaces, host directories, privileged or
 * escalating containers, root, capabilities kept, no seccomp profile.
 */
function restrictedViolations(spec: Record<string, unknown>): string[] {
  const pod = spec as unknown as k8s.PodSpec;
  const problems: string[] = [];
  if (pod.hostNetwork || pod.hostPid || pod.hostIpc) problems.push('host namespaces');
  if ((pod.volumes ?? []).some((v) => v.hostPath)) problems.push('hostPath volumes');
  if (pod.securityContext?.runAsNonRoot !== true) problems.push('runAsNonRoot');
  if (pod.securityContext?.seccompProfile?.type !== 'RuntimeDefault') problems.push('seccompProfile');
  for (const c of [...(pod.initContainers ?? []), ...pod.containers] as Container[]) {
    const sc = c.securityContext ?? {};
    if (sc.privileged) problems.push('privileged');
    if (sc.allowPrivilegeEscalation !== false) problems.push('allowPrivilegeEscalation');
    if (JSON.stringify(sc.capabilities?.drop) !== '["ALL"]') problems.push('capabilities');
  }
  return problems;
}

describe('namespaces by trust in the reference cloud', () => {
  test('both Namespaces are synthesised with the Pod Security labels they claim', () => {
    const labels = (name: string) =>
      objects.find((o) => o.kind === 'Namespace' && o.metadata.name === name)?.metadata.labels;
    const psa = (level: string) => ({
      'pod-security.kubernetes.io/enforce': level,
      'pod-security.kubernetes.io/enforce-version': 'latest',
      'pod-security.kubernetes.io/warn': level,
      'pod-security.kubernetes.io/warn-version': 'latest',
      'pod-security.kubernetes.io/audit': level,
      'pod-security.kubernetes.io/audit-version': 'latest',
    });
    expect(labels('openstack')).toEqual({
      'app.kubernetes.io/managed-by': 'stackwright',
      ...psa('restricted'),
    });
    expect(labels('openstack-agents')).toEqual({
      'app.kubernetes.io/managed-by': 'stackwright',
      ...psa('privileged'),
    });
  });

  test("exactly the eight node agents, with their configuration, run in the agents' namespace", () => {
    expect(
      refs(inNamespace('openstack-agents').filter((o) => o.kind !== 'Role' && o.kind !== 'RoleBinding')),
    ).toEqual([
      'ConfigMap/ceilometer-compute-config',
      'ConfigMap/neutron-bgp-agent-config',
      'ConfigMap/neutron-dhcp-agent-config',
      'ConfigMap/neutron-l3-agent-config',
      'ConfigMap/neutron-ovn-agent-config',
      'ConfigMap/neutron-ovn-metadata-agent-config',
      'ConfigMap/nova-compute-config',
      'ConfigMap/nova-libvirt-config',
      'DaemonSet/ceilometer-compute',
      'DaemonSet/neutron-bgp-agent',
      'DaemonSet/neutron-dhcp-agent',
      'DaemonSet/neutron-l3-agent',
      'DaemonSet/neutron-ovn-agent',
      'DaemonSet/neutron-ovn-metadata-agent',
      'DaemonSet/nova-compute',
      'DaemonSet/nova-libvirt',
      'NetworkPolicy/default-deny-ingress',
    ]);
  });

  test("every pod of the control plane's namespace passes Pod Security restricted", () => {
    const controlPlane = workloads.filter((o) => o.metadata.namespace === 'openstack');
    expect(controlPlane.length).toBeGreaterThan(100);
    const violations = controlPlane
      .map((o) => ({ pod: `${o.kind}/${o.metadata.name}`, problems: restrictedViolations(podSpecOf(o)) }))
      .filter((v) => v.problems.length > 0);
    expect(violations).toEqual([]);
    // … while each agent needs what restricted refuses (so it could not run there)
    for (const agent of workloads.filter((o) => o.metadata.namespace === 'openstack-agents')) {
      expect(restrictedViolations(podSpecOf(agent))).toContain('hostPath volumes');
    }
  });

  test("every Secret an agent reads is copied into the agents' namespace before the agent starts", () => {
    const copies = workloads.filter((o) => o.metadata.name.startsWith('agent-secrets-'));
    for (const agent of workloads.filter((o) => o.metadata.namespace === 'openstack-agents')) {
      const read = [
        ...JSON.stringify(podSpecOf(agent)).matchAll(/"secretKeyRef":\{"key":"[^"]+","name":"([^"]+)"/g),
      ]
        .map((m) => m[1])
        .sort();
      const awaited = edgesOf(agent)
        .filter((e) => e.kind === 'completed' && e.to.startsWith('agent-secrets-'))
        .map((e) => e.to.slice('agent-secrets-'.length))
        .sort();
      expect({ agent: agent.metadata.name, awaited }).toEqual({
        agent: agent.metadata.name,
        awaited: [...new Set(read)],
      });
    }
    // … and each copy waits for the Job that generates the original
    const copyOf = (name: string) =>
      copies.find(
        (o) => o.metadata.annotations?.[Annotations.COMPONENT] === `agent-secrets-${name}`,
      ) as KubeObject;
    expect(edgesOf(copyOf('nova-keystone-user'))).toEqual([
      { from: 'agent-secrets-nova-keystone-user', to: 'nova-ks-register-credentials', kind: 'completed' },
    ]);
    expect(edgesOf(copyOf('nova-cell1-mq'))).toEqual([
      { from: 'agent-secrets-nova-cell1-mq', to: 'nova-cell1-mq-credentials', kind: 'completed' },
    ]);
    expect(copies.map((o) => o.metadata.annotations?.[Annotations.SERVICE])).toEqual(
      copies.map(() => 'agent-secrets'),
    );
  });

  test('what the agents connect to is named with its namespace', () => {
    const agentText = JSON.stringify(inNamespace('openstack-agents'));
    // THEN every host:port an agent uses is <name>.openstack.svc (libvirt's own port is local), or
    // fully qualified where libunbound resolves it (the OVN databases)
    const endpoints = [...agentText.matchAll(/(?:tcp:|@|\/\/|\s|")([a-z0-9.-]+):(\d{2,5})\b/g)]
      .map((m) => m[1])
      .filter((host) => !['libvirt', 'ovn', 'neutron', 'nova', 'ceilometer', 'localhost'].includes(host));
    expect(endpoints.length).toBeGreaterThan(5);
    // (the console URL too: each cell's compute takes it from its cell's proxy, qualified like every API's)
    expect(
      endpoints.filter(
        (host) => !host.endsWith('.openstack.svc') && !host.endsWith('.openstack.svc.cluster.local'),
      ),
    ).toEqual([]);
    expect(agentText).toContain('nova_metadata_host = nova-metadata.openstack.svc');
    expect(agentText).toContain('@mq.openstack.svc:5672');
  });
});

describe("a cloud's agents' namespace", () => {
  test('is named after the control plane by default, or as given', () => {
    const app = new App();
    expect(new Cloud(app, 'a', { namespace: 'prod' }).agentNamespace).toBe('prod-agents');
    expect(new Cloud(app, 'b', { namespace: 'other', agentNamespace: 'hypervisors' }).agentNamespace).toBe(
      'hypervisors',
    );
  });

  /** A component whose pod mounts a directory of the node, and nothing else of the host. */
  function hostDirectoryAgent(cloud: Cloud): Component {
    const agent = new Component(cloud, 'agent', { placement: placement(SchedulingKey.COMPUTE_HYPERVISOR) });
    new k8s.KubeDaemonSet(agent, 'daemonset', {
      metadata: { name: 'agent' },
      spec: {
        selector: { matchLabels: agent.selectorLabels },
        template: podTemplate(agent, {
          containers: [{ name: 'main', image: 'example/agent:1' }],
          volumes: [hostDirectory('run', '/run/agent')],
        }),
      },
    });
    return agent;
  }

  test('is created, privileged and with its default deny, for the first node agent', () => {
    // GIVEN a cloud without node agents
    const plain = new Cloud(new App(), 'plain', { namespace: 'plain' });
    new TinyService(plain, 'svc');
    // THEN it has one namespace, and nothing goes to the agents'
    const plainObjects = synthObjects(plain);
    expect(plainObjects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name)).toEqual(['plain']);
    expect(plainObjects.filter((o) => o.metadata.namespace === 'plain-agents')).toEqual([]);

    // GIVEN a component whose pod mounts a directory of the node
    const cloud = new Cloud(new App(), 'host', { namespace: 'host', agentNamespace: 'host-nodes' });
    const agent = hostDirectoryAgent(cloud);
    // THEN it is a node agent: its DaemonSet goes to the agents' namespace, which is created
    // privileged with a default deny of its own
    const objects = synthObjects(cloud);
    expect(cloud.isNodeAgent(agent)).toBe(true);
    expect(cloud.namespaceOf(agent)).toBe('host-nodes');
    expect(
      objects.filter((o) => o.metadata.namespace === 'host-nodes').map((o) => `${o.kind}/${o.metadata.name}`),
    ).toEqual(['NetworkPolicy/default-deny-ingress', 'DaemonSet/agent']);
    expect(
      objects.find((o) => o.kind === 'Namespace' && o.metadata.name === 'host-nodes')?.metadata.labels?.[
        'pod-security.kubernetes.io/enforce'
      ],
    ).toBe('privileged');
  });

  test('a disabled node agent leaves no privileged namespace behind', () => {
    // GIVEN a cloud whose one node agent is disabled
    const cloud = new Cloud(new App(), 'host', { namespace: 'host' });
    new TinyService(cloud, 'svc');
    hostDirectoryAgent(cloud).disable();
    // THEN nothing goes to the agents' namespace, and the Namespace itself is not created
    const rendered = synthObjects(cloud);
    expect(rendered.filter((o) => o.metadata.namespace === 'host-agents')).toEqual([]);
    expect(rendered.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name)).toEqual(['host']);
  });
});
