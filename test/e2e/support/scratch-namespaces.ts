import { KubeCluster } from '../../../lib/runtime/kube/kube-cluster';
import { kubeconfigFromEnv } from './cluster';
import { uniqueSuffix } from './kube';

/**
 * Registers the suite's set-up and tear-down: a connection to the e2e cluster, and namespaces made
 * for one test each (`fresh('quota')` -> `<prefix>-quota-<suffix>`) that are deleted at the end
 * without waiting (the namespace controller finishes the leftovers of failed tests).
 */
export function scratchNamespaces(prefix: string): {
  cluster: () => KubeCluster;
  fresh: (name: string) => string;
} {
  let cluster: KubeCluster | undefined;
  const namespaces: string[] = [];
  beforeAll(async () => {
    cluster = await KubeCluster.connect({ kubeconfig: kubeconfigFromEnv() });
    await cluster.serverVersion();
  });
  afterAll(async () => {
    if (!cluster) return;
    for (const name of namespaces)
      await cluster.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    cluster.close();
  });
  return {
    cluster: () => {
      if (!cluster) throw new Error('scratchNamespaces: the cluster is connected in beforeAll');
      return cluster;
    },
    fresh: (name) => {
      const namespace = `${prefix}-${name}-${uniqueSuffix()}`;
      namespaces.push(namespace);
      return namespace;
    },
  };
}
