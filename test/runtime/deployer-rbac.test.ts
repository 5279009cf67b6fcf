import { ROTATED_SERVICE_USERS } from '../support/rotated-service-users';
import { App } from 'cdk8s';
import { KubeObject } from '../../lib/graph';
import { deployerBindings, deployerRbac, PolicyRule, resourceOf } from '../../lib/runtime/deployer-rbac';
import { synthGraph, synthObjects } from '../../lib/testing';
import { referenceCloud } from '../../stacks/reference-cloud';
import { NODE_AGENT_SECRETS } from '../support/node-agent-secrets';

const MANAGE = ['create', 'delete', 'get', 'list', 'patch', 'watch'];
const READ = ['get', 'list', 'watch'];
const rulesOf = (o: KubeObject) => (o as unknown as { rules: PolicyRule[] }).rules;

/** True when `held` grants everything `wanted` does (what RBAC's escalation check asks). */
function covers(held: readonly PolicyRule[], wanted: PolicyRule): boolean {
  return wanted.apiGroups.every((group) =>
    wanted.resources.every((resource) =>
      wanted.verbs.every((verb) =>
        (wanted.resourceNames ?? [undefined]).every((name) =>
          held.some(
            (h) =>
              h.apiGroups.includes(group) &&
              h.resources.includes(resource) &&
              h.verbs.includes(verb) &&
              (h.resourceNames === undefined || (name !== undefined && h.resourceNames.includes(name))),
          ),
        ),
      ),
    ),
  );
}

describe('deployerRbac of the reference cloud', () => {
  // GIVEN
  const graph = synthGraph(referenceCloud(new App()));
  const objects = synthObjects(referenceCloud(new App()));
  // WHEN
  const { roles, clusterRole } = deployerRbac(graph, 'deployer');

  const NAMESPACES = ['openstack', 'openstack-agents'];
  /** The Secrets the rotations patch, by namespace, sorted. */
  const ROTATED_SECRETS: Record<string, string[]> = {
    openstack: [
      ...ROTATED_SERVICE_USERS.map((service) => `${service}-keystone-user`),
      'keystone-credential-keys',
      'keystone-fernet-keys',
    ].sort(),
    'openstack-agents': ['ceilometer-keystone-user', 'nova-keystone-user'],
  };
  const roleIn = (namespace: string) =>
    rulesOf(roles.find((r) => r.metadata.namespace === namespace) as KubeObject);

  test("one Role in each of the cloud's namespaces, managing every namespaced kind of the manifests there", () => {
    expect(roles.map((r) => r.metadata.namespace)).toEqual(NAMESPACES);
    for (const namespace of NAMESPACES) {
      const role = roleIn(namespace);
      const kinds = new Set(
        objects.filter((o) => o.metadata.namespace === namespace).map((o) => `${o.apiVersion} ${o.kind}`),
      );
      for (const kind of kinds) {
        const [apiVersion, name] = kind.split(' ');
        const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
        expect({
          namespace,
          kind,
          rule: role.find(
            (r) => r.apiGroups[0] === group && r.resources[0] === resourceOf(name) && !r.resourceNames,
          ),
        }).toEqual({
          namespace,
          kind,
          rule: { apiGroups: [group], resources: [resourceOf(name)], verbs: MANAGE },
        });
      }
      expect(role).toContainEqual({ apiGroups: [''], resources: ['pods'], verbs: READ });
      // (the stuck-state diagnosis lists the namespace's Events and the Deployments' ReplicaSets)
      expect(role).toContainEqual({ apiGroups: [''], resources: ['events'], verbs: READ });
      expect(role).toContainEqual({ apiGroups: ['apps'], resources: ['replicasets'], verbs: READ });
    }
    expect(roleIn('openstack')).toContainEqual({ apiGroups: [''], resources: ['configmaps'], verbs: MANAGE });
  });

  test('holds what the per-Job Roles grant in each namespace, and no more on Secrets: create, and get and patch by name of what its Jobs make or rotate', () => {
    for (const namespace of NAMESPACES) {
      // THEN every rule of every synthesised Role is covered (or the API server refuses to create it)
      const held = roleIn(namespace);
      const synthesised = objects.filter((o) => o.kind === 'Role' && o.metadata.namespace === namespace);
      for (const role of synthesised) {
        for (const rule of rulesOf(role))
          expect({ namespace, role: role.metadata.name, covered: covers(held, rule) }).toEqual({
            namespace,
            role: role.metadata.name,
            covered: true,
          });
      }
      const secretRules = synthesised.flatMap((role) =>
        rulesOf(role).filter((r) => r.resources.includes('secrets')),
      );
      const named = new Set(secretRules.flatMap((r) => r.resourceNames ?? []));
      const onSecrets = held.filter((r) => r.resources.includes('secrets'));
      // (patched by name: the Secrets a generator or copy Job makes, which it may complete with the
      // keys they lack, and those the rotations rotate: Keystone's two keys' Secrets in the control
      // plane's namespace, each service user's there and, for the users node agents read, its copy
      // in the agents' namespace)
      const patched = [
        ...new Set(
          secretRules.filter((r) => r.verbs.includes('patch')).flatMap((r) => r.resourceNames ?? []),
        ),
      ].sort();
      expect(patched).toEqual(expect.arrayContaining(ROTATED_SECRETS[namespace]));
      const readOnly = named.size - patched.length;
      expect(onSecrets.map((r) => ({ verbs: r.verbs, names: r.resourceNames?.length }))).toEqual([
        { verbs: ['create'], names: undefined },
        ...(patched.length > 0 ? [{ verbs: ['get', 'patch'], names: patched.length }] : []),
        ...(readOnly > 0 ? [{ verbs: ['get'], names: readOnly }] : []),
      ]);
      expect([...(onSecrets.find((r) => r.verbs.includes('patch'))?.resourceNames ?? [])].sort()).toEqual(
        patched,
      );
      expect(held.every((r) => !r.verbs.includes('*') && !r.resources.includes('*'))).toBe(true);
    }
    // (in the agents' namespace: only the copies of the six Secrets the node agents read, which
    // their copy Jobs complete and, for the two service users', their rotations patch)
    const agents = roleIn('openstack-agents').filter(
      (r) => r.resources.includes('secrets') && r.resourceNames,
    );
    expect(agents.map((r) => [r.verbs, r.resourceNames])).toEqual([[['get', 'patch'], NODE_AGENT_SECRETS]]);
  });

  test("the service user rotations' grants on workloads are covered: get and patch by name", () => {
    for (const namespace of NAMESPACES) {
      const held = roleIn(namespace);
      const onWorkloads = objects
        .filter((o) => o.kind === 'Role' && o.metadata.namespace === namespace)
        .flatMap((role) => rulesOf(role).filter((r) => r.apiGroups.includes('apps')));
      expect(onWorkloads.length).toBeGreaterThan(0);
      for (const rule of onWorkloads)
        expect({ namespace, rule, covered: covers(held, rule) }).toMatchObject({ covered: true });
    }
  });

  test('cluster-wide: the Namespace and PriorityClasses it creates, and reading Nodes', () => {
    expect(rulesOf(clusterRole)).toEqual([
      { apiGroups: [''], resources: ['namespaces'], verbs: MANAGE },
      { apiGroups: [''], resources: ['nodes'], verbs: READ },
      { apiGroups: ['scheduling.k8s.io'], resources: ['priorityclasses'], verbs: MANAGE },
    ]);
  });
});

