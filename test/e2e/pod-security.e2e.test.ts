/**
 * The cloud's namespaces enforce what they claim, judged by the API server's own Pod Security
 * admission: the synthesised Namespace (and PriorityClass) objects are applied as they are, then the pod the cloud
 * runs as a node agent (nova-libvirt's: privileged, host network and PID, host directories) is
 * created in each. The control plane's namespace refuses it; the agents' namespace admits it.
 */
import { App } from 'cdk8s';
import { V1Pod } from '@kubernetes/client-node';
import { KubeObject } from '../../lib/graph';
import { KubeCluster } from '../../lib/runtime/kube/kube-cluster';
import { findObject, podSpecOf } from '../../lib/testing';
import { referenceCloud } from '../../stacks/reference-cloud';
import { kubeconfigFromEnv } from './support/cluster';
import { connect, E2E_NAMESPACE_LABEL, Kube, uniqueSuffix } from './support/kube';

const namespace = `sw-psa-${uniqueSuffix()}`;
const agents = `${namespace}-agents`;
const objects = referenceCloud(new App(), 'psa', {
  namespace,
  labels: { [E2E_NAMESPACE_LABEL]: 'true' },
}).toJson() as KubeObject[];
/** What the pods need before they can be created: their namespaces and the PriorityClasses they name. */
const prerequisites = objects.filter((o) => o.kind === 'Namespace' || o.kind === 'PriorityClass');
let kube: Kube;
let admin: KubeCluster;

/** nova-libvirt's pod, as the cloud synthesises it, as a bare Pod in `ns`. */
function libvirtPod(ns: string): V1Pod {
  const daemonSet = findObject(objects, 'DaemonSet', 'nova-libvirt');
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'privileged-probe', namespace: ns },
    spec: podSpecOf(daemonSet) as unknown as V1Pod['spec'],
  };
}

/** The API server's answer to creating `pod`: `created`, or the status code and message. */
async function create(pod: V1Pod): Promise<string> {
  try {
    await kube.core.createNamespacedPod({ namespace: pod.metadata?.namespace ?? '', body: pod });
    return 'created';
  } catch (err) {
    const e = err as { code?: number; body?: string };
    const message = (JSON.parse(e.body ?? '{}') as { message?: string }).message ?? String(err);
    return `${e.code}: ${message}`;
  }
}

beforeAll(async () => {
  kube = connect();
  admin = await KubeCluster.connect({ kubeconfig: kubeconfigFromEnv() });
  // GIVEN the cloud's two Namespace objects and its PriorityClasses, applied as synthesised
  expect(prerequisites.map((o) => o.metadata.name)).toEqual([
    namespace,
    agents,
    `${namespace}-control-plane`,
    `${namespace}-node-agent`,
  ]);
  for (const object of prerequisites)
    await admin.apply(object, { fieldManager: 'e2e-admin', force: true, dryRun: false });
});

afterAll(async () => {
  for (const object of prerequisites) await admin?.delete(object);
  admin?.close();
});

test("the control plane's namespace refuses a privileged pod by Pod Security admission", async () => {
  // WHEN the node agent's pod is created in the control plane's namespace
  const answer = await create(libvirtPod(namespace));

  // THEN Pod Security admission refuses it, naming the profile and what it violates
  expect(answer).toMatch(
    /^403: pods "privileged-probe" is forbidden: violates PodSecurity "restricted:latest"/,
  );
  expect(answer).toContain('privileged');
  expect(answer).toContain('host namespaces');
  expect(answer).toContain('use restricted volume type "hostPath"');
});

test("the agents' namespace admits the same pod", async () => {
  // WHEN the same pod is created in the agents' namespace
  const answer = await create(libvirtPod(agents));

  // THEN it is admitted
  expect(answer).toBe('created');
  await kube.core.deleteNamespacedPod({ name: 'privileged-probe', namespace: agents, gracePeriodSeconds: 0 });
});

test("a control-plane pod of the cloud is admitted in the control plane's namespace", async () => {
  // WHEN keystone's API pod, as synthesised, is created where the cloud puts it
  const deployment = findObject(objects, 'Deployment', 'keystone-api');
  const answer = await create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'restricted-probe', namespace },
    spec: podSpecOf(deployment) as unknown as V1Pod['spec'],
  });

  // THEN restricted admits it: the profile refuses only what needs the host
  expect(answer).toBe('created');
  await kube.core.deleteNamespacedPod({ name: 'restricted-probe', namespace, gracePeriodSeconds: 0 });
});
