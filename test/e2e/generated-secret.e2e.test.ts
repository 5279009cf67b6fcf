/**
 * The Jobs that make Secrets in the cluster, their programs as synthesised run with the real
 * kubectl against the real API server, as their own ServiceAccounts bound to their synthesised
 * Roles (so RBAC judges every request): a `GeneratedSecret`'s generator and a node agent's copy.
 * The API server is the judge of the programs' go-templates and merge patches: a Secret is created
 * once, an existing one gains only the keys it lacks (a cloud deployed before a key existed), and a
 * run with nothing to add writes nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App, Testing } from 'cdk8s';
import { GeneratedSecret } from '../../constructs/kube/generated-secret';
import { KubeObject } from '../../lib/graph';
import { Cloud } from '../../lib/model';
import { SchedulingKey } from '../../lib/scheduling';
import { KubeCluster } from '../../lib/runtime/kube/kube-cluster';
import { nodeAgentReading } from '../support/node-agent-reading';
import { kubeconfigFromEnv } from './support/cluster';
import { connect, Kube, tokenKubeconfig, uniqueSuffix } from './support/kube';

const SECRET = 'svc-keystone-user';
const namespace = `sw-gensecret-${uniqueSuffix()}`;
const agents = `${namespace}-agents`;
const ADMIN_APPLY = { fieldManager: 'e2e-admin', force: true, dryRun: false } as const;

let kube: Kube;
let admin: KubeCluster;
let tmp: string;
let kubectlDir: string;

/** The generator of `svc-keystone-user` and its copy for a node agent, synthesised. */
function synthesise(): KubeObject[] {
  const cloud = new Cloud(new App(), 'e2e', { namespace });
  new GeneratedSecret(cloud, 'user', {
    operatorKey: SchedulingKey.OPERATOR_ANY,
    keys: ['password'],
    initial: { username: 'svc' },
    secretName: SECRET,
  });
  nodeAgentReading(cloud, SECRET, 'username');
  return Testing.synth(cloud) as KubeObject[];
}

const objects = synthesise();
const jobs = objects.filter((o) => o.kind === 'Job');
const generator = jobs.find((j) => !j.metadata.name.startsWith('agent-secrets-')) as KubeObject;
const copier = jobs.find((j) => j.metadata.name.startsWith('agent-secrets-')) as KubeObject;

interface PodSpecJson {
  readonly serviceAccountName: string;
  readonly containers: { command: string[] }[];
}
const podSpecOf = (job: KubeObject) => (job.spec as { template: { spec: PodSpecJson } }).template.spec;

/** Runs `job`'s program as its pod would: /bin/sh, kubectl as its ServiceAccount in its namespace. */
async function runJob(job: KubeObject): Promise<void> {
  const spec = podSpecOf(job);
  const token = await kube.core.createNamespacedServiceAccountToken({
    name: spec.serviceAccountName,
    namespace,
    body: { spec: { audiences: [], expirationSeconds: 600 } },
  });
  const kubeconfig = tokenKubeconfig(
    kube,
    token.status?.token ?? '',
    path.join(tmp, `${job.metadata.name}.kubeconfig`),
    namespace,
  );
  const [shell, flags, program] = spec.containers[0].command;
  const run = spawnSync(shell, [flags, program], {
    encoding: 'utf8',
    env: { PATH: `${kubectlDir}:/usr/bin:/bin`, KUBECONFIG: kubeconfig, HOME: tmp },
    timeout: 60_000,
  });
  expect({ job: job.metadata.name, status: run.status, stderr: run.stderr }).toEqual({
    job: job.metadata.name,
    status: 0,
    stderr: expect.not.stringMatching(/forbidden|error/i),
  });
}

/** The Secret's data as text, and its resourceVersion. */
async function secret(ns: string): Promise<{ data: Record<string, string>; version: string }> {
  const read = await kube.core.readNamespacedSecret({ name: SECRET, namespace: ns });
  const data = Object.fromEntries(
    Object.entries(read.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
  );
  return { data, version: read.metadata?.resourceVersion ?? '' };
}

/** Writes the Secret's data as `change` makes it (by the administrator). */
async function rewrite(
  ns: string,
  change: (data: Record<string, string>) => Record<string, string>,
): Promise<void> {
  const data = Object.fromEntries(
    Object.entries(change((await secret(ns)).data)).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
  );
  await kube.core.replaceNamespacedSecret({
    name: SECRET,
    namespace: ns,
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: SECRET, namespace: ns }, data },
  });
}

/** Removes `key` from the Secret, as a Secret made by an older version would lack it. */
const removeKey = (ns: string, key: string) =>
  rewrite(ns, (data) => Object.fromEntries(Object.entries(data).filter(([k]) => k !== key)));

const setKey = (ns: string, key: string, value: string) => rewrite(ns, (data) => ({ ...data, [key]: value }));

beforeAll(async () => {
  const bin = process.env.STACKWRIGHT_CLUSTER_BIN;
  if (!bin)
    throw new Error(
      'STACKWRIGHT_CLUSTER_BIN is not set: run with jest.e2e.config.js against the local cluster',
    );
  kubectlDir = bin;
  kube = connect();
  admin = await KubeCluster.connect({ kubeconfig: kubeconfigFromEnv() });
  tmp = mkdtempSync(path.join(tmpdir(), 'stackwright-gensecret-'));
  for (const ns of [namespace, agents])
    await admin.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, ADMIN_APPLY);
  // The Jobs' identities as synthesised: ServiceAccounts, Roles and RoleBindings, nothing more.
  for (const object of objects.filter((o) => ['ServiceAccount', 'Role', 'RoleBinding'].includes(o.kind)))
    await admin.apply(object, ADMIN_APPLY);
});

afterAll(async () => {
  for (const ns of [namespace, agents])
    await admin.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  admin.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('Secrets made in the cluster, against the real API server', () => {
  test('the generator creates the Secret, the copy Job its copy in the agents’ namespace', async () => {
    // WHEN
    await runJob(generator);
    await runJob(copier);

    // THEN
    const original = await secret(namespace);
    expect(original.data).toEqual({ password: expect.stringMatching(/^[0-9a-f]{48}$/), username: 'svc' });
    expect((await secret(agents)).data).toEqual(original.data);
  });

  test('a Secret made before a key existed gains it on the next run, its other values untouched', async () => {
    // GIVEN both Secrets lack `username`, as when made by an older version
    const before = await secret(namespace);
    await removeKey(namespace, 'username');
    await removeKey(agents, 'username');

    // WHEN the Jobs run again
    await runJob(generator);
    await runJob(copier);

    // THEN
    expect((await secret(namespace)).data).toEqual(before.data);
    expect((await secret(agents)).data).toEqual(before.data);
  });

  test('a run with nothing to add writes nothing, and never changes a value', async () => {
    // GIVEN the copy holds another password than the original (a value the Jobs must not touch)
    const original = await secret(namespace);
    await setKey(agents, 'password', 'set-elsewhere');
    const copy = await secret(agents);

    // WHEN both Jobs run again
    await runJob(generator);
    await runJob(copier);

    // THEN neither Secret was written
    expect(await secret(namespace)).toEqual(original);
    expect(await secret(agents)).toEqual(copy);
    expect(copy.data.password).toBe('set-elsewhere');
  });
});
