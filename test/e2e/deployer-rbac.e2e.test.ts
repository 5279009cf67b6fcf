/**
 * `stackwright rbac` against a real API server: a ServiceAccount that holds only the Roles and
 * ClusterRole the command prints runs every command on them — `deploy`, `plan`, `verify`,
 * `status`, `deploy --prune` and `destroy` of the reference cloud through the CLI, and a deploy
 * for each stuck state the cluster can produce, whose diagnosis reads Pods, ReplicaSets and
 * Events. The API server's RBAC is the judge (a missing verb fails an apply or a read, a Role
 * granting more than the deployer holds is refused), and its audit log the witness: the suite
 * fails on any request of the deployer answered 403, even one the runtime survived (a diagnosis
 * that could not read Events still ends, at the timeout, with a weaker reason).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App } from 'cdk8s';
import { parseAllDocuments, stringify } from 'yaml';
import { runCli } from '../../lib/cli/program';
import { processIo } from '../../lib/cli/io';
import { Annotations, graphFromManifests, KubeObject } from '../../lib/graph';
import { KubeCluster } from '../../lib/runtime/kube/kube-cluster';
import { deploy } from '../../lib/runtime/operations/deploy';
import { destroy } from '../../lib/runtime/operations/destroy';
import { FailureCause } from '../../lib/runtime/result';
import { referenceCloud } from '../../stacks/reference-cloud';
import { Captured } from '../cli/support';
import { auditedForbidden, auditLogOffset, requiredAuditLogFile } from './support/audit-log';
import { kubeconfigFromEnv } from './support/cluster';
import { connect, Kube, tokenKubeconfig, uniqueSuffix, waitFor } from './support/kube';
import { fixtureCloud } from './runtime/fixtures';

jest.setTimeout(900_000);

const suffix = uniqueSuffix();
const namespace = `sw-rbac-${suffix}`;
const agents = `${namespace}-agents`;
const home = `sw-rbac-home-${suffix}`;
const name = `stackwright-deployer-${suffix}`;
const username = `system:serviceaccount:${home}:deployer`;
/** Every namespace and cluster-scoped RBAC object made, deleted at the end. */
const namespaces = [namespace, agents, home];
const clusterRbacNames = [name];
let kube: Kube;
let admin: KubeCluster;
let tmp: string;
let deployerKubeconfig: string;
let audit: { file: string; offset: number };

const ADMIN_APPLY = { fieldManager: 'e2e-admin', force: true, dryRun: false } as const;

/** Runs `stackwright <args>` in this process, as the deployer, with captured output. */
async function stackwright(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new Captured();
  const stderr = new Captured();
  const io = { ...processIo(), stdout, stderr, env: { CI: 'true' } };
  const code = await runCli(['--kubeconfig', deployerKubeconfig, ...args], io);
  return { code, out: stdout.text, err: stderr.text };
}

/** Writes objects as `cloud.k8s.yaml` in a fresh directory. */
function manifestDir(objects: readonly KubeObject[]): string {
  const dir = mkdtempSync(path.join(tmp, 'manifests-'));
  writeFileSync(path.join(dir, 'cloud.k8s.yaml'), objects.map((o) => stringify(o)).join('---\n'));
  return dir;
}

/**
 * What `stackwright rbac <dir> --name <roleName> --service-account <home>/deployer` prints,
 * applied by the administrator (with the namespaces the Roles live in, which the deployer cannot
 * create before it holds a Role there).
 */
async function grant(dir: string, roleName: string): Promise<void> {
  const printed = await stackwright('rbac', dir, '--name', roleName, '--service-account', `${home}/deployer`);
  expect(printed).toMatchObject({ code: 0, err: '' });
  const objects = parseAllDocuments(printed.out).map((d) => d.toJS() as KubeObject);
  const roleNamespaces = [
    ...new Set(objects.flatMap((o) => (o.metadata.namespace ? [o.metadata.namespace] : []))),
  ];
  for (const ns of roleNamespaces)
    await admin.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, ADMIN_APPLY);
  for (const object of objects) await admin.apply(object, ADMIN_APPLY);
}

