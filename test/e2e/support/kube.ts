/**
 * Small Kubernetes helper for e2e tests: typed clients for the cluster chosen by the jest
 * global setup, per-test namespaces, node labelling and polling.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import {
  ApiException,
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  KubeConfig,
  KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
  V1Node,
  V1Pod,
  V1PodCondition,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { kubeconfigFromEnv } from './cluster';

export interface Kube {
  readonly kubeconfigPath: string;
  readonly config: KubeConfig;
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
  readonly batch: BatchV1Api;
  /** Generic client for plain manifest objects (create/read/delete by apiVersion+kind). */
  readonly objects: KubernetesObjectApi;
}

/** Label put on every namespace a test creates, so leftovers are easy to find and delete. */
export const E2E_NAMESPACE_LABEL = 'stackwright-e2e/namespace';
/** Label every simulated node carries; its value is the node profile (control, compute, ...). */
export const NODE_PROFILE_LABEL = 'stackwright.io/e2e-profile';

/** Connects to the cluster selected by the global setup (STACKWRIGHT_E2E_KUBECONFIG). */
export function connect(): Kube {
  const kubeconfigPath = kubeconfigFromEnv();
  const config = new KubeConfig();
  config.loadFromFile(kubeconfigPath);
  return {
    kubeconfigPath,
    config,
    core: config.makeApiClient(CoreV1Api),
    apps: config.makeApiClient(AppsV1Api),
    batch: config.makeApiClient(BatchV1Api),
    objects: KubernetesObjectApi.makeApiClient(config),
  };
}

/**
 * Writes `file`, a kubeconfig for the same server that authenticates with `token` only (a
 * ServiceAccount's), with `namespace` as its default namespace when given (what a pod's in-cluster
 * kubectl uses). Returns `file`.
 */
export function tokenKubeconfig(kube: Kube, token: string, file: string, namespace?: string): string {
  const cluster = kube.config.getCurrentCluster();
  if (!cluster) throw new Error(`${kube.kubeconfigPath} has no current cluster`);
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
      users: [{ name: 'token', user: { token } }],
      contexts: [{ name: 'token', context: { cluster: 'e2e', user: 'token', namespace } }],
      'current-context': 'token',
    }),
  );
  return file;
}

export function isNotFound(err: unknown): boolean {
  return err instanceof ApiException && err.code === 404;
}

/** A short random suffix for names and label keys (lowercase, DNS-safe). */
export function uniqueSuffix(): string {
  return randomBytes(3).toString('hex');
}

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Polls `probe` until it returns something other than undefined and returns that value.
 * On timeout the error names what was awaited and the last probe result or error.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  { timeoutMs = 60_000, intervalMs = 250 }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
      last = undefined;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= deadline) {
      const detail = last instanceof Error ? `: last error ${last.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Creates a fresh namespace and waits for its `default` ServiceAccount: the ServiceAccount
 * admission plugin rejects pods created before the controller-manager made it.
 */
export async function createTestNamespace(kube: Kube, prefix: string): Promise<string> {
  const name = `${prefix}-${uniqueSuffix()}`.slice(0, 63);
  await kube.core.createNamespace({
    body: { metadata: { name, labels: { [E2E_NAMESPACE_LABEL]: 'true' } } },
  });
  await waitFor(`ServiceAccount ${name}/default`, async () =>
    kube.core.readNamespacedServiceAccount({ name: 'default', namespace: name }),
  );
  return name;
}

/** Deletes a namespace (foreground); does not wait, the namespace controller finishes it. */
export async function deleteTestNamespace(kube: Kube, name: string): Promise<void> {
  try {
    await kube.core.deleteNamespace({ name });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/** Creates plain manifest objects in order (namespace taken from each object's metadata). */
export async function createObjects(kube: Kube, objects: readonly KubernetesObject[]): Promise<void> {
  for (const obj of objects) await kube.objects.create(obj);
}

/** Sets (string) or removes (null) labels on a node with a JSON merge patch. */
export async function patchNodeLabels(
  kube: Kube,
  node: string,
  labels: Record<string, string | null>,
): Promise<V1Node> {
  return kube.core.patchNode(
    { name: node, body: { metadata: { labels } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
}

/** Names of nodes matching a label selector, sorted. */
export async function nodeNames(kube: Kube, labelSelector?: string): Promise<string[]> {
  const list = await kube.core.listNode(labelSelector ? { labelSelector } : {});
  return list.items.map((n) => n.metadata?.name ?? '').sort();
}

export async function listPods(kube: Kube, namespace: string, labelSelector?: string): Promise<V1Pod[]> {
  const list = await kube.core.listNamespacedPod(
    labelSelector ? { namespace, labelSelector } : { namespace },
  );
  return list.items;
}

export function podCondition(pod: V1Pod, type: string): V1PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/** Condition lookup for any workload status (Deployment, Job, ...). */
export function hasCondition(
  conditions: ReadonlyArray<{ type: string; status: string }> | undefined,
  type: string,
  status = 'True',
): boolean {
  return (conditions ?? []).some((c) => c.type === type && c.status === status);
}
