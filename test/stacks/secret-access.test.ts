import { isDeepStrictEqual } from 'node:util';
import { App } from 'cdk8s';
import { Annotations, KubeObject } from '../../lib/graph';
import { podSpecOf, synthObjects } from '../../lib/testing';
import { referenceCloud } from '../../stacks/reference-cloud';

interface Rule {
  readonly apiGroups?: string[];
  readonly resources?: string[];
  readonly resourceNames?: string[];
  readonly verbs: string[];
}

const objects = synthObjects(referenceCloud(new App()));
const named = (kind: string) => objects.filter((o) => o.kind === kind);
const rulesOf = (role: KubeObject) => (role as unknown as { rules: Rule[] }).rules;
const CONTROL_PLANE = 'openstack';
const AGENTS = 'openstack-agents';
/** The Secrets the node agents read, each copied into the agents' namespace by its own Job. */
const COPIED = [
  'ceilometer-keystone-user',
  'ceilometer-mq',
  'neutron-metadata-secret',
  'neutron-mq',
  'nova-cell1-mq',
  'nova-keystone-user',
];
/** The key rotation Job (a CronJob's) and the one Secret it reads and patches. */
const ROTATION = { name: 'keystone-fernet-rotation', secret: 'keystone-fernet-keys' };
/** The names of the Roles bound to ServiceAccount `name` of the control plane, by namespace. */
function rolesBoundTo(name: string): string[] {
  return named('RoleBinding')
    .filter((b) =>
      (b as unknown as { subjects: { name: string; namespace: string }[] }).subjects.some(
        (s) => s.name === name && s.namespace === CONTROL_PLANE,
      ),
    )
    .map((b) => `${b.metadata.namespace}/${(b as unknown as { roleRef: { name: string } }).roleRef.name}`);
}
const roleIn = (namespace: string, name: string) =>
  named('Role').find((r) => r.metadata.namespace === namespace && r.metadata.name === name) as KubeObject;

/** The Jobs whose pods carry a Kubernetes API token: every workload with a ServiceAccount. */
const withToken = objects.filter((o) => {
  if (!['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'].includes(o.kind)) return false;
  return podSpecOf(o).automountServiceAccountToken === true;
});

/** The Secret each generator or copy Job creates, from its `kubectl get secret [-n NS] NAME` guard. */
function generatedSecretOf(job: KubeObject): string {
  const script = (podSpecOf(job).containers as { command: string[] }[])[0].command[2];
  const match = /^kubectl get secret (?:-n \S+ )?(\S+) /.exec(script);
  if (!match) throw new Error(`Job/${job.metadata.name} is not a generator: ${script}`);
  return match[1];
}

