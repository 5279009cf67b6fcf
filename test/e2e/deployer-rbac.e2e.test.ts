/**
 * `stackwright rbac` against a real API server: the reference cloud is deployed, verified and
 * destroyed by a ServiceAccount that holds only what `deployerRbac` derives from its manifests.
 * The API server's RBAC is the judge: a missing verb fails an apply or a read, a Role granting more
 * than the deployer holds is refused (escalation prevention).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App } from 'cdk8s';
import { stringify } from 'yaml';
import { graphFromManifests, KubeObject } from '../../lib/graph';
import { deployerBindings, deployerRbac } from '../../lib/runtime/deployer-rbac';
import { KubeCluster } from '../../lib/runtime/kube/kube-cluster';
import { deploy } from '../../lib/runtime/operations/deploy';
import { destroy } from '../../lib/runtime/operations/destroy';
import { verify } from '../../lib/runtime/operations/rollout';
import { referenceCloud } from '../../stacks/reference-cloud';
import { kubeconfigFromEnv } from './support/cluster';
import { connect, Kube, uniqueSuffix } from './support/kube';

jest.setTimeout(600_000);

const suffix = uniqueSuffix();
const namespace = `sw-rbac-${suffix}`;
const agents = `${namespace}-agents`;
const home = `sw-rbac-home-${suffix}`;
const name = `stackwright-deployer-${suffix}`;
let kube: Kube;
let admin: KubeCluster;
let tmp: string;

/** A kubeconfig for the same server that authenticates with `token` only. */
function tokenKubeconfig(token: string): string {
  const cluster = kube.config.getCurrentCluster();
  if (!cluster) throw new Error(`${kube.kubeconfigPath} has no current cluster`);
  const file = path.join(tmp, 'deployer.kubeconfig');
  writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'e2e',
          cluster: {
            server: cluster.server,
            'certificate-authority': cluster.caFile,
            'certificate-authority-data': cluster.caData,
            'insecure-skip-tls-verify': cluster.skipTLSVerify || undefined,
          },
        },
      ],
      users: [{ name: 'deployer', user: { token } }],
      contexts: [{ name: 'deployer', context: { cluster: 'e2e', user: 'deployer' } }],
      'current-context': 'deployer',
    }),
  );
  return file;
}

beforeAll(async () => {
  kube = connect();
  admin = await KubeCluster.connect({ kubeconfig: kubeconfigFromEnv() });
  tmp = mkdtempSync(path.join(tmpdir(), 'stackwright-rbac-'));
});

afterAll(async () => {
  for (const ns of [namespace, agents, home])
    await admin.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  for (const kind of ['ClusterRole', 'ClusterRoleBinding'])
    await admin.delete({ apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name } });
  admin.close();
  rmSync(tmp, { recursive: true, force: true });
});

test('a ServiceAccount bound only to the generated Roles and ClusterRole deploys, verifies and destroys the reference cloud in its two namespaces', async () => {
  // GIVEN the reference cloud, and the deployer's permissions derived from its manifests
  const objects = referenceCloud(new App(), 'e2e', { namespace }).toJson() as KubeObject[];
  const graph = graphFromManifests(objects);
  const rbac = deployerRbac(graph, name);
  // AND a ServiceAccount (in a namespace of its own) bound to them, nothing else. There is a Role
  // in each of the cloud's namespaces (the control plane's and the node agents'), so an
  // administrator creates those namespaces first (the deployer then applies the cloud's Namespace
  // objects, with their Pod Security labels, over them).
  expect(rbac.roles.map((r) => r.metadata.namespace).sort()).toEqual([namespace, agents]);
  const setup: KubeObject[] = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: home } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: agents } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'deployer', namespace: home } },
    rbac.clusterRole,
    ...rbac.roles,
    ...deployerBindings(rbac, name, { namespace: home, serviceAccount: 'deployer' }),
  ];
  for (const object of setup)
    await admin.apply(object, { fieldManager: 'e2e-admin', force: true, dryRun: false });
  const token = await kube.core.createNamespacedServiceAccountToken({
    name: 'deployer',
    namespace: home,
    body: { spec: { audiences: [], expirationSeconds: 3600 } },
  });
  const deployer = await KubeCluster.connect({ kubeconfig: tokenKubeconfig(token.status?.token ?? '') });

  try {
    // WHEN the deployer deploys, verifies and destroys it
    const deployed = await deploy(graph, { cluster: deployer, componentTimeoutMs: 120_000 });
    const verified = await verify(graph, deployer, { waitMs: 60_000 });
    // (the node agents' pods were admitted in their namespace; each namespace as labelled live)
    const agentPods = await kube.core.listNamespacedPod({ namespace: agents });
    const enforced = async (name: string) =>
      (await kube.core.readNamespace({ name })).metadata?.labels?.['pod-security.kubernetes.io/enforce'];
    const levels = [await enforced(namespace), await enforced(agents)];
    const destroyed = await destroy(graph, { cluster: deployer });

    // THEN every step succeeds under the least privilege
    const problems = deployed.rollout.components
      .filter((c) => c.state !== 'verified')
      .map((c) => `${c.name}: ${c.reason}`);
    expect(problems).toEqual([]);
    expect(verified.ok).toBe(true);
    expect(destroyed.ok).toBe(true);
    expect(new Set(agentPods.items.map((p) => p.metadata?.labels?.['app.kubernetes.io/instance']))).toEqual(
      new Set(['nova', 'neutron', 'ceilometer']),
    );
    // AND the control plane's namespace enforced restricted, the agents' privileged
    expect(levels).toEqual(['restricted', 'privileged']);
  } finally {
    deployer.close();
  }
});
