import { ROTATED_SERVICE_USERS } from '../support/rotated-service-users';
import { isDeepStrictEqual } from 'node:util';
import { App } from 'cdk8s';
import { Annotations, KubeObject } from '../../lib/graph';
import { podSpecOf, synthObjects } from '../../lib/testing';
import { referenceCloud } from '../../stacks/reference-cloud';
import { NODE_AGENT_SECRETS } from '../support/node-agent-secrets';

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
const COPIED = NODE_AGENT_SECRETS;
/** Keystone's key rotations (CronJobs), the one Secret each reads and patches, and that Secret's generator. */
const KEY_ROTATIONS = [
  { name: 'keystone-fernet-rotation', secret: 'keystone-fernet-keys', generator: 'keystone-fernet-setup' },
  {
    name: 'keystone-credential-rotation',
    secret: 'keystone-credential-keys',
    generator: 'keystone-credential-setup',
  },
];
/** The service users' rotations: the Secret each reads and patches, and that Secret's generator. */
const SERVICE_USER_ROTATIONS = ROTATED_SERVICE_USERS.map((service) => ({
  name: `${service}-ks-user-rotation`,
  secret: `${service}-keystone-user`,
  generator: `${service}-ks-register-credentials`,
}));
/** Every rotation: a CronJob that reads and patches one Secret by name. */
const ROTATIONS = [...KEY_ROTATIONS, ...SERVICE_USER_ROTATIONS];
const isRotation = (name: string) => ROTATIONS.some((r) => r.name === name);
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

interface ContainerSpec {
  readonly name: string;
  readonly env?: unknown[];
  readonly volumeMounts?: { name: string }[];
}
/** The names of a pod's volumes that project a ServiceAccount token (`apiTokenFor`). */
function tokenVolumes(o: KubeObject): string[] {
  const volumes = (podSpecOf(o).volumes ?? []) as { name: string; projected?: { sources: object[] } }[];
  return volumes
    .filter((v) => v.projected?.sources.some((source) => 'serviceAccountToken' in source))
    .map((v) => v.name);
}
/** The containers (init containers included) that hold a Kubernetes API token. */
function containersWithToken(o: KubeObject): ContainerSpec[] {
  const spec = podSpecOf(o) as {
    initContainers?: ContainerSpec[];
    containers?: ContainerSpec[];
    automountServiceAccountToken?: boolean;
  };
  const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
  if (spec.automountServiceAccountToken === true) return containers;
  const projected = tokenVolumes(o);
  return containers.filter((c) => (c.volumeMounts ?? []).some((m) => projected.includes(m.name)));
}
/** The Jobs whose pods carry a Kubernetes API token: every workload with a ServiceAccount. */
const withToken = objects.filter((o) => {
  if (!['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'].includes(o.kind)) return false;
  return containersWithToken(o).length > 0;
});

/**
 * The Secret each generator or copy Job creates, from its first line, which reads the key names of
 * the Secret if it exists: `if present=" $(kubectl get secret [-n NS] NAME -o go-template=…`.
 */
function generatedSecretOf(job: KubeObject): string {
  const script = (podSpecOf(job).containers as { command: string[] }[])[0].command[2];
  const match = /^if present=" \$\(kubectl get secret (?:-n \S+ )?(\S+) -o go-template=/.exec(script);
  if (!match) throw new Error(`Job/${job.metadata.name} is not a generator: ${script}`);
  return match[1];
}

