import { App } from 'cdk8s';
import { KubeObject } from '../../lib/graph';
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

/** The Jobs whose pods carry a Kubernetes API token: every workload with a ServiceAccount. */
const withToken = objects.filter((o) => {
  if (!['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(o.kind)) return false;
  return podSpecOf(o).automountServiceAccountToken === true;
});

/** The Secret each generator Job creates, from its `kubectl get secret NAME` guard. */
function generatedSecretOf(job: KubeObject): string {
  const script = (podSpecOf(job).containers as { command: string[] }[])[0].command[2];
  const match = /^kubectl get secret (\S+) /.exec(script);
  if (!match) throw new Error(`Job/${job.metadata.name} is not a generator: ${script}`);
  return match[1];
}

describe('Secret access per Job', () => {
  test('no Role grants anything on Secrets but get by name and create', () => {
    // WHEN every rule on Secrets is checked
    const broader = named('Role').flatMap((role) =>
      rulesOf(role)
        .filter((rule) => rule.resources?.includes('secrets'))
        .filter((rule) => {
          const getByName = rule.verbs.every((v) => v === 'get') && (rule.resourceNames?.length ?? 0) > 0;
          const createOnly = rule.verbs.length === 1 && rule.verbs[0] === 'create';
          return !getByName && !createOnly;
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
    expect(withToken.length).toBeGreaterThan(30);
    for (const job of withToken) {
      const name = job.metadata.name;
      expect({ kind: job.kind, account: podSpecOf(job).serviceAccountName }).toEqual({
        kind: 'Job',
        account: name,
      });
      const bindings = named('RoleBinding').filter((b) =>
        (b as unknown as { subjects: { name: string }[] }).subjects.some((s) => s.name === name),
      );
      expect(bindings.map((b) => (b as unknown as { roleRef: { name: string } }).roleRef.name)).toEqual([
        name,
      ]);
      const role = named('Role').find((r) => r.metadata.name === name) as KubeObject;
      expect(rulesOf(role)).toEqual([
        { apiGroups: [''], resources: ['secrets'], resourceNames: [generatedSecretOf(job)], verbs: ['get'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
      ]);
    }
  });

  test('every generated Secret is readable through the API by exactly one ServiceAccount', () => {
    // WHEN the Secrets each Role may get are counted
    const readers = new Map<string, string[]>();
    for (const role of named('Role')) {
      for (const rule of rulesOf(role)) {
        for (const secret of rule.verbs.includes('get') ? (rule.resourceNames ?? []) : []) {
          readers.set(secret, [...(readers.get(secret) ?? []), role.metadata.name]);
        }
      }
    }
    // THEN each one by its generator alone, among them the cloud's most sensitive
    expect([...readers.values()].every((r) => r.length === 1)).toBe(true);
    expect(readers.get('keystone-admin-credentials')).toEqual(['keystone-admin-credentials']);
    expect(readers.get('db-credentials')).toEqual(['db-credentials']);
    expect(readers.get('barbican-kek')).toEqual(['barbican-kek-setup']);
    expect(readers.size).toBe(withToken.length);
  });

  test('pods that consume credentials mount no token: the kubelet gives them only what they reference', () => {
    const consumers = objects.filter(
      (o) =>
        ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(o.kind) &&
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
