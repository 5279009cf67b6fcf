import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { App } from 'cdk8s';
import { KubeObject } from '../../lib/graph';
import { findObject, podSpecOf, synthObjects } from '../../lib/testing';
import { referenceCloud } from '../../stacks/reference-cloud';
import { reachabilityTable } from '../support/reachability';

const objects = synthObjects(referenceCloud(new App()));
const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
const ingressOf = (name: string) =>
  (findObject(objects, 'NetworkPolicy', name).spec as { ingress?: unknown[] }).ingress;
const from = (...services: string[]) =>
  services.map((s) => ({ podSelector: { matchLabels: { 'app.kubernetes.io/instance': s } } }));
/** Pods of `service` in the agents' namespace. */
const fromAgents = (service: string) => ({
  namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'openstack-agents' } },
  podSelector: { matchLabels: { 'app.kubernetes.io/instance': service } },
});
const ports = (...numbers: number[]) => numbers.map((port) => ({ port, protocol: 'TCP' }));
const members = (instance: string, component: string) => ({
  from: [
    {
      podSelector: {
        matchLabels: { 'app.kubernetes.io/component': component, 'app.kubernetes.io/instance': instance },
      },
    },
  ],
});

describe('NetworkPolicies of the reference cloud', () => {
  test('every pod of both namespaces refuses ingress unless a policy allows it', () => {
    const denies = policies.filter((p) => p.metadata.name === 'default-deny-ingress');
    expect(denies.map((p) => ({ namespace: p.metadata.namespace, spec: p.spec }))).toEqual([
      { namespace: 'openstack', spec: { podSelector: {}, policyTypes: ['Ingress'] } },
      { namespace: 'openstack-agents', spec: { podSelector: {}, policyTypes: ['Ingress'] } },
    ]);
    // … and nothing in the agents' namespace is opened: its pods listen to no one
    expect(policies.filter((p) => p.metadata.namespace === 'openstack-agents')).toEqual([denies[1]]);
  });

  test('the database: its members, and on 3306 the services wired to it and its own backup', () => {
    expect(ingressOf('db')).toEqual([
      members('db', 'server'),
      {
        from: from(
          'barbican',
          'cinder',
          'db',
          'glance',
          'gnocchi',
          'heat',
          'ironic',
          'keystone',
          'neutron',
          'nova',
          'placement',
        ),
        ports: ports(3306),
      },
    ]);
  });

  test("the message bus: its members, AMQP and management for its services (ceilometer's compute agent across namespaces), AMQP from nova-compute on the host network", () => {
    expect(ingressOf('mq')).toEqual([
      members('mq', 'server'),
      {
        from: [
          ...from('barbican', 'ceilometer', 'cinder', 'heat', 'ironic', 'keystone', 'neutron', 'nova'),
          fromAgents('ceilometer'),
        ],
        ports: ports(5672, 15672),
      },
      { ports: ports(5672) },
    ]);
  });

  test("memcached and the OVSDB clusters: only their consumers (ceilometer's compute agent across namespaces; the southbound also from the OVN agent on the host network)", () => {
    expect(ingressOf('memcached')).toEqual([
      members('memcached', 'server'),
      {
        from: [
          ...from(
            'barbican',
            'ceilometer',
            'cinder',
            'glance',
            'gnocchi',
            'heat',
            'ironic',
            'keystone',
            'neutron',
            'nova',
            'placement',
          ),
          fromAgents('ceilometer'),
        ],
        ports: ports(11211),
      },
    ]);
    expect(ingressOf('ovsdb-nb')).toEqual([
      members('ovsdb', 'nb'),
      { from: from('neutron'), ports: ports(6641) },
    ]);
    expect(ingressOf('ovsdb-sb')).toEqual([
      members('ovsdb', 'sb'),
      { from: from('neutron'), ports: ports(6642) },
      { ports: ports(6642) },
    ]);
  });

  test('every API is reachable on its port from anywhere, and on nothing else', () => {
    const apis = objects.filter(
      (o) =>
        o.kind === 'Service' &&
        policies.some((p) => p.metadata.name === o.metadata.name) &&
        (o.spec as { ports: unknown[] }).ports.length === 1 &&
        !['db', 'mq', 'memcached', 'ovsdb-nb', 'ovsdb-sb'].includes(o.metadata.name),
    );
    expect(apis.length).toBe(12);
    for (const api of apis) {
      const port = (api.spec as { ports: { port: number }[] }).ports[0].port;
      expect({ api: api.metadata.name, ingress: ingressOf(api.metadata.name) }).toEqual({
        api: api.metadata.name,
        ingress: [{ ports: ports(port) }],
      });
    }
  });

  test('no workload with a listening Service is left without a policy of its own', () => {
    const served = new Set(
      objects
        .filter((o) => o.kind === 'Service' && ((o.spec as { ports?: unknown[] }).ports ?? []).length > 0)
        .map((o) => o.metadata.annotations?.['stackwright.io/component']),
    );
    const fenced = new Set(policies.map((p) => p.metadata.annotations?.['stackwright.io/component']));
    expect([...served].filter((c) => !fenced.has(c))).toEqual([]);
    // Host-network pods are outside any pod policy: the agents the table cannot fence
    const hostNetwork = objects.filter(
      (o: KubeObject) => ['DaemonSet'].includes(o.kind) && podSpecOf(o).hostNetwork === true,
    );
    expect(hostNetwork.map((o) => o.metadata.name).sort()).toEqual([
      'neutron-bgp-agent',
      'neutron-dhcp-agent',
      'neutron-l3-agent',
      'neutron-ovn-agent',
      'neutron-ovn-metadata-agent',
      'nova-compute',
      'nova-libvirt',
    ]);
  });

  test('docs/security.md holds the reachability table these policies give (UPDATE_DOCS=1 rewrites it)', () => {
    const docs = path.join(__dirname, '../../docs/security.md');
    const text = readFileSync(docs, 'utf8');
    const begin = '<!-- reachability:begin -->\n';
    const end = '\n<!-- reachability:end -->';
    const start = text.indexOf(begin) + begin.length;
    const stop = text.indexOf(end);
    expect(start).toBeGreaterThanOrEqual(begin.length);
    const table = reachabilityTable(objects);
    if (process.env.UPDATE_DOCS === '1') writeFileSync(docs, text.slice(0, start) + table + text.slice(stop));
    else expect(text.slice(start, stop)).toBe(table);
  });
});