beforeAll(async () => {
  kube = connect();
  admin = await KubeCluster.connect({ kubeconfig: kubeconfigFromEnv() });
  tmp = mkdtempSync(path.join(tmpdir(), 'stackwright-rbac-'));
  const file = requiredAuditLogFile();
  audit = { file, offset: auditLogOffset(file) };
  // A ServiceAccount in a namespace of its own, with a token and nothing else until `grant`.
  await admin.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: home } }, ADMIN_APPLY);
  await admin.apply(
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'deployer', namespace: home } },
    ADMIN_APPLY,
  );
  const token = await kube.core.createNamespacedServiceAccountToken({
    name: 'deployer',
    namespace: home,
    body: { spec: { audiences: [], expirationSeconds: 3600 } },
  });
  deployerKubeconfig = tokenKubeconfig(
    kube,
    token.status?.token ?? '',
    path.join(tmp, 'deployer.kubeconfig'),
  );
});

afterAll(async () => {
  for (const ns of namespaces)
    await admin.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  for (const rbacName of clusterRbacNames)
    for (const kind of ['ClusterRole', 'ClusterRoleBinding'])
      await admin.delete({ apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name: rbacName } });
  admin.close();
  rmSync(tmp, { recursive: true, force: true });
});

test('under the generated role, the CLI deploys, plans, verifies, reports, prunes and destroys the reference cloud in its two namespaces', async () => {
  // GIVEN the reference cloud's manifests, and the deployer bound to what `stackwright rbac` prints
  const objects = referenceCloud(new App(), 'e2e', { namespace }).toJson() as KubeObject[];
  const graph = graphFromManifests(objects);
  const dir = manifestDir(objects);
  await grant(dir, name);
  // AND the same cloud without one component nothing depends on (what a prune deletes)
  const leaf = graph.components.find((c) => !graph.edges.some((e) => e.to === c.name)) ?? graph.components[0];
  const smaller = manifestDir(
    objects.filter((o) => o.metadata.annotations?.[Annotations.COMPONENT] !== leaf.name),
  );

  // WHEN the deployer runs every command
  const deployed = await stackwright('deploy', dir, '--component-timeout', '2m');
  const planned = await stackwright('plan', dir);
  const verified = await stackwright('verify', dir, '--wait', '1m');
  const status = await stackwright('status', dir, '--json');
  const enforced = async (ns: string) =>
    (await kube.core.readNamespace({ name: ns })).metadata?.labels?.['pod-security.kubernetes.io/enforce'];
  const levels = [await enforced(namespace), await enforced(agents)];
  const agentPods = await kube.core.listNamespacedPod({ namespace: agents });
  const pruned = await stackwright('deploy', smaller, '--prune', '--component-timeout', '2m');
  const leafLeft = (await Promise.all(leaf.objects.map((o) => admin.get(o)))).filter((o) => o !== undefined);
  const destroyed = await stackwright('destroy', smaller, '--yes');

  // THEN every command succeeds under the least privilege
  expect({ deploy: deployed.code, err: deployed.err }).toEqual({ deploy: 0, err: '' });
  expect({ plan: planned.code, err: planned.err }).toEqual({ plan: 0, err: '' });
  expect({ verify: verified.code, err: verified.err }).toEqual({ verify: 0, err: '' });
  expect(JSON.parse(status.out)).toMatchObject({
    inventory: { cloud: 'e2e', namespace, state: 'complete', orphans: [] },
    counts: { verified: graph.components.length },
  });
  expect({ prune: pruned.code, err: pruned.err }).toEqual({ prune: 0, err: '' });
  expect(leafLeft).toEqual([]);
  expect({ destroy: destroyed.code, err: destroyed.err }).toEqual({ destroy: 0, err: '' });
  // AND the node agents' pods were admitted in their namespace; each namespace as labelled live
  expect(new Set(agentPods.items.map((p) => p.metadata?.labels?.['app.kubernetes.io/instance']))).toEqual(
    new Set(['nova', 'neutron', 'ceilometer']),
  );
  expect(levels).toEqual(['restricted', 'privileged']);
});

/** A stuck state the kwok cluster produces for real, and what the administrator prepares for it. */
interface StuckCase {
  readonly cause: FailureCause;
  /** The cloud's objects, in namespace `ns`. */
  readonly objects: (ns: string) => KubeObject[];
  /** Set-up the administrator does after the namespace exists (a quota, Pod Security labels). */
  readonly prepare?: (ns: string) => Promise<void>;
  /** Fails only at the component timeout (the diagnosis names it, but it may heal). */
  readonly healable?: boolean;
}