describe('Secret access per Job', () => {
  test('no Role grants anything on Secrets but get by name and create (and patch by name of the Secret it makes or rotates)', () => {
    // GIVEN the Secret each generator and copy Job makes (it may add the keys it lacks)
    const made = new Map(
      withToken
        .filter((job) => job.kind === 'Job')
        .map((job) => [job.metadata.annotations?.[Annotations.COMPONENT] as string, generatedSecretOf(job)]),
    );
    // WHEN every rule on Secrets is checked
    const broader = named('Role').flatMap((role) =>
      rulesOf(role)
        .filter((rule) => rule.resources?.includes('secrets'))
        .filter((rule) => {
          const getByName = rule.verbs.every((v) => v === 'get') && (rule.resourceNames?.length ?? 0) > 0;
          const createOnly = rule.verbs.length === 1 && rule.verbs[0] === 'create';
          const patchMade = isDeepStrictEqual(
            { ...rule },
            {
              apiGroups: [''],
              resources: ['secrets'],
              resourceNames: [made.get(role.metadata.name)],
              verbs: ['get', 'patch'],
            },
          );
          const rotation = ROTATIONS.some(
            (r) =>
              role.metadata.name === r.name &&
              isDeepStrictEqual(
                { ...rule },
                {
                  apiGroups: [''],
                  resources: ['secrets'],
                  resourceNames: [r.secret],
                  verbs: ['get', 'patch'],
                },
              ),
          );
          return !getByName && !createOnly && !patchMade && !rotation;
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

  test('each token-carrying pod is a generator Job that may read and add keys to only the Secret it creates', () => {
    // THEN every pod with a token runs as its own ServiceAccount, bound to one Role of its own name
    // in the control plane's namespace, where it may read and patch only its Secret and create Secrets
    const generators = withToken.filter(
      (job) => !job.metadata.name.startsWith('agent-secrets-') && !isRotation(job.metadata.name),
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
        {
          apiGroups: [''],
          resources: ['secrets'],
          resourceNames: [generatedSecretOf(job)],
          verbs: ['get', 'patch'],
        },
        { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
      ]);
    }
  });

  test.each(KEY_ROTATIONS)('$name may read and patch $secret, nothing else', (rotation) => {
    const pods = withToken.filter((o) => o.metadata.name === rotation.name);
    expect(pods.map((o) => [o.kind, podSpecOf(o).serviceAccountName])).toEqual([['CronJob', rotation.name]]);
    expect(rolesBoundTo(rotation.name)).toEqual([`${CONTROL_PLANE}/${rotation.name}`]);
    expect(rulesOf(roleIn(CONTROL_PLANE, rotation.name))).toEqual([
      { apiGroups: [''], resources: ['secrets'], resourceNames: [rotation.secret], verbs: ['get', 'patch'] },
    ]);
  });

  test.each(SERVICE_USER_ROTATIONS)(
    '$name may read and patch $secret, and patch exactly the workloads whose pods read it',
    (rotation) => {
      // GIVEN the workloads that read the Secret, in each namespace
      const readers = objects.filter(
        (o) =>
          ['Deployment', 'StatefulSet', 'DaemonSet'].includes(o.kind) &&
          JSON.stringify(podSpecOf(o)).includes(`"name":"${rotation.secret}"`),
      );
      expect(readers.length).toBeGreaterThan(0);
      const namespaces = [...new Set(readers.map((o) => o.metadata.namespace as string))].sort();
      // THEN the CronJob runs as its own account, bound to a Role of its name in each of them …
      const pods = withToken.filter((o) => o.metadata.name === rotation.name);
      expect(pods.map((o) => [o.kind, podSpecOf(o).serviceAccountName])).toEqual([
        ['CronJob', rotation.name],
      ]);
      expect(rolesBoundTo(rotation.name).sort()).toEqual(
        namespaces.map((ns) => `${ns}/${rotation.name}`).sort(),
      );
      // … which grants get and patch on the Secret (or its copy) and on those workloads, by name
      for (const namespace of namespaces) {
        const byKind = new Map<string, string[]>();
        for (const o of readers.filter((r) => r.metadata.namespace === namespace))
          byKind.set(o.kind, [...(byKind.get(o.kind) ?? []), o.metadata.name].sort());
        expect(rulesOf(roleIn(namespace, rotation.name))).toEqual([
          {
            apiGroups: [''],
            resources: ['secrets'],
            resourceNames: [rotation.secret],
            verbs: ['get', 'patch'],
          },
          ...[...byKind.entries()].map(([kind, names]) => ({
            apiGroups: ['apps'],
            resources: [`${kind.toLowerCase()}s`],
            resourceNames: names,
            verbs: ['get', 'patch'],
          })),
        ]);
      }
    },
  );

  test("each copy Job reads its one original and creates or completes its copy in the agents' namespace, nothing else", () => {
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
      // … and only read, add keys to and create the copy in the agents' namespace
      expect(rulesOf(roleIn(AGENTS, name))).toEqual([
        { apiGroups: [''], resources: ['secrets'], resourceNames: [secret], verbs: ['get', 'patch'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
      ]);
    }
  });

  test('every generated Secret is readable through the API by its generator, and its copy Job when node agents read it', () => {
    // WHEN the Secrets each Role may get are counted, per namespace
    const readers = new Map<string, string[]>();
    for (const role of named('Role')) {
      for (const rule of rulesOf(role)) {
        const readsSecrets = rule.resources?.includes('secrets') && rule.verbs.includes('get');
        for (const secret of readsSecrets ? (rule.resourceNames ?? []) : []) {
          const key = `${role.metadata.namespace}/${secret}`;
          readers.set(key, [...(readers.get(key) ?? []), role.metadata.name]);
        }
      }
    }
    // THEN each one by its generator alone, among them the cloud's most sensitive …
    const copied = new Set(COPIED.map((s) => `${CONTROL_PLANE}/${s}`));
    const rotated = new Set(
      ROTATIONS.flatMap((r) => [
        `${CONTROL_PLANE}/${r.secret}`,
        ...(COPIED.includes(r.secret) ? [`${AGENTS}/${r.secret}`] : []),
      ]),
    );
    const single = [...readers.entries()].filter(([key]) => !copied.has(key) && !rotated.has(key));
    expect(single.filter(([, names]) => names.length !== 1)).toEqual([]);
    // … Keystone's keys and the service users' credentials by their generator and their rotation …
    for (const rotation of ROTATIONS.filter((r) => !COPIED.includes(r.secret))) {
      expect(readers.get(`${CONTROL_PLANE}/${rotation.secret}`)).toEqual([rotation.generator, rotation.name]);
    }
    expect(readers.get(`${CONTROL_PLANE}/keystone-admin-credentials`)).toEqual([
      'keystone-admin-credentials',
    ]);
    expect(readers.get(`${CONTROL_PLANE}/db-credentials`)).toEqual(['db-credentials']);
    expect(readers.get(`${CONTROL_PLANE}/barbican-kek`)).toEqual(['barbican-kek-setup']);
    // … and what node agents read, by its generator and its copy Job (and the copy by that Job
    // alone), and by its rotation, when it rotates, in both namespaces
    expect(readers.get(`${CONTROL_PLANE}/nova-keystone-user`)?.sort()).toEqual([
      'agent-secrets-nova-keystone-user',
      'nova-ks-register-credentials',
      'nova-ks-user-rotation',
    ]);
    for (const secret of COPIED) {
      const rotation = ROTATIONS.find((r) => r.secret === secret);
      expect(readers.get(`${CONTROL_PLANE}/${secret}`)?.length).toBe(rotation ? 3 : 2);
      expect(readers.get(`${AGENTS}/${secret}`)?.sort()).toEqual(
        [`agent-secrets-${secret}`, ...(rotation ? [rotation.name] : [])].sort(),
      );
    }
    // (one Secret per token-carrying pod, but for the rotations', which their generators also read)
    expect(readers.size).toBe(withToken.length - ROTATIONS.length);
  });

  test('containers that consume credentials hold no token: the kubelet gives them only what they reference', () => {
    const consumers = objects.filter(
      (o) =>
        ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'].includes(o.kind) &&
        JSON.stringify(podSpecOf(o)).includes('secretKeyRef'),
    );
    expect(consumers.length).toBeGreaterThan(30);
    for (const consumer of consumers) {
      const reading = containersWithToken(consumer)
        .filter((c) => JSON.stringify(c.env ?? []).includes('secretKeyRef'))
        .map((c) => c.name);
      expect({ name: consumer.metadata.name, reading }).toEqual({
        name: consumer.metadata.name,
        reading: [],
      });
    }
    // … and where one container of a pod calls the API while another reads credentials, the
    // token is projected into the caller alone
    const rotation = objects.find(
      (o) => o.kind === 'CronJob' && o.metadata.name === 'keystone-credential-rotation',
    ) as KubeObject;
    expect(podSpecOf(rotation).automountServiceAccountToken).toBe(false);
    expect(containersWithToken(rotation).map((c) => c.name)).toEqual(['publish']);
    // … and in a service user's rotation to its Kubernetes steps, not to those holding the admin's password
    for (const { name } of SERVICE_USER_ROTATIONS) {
      const cronJob = objects.find((o) => o.kind === 'CronJob' && o.metadata.name === name) as KubeObject;
      expect(podSpecOf(cronJob).automountServiceAccountToken).toBe(false);
      expect(containersWithToken(cronJob).map((c) => c.name)).toEqual(['read', 'switch', 'complete']);
    }
  });
});