describe('resourceOf', () => {
  test.each([
    ['Deployment', 'deployments'],
    ['NetworkPolicy', 'networkpolicies'],
    ['PriorityClass', 'priorityclasses'],
    ['Ingress', 'ingresses'],
    ['PodDisruptionBudget', 'poddisruptionbudgets'],
  ])('%s -> %s', (kind, resource) => {
    expect(resourceOf(kind)).toBe(resource);
  });
});

describe('deployer names', () => {
  const graph = synthGraph(referenceCloud(new App()));

  test.each([
    ['team/deployer', 'the deployer name "team/deployer" is not a valid DNS-1123 subdomain'],
    ['Deployer', 'the deployer name "Deployer" is not a valid DNS-1123 subdomain'],
    ['', 'the deployer name "" is not a valid DNS-1123 subdomain'],
  ])('%j is refused with what a name may hold', (name, message) => {
    expect(() => deployerRbac(graph, name)).toThrow(message);
  });

  test('a ServiceAccount with an invalid namespace or name is refused', () => {
    const rbac = deployerRbac(graph, 'deployer');
    expect(() => deployerBindings(rbac, 'deployer', { namespace: 'ci.tools', serviceAccount: 'd' })).toThrow(
      `the ServiceAccount's namespace "ci.tools" is not a valid DNS-1123 label`,
    );
    expect(() =>
      deployerBindings(rbac, 'deployer', { namespace: 'ci', serviceAccount: 'De_ployer' }),
    ).toThrow(`the ServiceAccount's name "De_ployer" is not a valid DNS-1123 subdomain`);
  });
});