describe('Secret access per Job', () => {
  test('no Role grants anything on Secrets but get by name and create (and the key rotation patch by name)', () => {
    // WHEN every rule on Secrets is checked
    const broader = named('Role').flatMap((role) =>
      rulesOf(role)
        .filter((rule) => rule.resources?.includes('secrets'))
        .filter((rule) => {
          const getByName = rule.verbs.every((v) => v === 'get') && (rule.resourceNames?.length ?? 0) > 0;
          const createOnly = rule.verbs.length === 1 && rule.verbs[0] === 'create';
          const rotation =
            role.metadata.name === ROTATION.name &&
            isDeepStrictEqual(
              { ...rule },
              {
                apiGroups: [''],
                resources: ['secrets'],
                resourceNames: [ROTATION.secret],
                verbs: ['get', 'patch'],
              },
            );
          return !getByName && !createOnly && !rotation;
        })
        .map(
          (rule) =>
            `${role.metadata.name}: ${rule.verbs.join(',')} on ${rule.resourceNames ?? 'every Secret'}`,
        ),
    );
    // THEN none is broader, and nothing is granted cluster-wide
    expect(broader).toEqual([]);
    expect(named('ClusterRole')).toEqual([]);
    expect(named('ClusterRoleBinding')).toEqual([]);
  });

  test('each token-carrying pod is a generator Job that may read only the Secret it creates', () => {
    // THEN every pod with a token runs as its own ServiceAccount, bound to one Role of its own name
    // in the control plane's namespace, where it may read only its Secret and create Secrets
    const generators = withToken.filter(
      (job) => !job.metadata.name.startsWith('agent-secrets-') && job.metadata.name !== ROTATION.name,
    );
    expect(generators.length).toBeGreaterThan(30);
    for (const job of generators) {
      const name = job.metadata.annotations?.[Annotations.COMPONENT] as string;
      expect({
        kind: job.kind,
        namespace: job.metadata.namespace,
        account: podSpecOf(job).serviceAccountName,
      }).toEqual({
        kind: 'Job',
        namespace: CONTROL_PLANE,
        account: name,
      });
      expect(rolesBoundTo(name)).toEqual([`${CONTROL_PLANE}/${name}`]);
      expect(rulesOf(roleIn(CONTROL_PLANE, name))).toEqual([
        { apiGroups: [''], resources: ['secrets'], resourceNames: [generatedSecretOf(job)], verbs: ['get'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
      ]);
    }
  });

  test('the Fernet key rotation may read and patch the Fernet keys, nothing else', () => {
    const rotation = withToken.filter((o) => o.metadata.name === ROTATION.name);
    expect(rotation.map((o) => [o.kind, podSpecOf(o).serviceAccountName])).toEqual([
      ['CronJob', ROTATION.name],
    ]);
    expect(rolesBoundTo(ROTATION.name)).toEqual([`${CONTROL_PLANE}/${ROTATION.name}`]);
    expect(rulesOf(roleIn(CONTROL_PLANE, ROTATION.name))).toEqual([
      { apiGroups: [''], resources: ['secrets'], resourceNames: [ROTATION.secret], verbs: ['get', 'patch'] },
    ]);
  });

  test("each copy Job reads its one original and creates its copy in the agents' namespace, nothing else", () => {
    const copies = withToken.filter((job) => job.metadata.name.startsWith('agent-secrets-'));
    expect(copies.map((job) => generatedSecretOf(job)).sort()).toEqual(COPIED);
    for (const job of copies) {
      const name = job.metadata.annotations?.[Annotations.COMPONENT] as string;
      const secret = generatedSecretOf(job);
      // THEN it runs in the control plane's namespace, bound to a Role of its name in each namespace
      expect(job.metadata.namespace).toBe(CONTROL_PLANE);
      expect(rolesBoundTo(name)).toEqual([`${CONTROL_PLANE}/${name}`, `${AGENTS}/${name}`]);
      // … may only read the original where it is generated …
      expect(rulesOf(roleIn(CONTROL_PLANE, name))).toEqual([
        { apiGroups: [''], resources: ['secrets'], resourceNames: [secret], verbs: ['get'] },
      ]);
      // … and only read and create the copy in the agents' namespace
      expect(rulesOf(roleIn(AGENTS, name))).toEqual([
        { apiGroups: [''], resources: ['secrets'], resourceNames: [secret], verbs: ['get'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
      ]);
    }
  });

  test('every generated Secret is readable through the API by its generator, and its copy Job when node agents read it', () => {
    // WHEN the Secrets each Role may get are counted, per namespace
    const readers = new Map<string, string[]>();
    for (const role of named('Role')) {
      for (const rule of rulesOf(role)) {
        for (const secret of rule.verbs.includes('get') ? (rule.resourceNames ?? []) : []) {
          const key = `${role.metadata.namespace}/${secret}`;
          readers.set(key, [...(readers.get(key) ?? []), role.metadata.name]);
        }
      }
    }
    // THEN each one by its generator alone, among them the cloud's most sensitive …
    const copied = new Set(COPIED.map((s) => `${CONTROL_PLANE}/${s}`));
    const single = [...readers.entries()].filter(
      ([key]) => !copied.has(key) && key !== `${CONTROL_PLANE}/${ROTATION.secret}`,
    );
    expect(single.filter(([, names]) => names.length !== 1)).toEqual([]);
    // … the Fernet keys by their generator and their rotation …
    expect(readers.get(`${CONTROL_PLANE}/${ROTATION.secret}`)).toEqual([
      'keystone-fernet-setup',
      ROTATION.name,
    ]);
    expect(readers.get(`${CONTROL_PLANE}/keystone-admin-credentials`)).toEqual([
      'keystone-admin-credentials',
    ]);
    expect(readers.get(`${CONTROL_PLANE}/db-credentials`)).toEqual(['db-credentials']);
    expect(readers.get(`${CONTROL_PLANE}/barbican-kek`)).toEqual(['barbican-kek-setup']);
    // … and what node agents read, by its generator and its copy Job (and the copy by that Job alone)
    expect(readers.get(`${CONTROL_PLANE}/nova-keystone-user`)).toEqual([
      'nova-ks-register-credentials',
      'agent-secrets-nova-keystone-user',
    ]);
    for (const secret of COPIED) {
      expect(readers.get(`${CONTROL_PLANE}/${secret}`)?.length).toBe(2);
      expect(readers.get(`${AGENTS}/${secret}`)).toEqual([`agent-secrets-${secret}`]);
    }
    // (one Secret per token-carrying pod, but for the rotation's, which its generator also reads)
    expect(readers.size).toBe(withToken.length - 1);
  });

  test('pods that consume credentials mount no token: the kubelet gives them only what they reference', () => {
    const consumers = objects.filter(
      (o) =>
        ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'].includes(o.kind) &&
        JSON.stringify(podSpecOf(o)).includes('secretKeyRef'),
    );
    expect(consumers.length).toBeGreaterThan(30);
    for (const consumer of consumers) {
      expect({
        name: consumer.metadata.name,
        token: podSpecOf(consumer).automountServiceAccountToken,
      }).toEqual({
        name: consumer.metadata.name,
        token: false,
      });
    }
  });
});