/** The fixture cloud of one Deployment `api` whose pod template `change` edits. */
function oneDeployment(
  ns: string,
  change: (spec: Record<string, unknown>) => Record<string, unknown> = (s) => s,
) {
  return fixtureCloud('stuck', ns, [{ name: 'api' }]).map((o) =>
    o.kind === 'Deployment'
      ? {
          ...o,
          spec: {
            ...(o.spec as Record<string, unknown>),
            template: {
              ...(o.spec as { template: Record<string, unknown> }).template,
              spec: change((o.spec as { template: { spec: Record<string, unknown> } }).template.spec),
            },
          },
        }
      : o,
  );
}

const STUCK: readonly StuckCase[] = [
  {
    cause: 'quota-exceeded',
    objects: (ns) => oneDeployment(ns),
    prepare: async (ns) => {
      const quota = {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'no-pods', namespace: ns },
        spec: { hard: { pods: '0' } },
      };
      await admin.apply(quota, ADMIN_APPLY);
      await waitFor('the quota controller to count the namespace', async () => {
        const live = await admin.get(quota);
        return (live?.status as { used?: unknown } | undefined)?.used ? true : undefined;
      });
    },
  },
  {
    cause: 'storage-class-missing',
    objects: (ns) => fixtureCloud('stuck', ns, [{ name: 'api', claimStorageClass: 'no-such-class' }]),
  },
  {
    cause: 'pod-security',
    objects: (ns) => oneDeployment(ns, (spec) => ({ ...spec, hostNetwork: true })),
    prepare: async (ns) => {
      await admin.apply(
        {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: ns, labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } },
        },
        ADMIN_APPLY,
      );
    },
  },
  {
    cause: 'service-account-missing',
    objects: (ns) => oneDeployment(ns, (spec) => ({ ...spec, serviceAccountName: 'nobody' })),
  },
  {
    cause: 'unschedulable',
    objects: (ns) =>
      fixtureCloud('stuck', ns, [{ name: 'api', schedulingKeys: ['nowhere.e2e.example.com/none'] }]),
    healable: true,
  },
];

test.each(STUCK.map((c) => [c.cause, c] as const))(
  'under the generated role, the diagnosis of %s reads what it needs and names the cause',
  async (cause, stuck) => {
    // GIVEN a cloud stuck this way, in a namespace of its own, and the deployer bound to its role
    const ns = `sw-rbac-${cause.replace(/-/g, '')}-${suffix}`.slice(0, 63);
    namespaces.push(ns);
    const roleName = `${name}-${cause}`;
    clusterRbacNames.push(roleName);
    const objects = stuck.objects(ns);
    const dir = manifestDir(objects);
    await grant(dir, roleName);
    await stuck.prepare?.(ns);
    const deployer = await KubeCluster.connect({ kubeconfig: deployerKubeconfig });

    try {
      // WHEN the deployer deploys it, diagnosing every 3 s
      const result = await deploy(graphFromManifests(objects), {
        cluster: deployer,
        diagnoseAfterMs: 3_000,
        componentTimeoutMs: stuck.healable ? 20_000 : 90_000,
      });

      // THEN the component fails with the cause the diagnosis found (a healable one at its timeout)
      const api = result.rollout.components.find((c) => c.name === 'api');
      expect({ state: api?.state, cause: api?.cause, diagnosis: api?.diagnosis }).toMatchObject({
        state: 'failed',
        cause: stuck.healable ? 'timeout' : cause,
      });
      expect(api?.findings?.map((f) => f.cause)).toContain(cause);
      expect((api?.diagnosis ?? []).filter((m) => /could not|forbidden/i.test(m))).toEqual([]);
      if (!stuck.healable) expect(api?.durations.totalMs).toBeLessThan(60_000);
      await destroy(graphFromManifests(objects), { cluster: deployer, propagationPolicy: 'Background' });
    } finally {
      deployer.close();
    }
  },
);

test('the API server refused none of the deployer’s requests (audit log: no 403)', async () => {
  // GIVEN every command above has run; the audit backend writes asynchronously
  await new Promise((resolve) => setTimeout(resolve, 2_000));

  // WHEN / THEN
  expect(auditedForbidden(audit.file, audit.offset, username)).toEqual([]);
});
