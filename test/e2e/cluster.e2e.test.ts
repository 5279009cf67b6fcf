/**
 * Proofs against a real control plane (kube-apiserver, kube-scheduler, kube-controller-manager,
 * kwok-simulated kubelets; see docs/test-cluster.md) that Yaook-style placement and the
 * workload lifecycles the SDK relies on behave as expected.
 *
 * The objects are written inline as plain manifests with the Yaook placement shape (required
 * node affinity "key K exists OR group key G exists", tolerations for K and G with NoSchedule
 * and NoExecute). Manifests synthesised by the SDK are deployed by the runtime e2e tests.
 *
 * Node profiles (scripts/cluster/nodes/): sw-control-{0,1} (API/infra/operator keys),
 * sw-compute-{0,1} (hypervisor label + NoSchedule taint), sw-network-0 (neutron agents),
 * sw-plain-0 (no Yaook label). Tests that change node labels use keys unique to the test
 * and remove them again, so they do not depend on each other.
 */
import type {
  V1Affinity,
  V1DaemonSet,
  V1Deployment,
  V1Job,
  V1Node,
  V1Pod,
  V1PodSpec,
  V1Service,
  V1StatefulSet,
  V1Toleration,
} from '@kubernetes/client-node';
import {
  Kube,
  connect,
  createObjects,
  createTestNamespace,
  deleteTestNamespace,
  hasCondition,
  listPods,
  patchNodeLabels,
  podCondition,
  uniqueSuffix,
  waitFor,
} from './support/kube';

const HYPERVISOR_KEY = 'compute.yaook.cloud/hypervisor';
const DOWNSCALE_KEY = 'state.yaook.cloud/forced-downscale';
const API_KEY = 'any.yaook.cloud/api';
/** kwok stage annotations (scripts/cluster/kwok/). */
const FAIL_ANNOTATION = 'stackwright.io/e2e-fail';
const READY_DELAY_ANNOTATION = 'stackwright.io/e2e-ready-delay';

// ---------------------------------------------------------------------------------------
// Manifest builders (plain objects, the shape Yaook components use)
// ---------------------------------------------------------------------------------------

interface Placement {
  affinity: V1Affinity;
  tolerations: V1Toleration[];
}

/** Yaook placement: runs on nodes labelled with any of the keys and tolerates their taints. */
function yaookPlacement(...keys: string[]): Placement {
  return {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          // Terms are ORed: "component key exists" OR "group key exists".
          nodeSelectorTerms: keys.map((key) => ({ matchExpressions: [{ key, operator: 'Exists' }] })),
        },
      },
    },
    tolerations: keys.flatMap((key) =>
      ['NoSchedule', 'NoExecute'].map((effect) => ({ key, operator: 'Exists', effect })),
    ),
  };
}

function podSpec(extra: Partial<V1PodSpec> = {}): V1PodSpec {
  return {
    containers: [
      {
        name: 'main',
        // Never pulled: kwok simulates the kubelet.
        image: 'registry.invalid/stackwright/e2e:1',
        resources: { requests: { cpu: '10m', memory: '16Mi' } },
      },
    ],
    terminationGracePeriodSeconds: 0,
    ...extra,
  };
}

function deployment(
  namespace: string,
  name: string,
  replicas: number,
  spec: Partial<V1PodSpec>,
  annotations: Record<string, string> = {},
): V1Deployment {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels, annotations }, spec: podSpec(spec) },
    },
  };
}

function job(
  namespace: string,
  name: string,
  opts: { completions: number; backoffLimit: number; annotations?: Record<string, string> },
): V1Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace },
    spec: {
      completions: opts.completions,
      parallelism: opts.completions,
      backoffLimit: opts.backoffLimit,
      template: {
        metadata: { labels: { job: name }, annotations: opts.annotations ?? {} },
        spec: podSpec({ restartPolicy: 'Never', ...yaookPlacement(API_KEY) }),
      },
    },
  };
}

// ---------------------------------------------------------------------------------------
// Cluster queries
// ---------------------------------------------------------------------------------------

function hasNoScheduleTaint(node: V1Node): boolean {
  return (node.spec?.taints ?? []).some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
}

/** API timestamps (second precision) arrive as Date objects from client-node. */
function millis(t: Date | string | undefined): number {
  if (t === undefined) throw new Error('missing timestamp');
  return new Date(t).getTime();
}

function nodeName(node: V1Node): string {
  return node.metadata?.name ?? '';
}

async function allNodes(kube: Kube): Promise<V1Node[]> {
  return (await kube.core.listNode()).items;
}

/** Untainted Ready nodes, sorted by name: candidates for placement tests. */
async function untaintedNodes(kube: Kube): Promise<string[]> {
  return (await allNodes(kube))
    .filter((n) => !hasNoScheduleTaint(n))
    .map(nodeName)
    .sort();
}

async function nodesWithLabel(kube: Kube, key: string): Promise<string[]> {
  return (await kube.core.listNode({ labelSelector: key })).items.map(nodeName).sort();
}

/** Waits until `count` pods match and all are bound to a node; returns their node names. */
async function waitScheduled(kube: Kube, ns: string, selector: string, count: number): Promise<string[]> {
  return waitFor(`${count} scheduled pods (${selector}) in ${ns}`, async () => {
    const pods = (await listPods(kube, ns, selector)).filter((p) => !p.metadata?.deletionTimestamp);
    if (pods.length !== count || pods.some((p) => !p.spec?.nodeName)) return undefined;
    return pods.map((p) => p.spec?.nodeName ?? '');
  });
}

/** Waits until `count` pods match and every one is PodScheduled=False/Unschedulable. */
async function waitUnschedulable(kube: Kube, ns: string, selector: string, count: number): Promise<V1Pod[]> {
  return waitFor(`${count} Unschedulable pods (${selector}) in ${ns}`, async () => {
    const pods = await listPods(kube, ns, selector);
    const unschedulable = pods.filter((p) => {
      const c = podCondition(p, 'PodScheduled');
      return c?.status === 'False' && c.reason === 'Unschedulable';
    });
    return pods.length === count && unschedulable.length === count ? pods : undefined;
  });
}

async function scaleDeployment(kube: Kube, ns: string, name: string, replicas: number): Promise<void> {
  const current = await kube.apps.readNamespacedDeployment({ name, namespace: ns });
  if (!current.spec) throw new Error(`deployment ${ns}/${name} has no spec`);
  current.spec.replicas = replicas;
  await kube.apps.replaceNamespacedDeployment({ name, namespace: ns, body: current });
}

// ---------------------------------------------------------------------------------------

describe('Kubernetes e2e cluster', () => {
  let kube: Kube;
  let ns: string | undefined;

  beforeAll(() => {
    kube = connect();
  });

  // One namespace per test; `ns` is read through testNs() so a failed setup is reported once.
  const testNs = (): string => {
    if (!ns) throw new Error('test namespace was not created');
    return ns;
  };

  beforeEach(async () => {
    ns = undefined;
    ns = await createTestNamespace(kube, 'e2e-cluster');
  });

  afterEach(async () => {
    if (ns) await deleteTestNamespace(kube, ns);
  });

  describe('Yaook placement with the real scheduler', () => {
    test('a component stays Pending (Unschedulable) while no node carries its key or group key', async () => {
      const ns = testNs();
      // GIVEN a component key K and a group key G that no node is labelled with
      const id = uniqueSuffix();
      const key = `e2e-${id}.yaook.cloud/component`;
      const group = `e2e-${id}.yaook.cloud/group`;
      expect(await nodesWithLabel(kube, key)).toEqual([]);
      expect(await nodesWithLabel(kube, group)).toEqual([]);

      // WHEN a Deployment with the Yaook placement for K / G is created
      await createObjects(kube, [deployment(ns, 'pending', 2, yaookPlacement(key, group))]);

      // THEN every pod stays unbound with PodScheduled=False, reason Unschedulable
      const pods = await waitUnschedulable(kube, ns, 'app=pending', 2);
      for (const pod of pods) {
        expect(pod.spec?.nodeName).toBeUndefined();
        expect(pod.status?.phase).toBe('Pending');
        expect(podCondition(pod, 'PodScheduled')?.message).toMatch(/node affinity/);
      }
    });

    test('once nodes get the key or the group key, pods land only on those nodes', async () => {
      const ns = testNs();
      // GIVEN a pending component (key K, group G) and two untainted nodes A and B
      const id = uniqueSuffix();
      const key = `e2e-${id}.yaook.cloud/component`;
      const group = `e2e-${id}.yaook.cloud/group`;
      const candidates = await untaintedNodes(kube);
      expect(candidates.length).toBeGreaterThanOrEqual(3);
      const [nodeA, nodeB] = [candidates[0], candidates[candidates.length - 1]];
      await createObjects(kube, [deployment(ns, 'placed', 2, yaookPlacement(key, group))]);
      await waitUnschedulable(kube, ns, 'app=placed', 2);

      try {
        // WHEN node A gets the component key K
        await patchNodeLabels(kube, nodeA, { [key]: 'true' });

        // THEN the pending pods are scheduled, all onto node A
        expect(new Set(await waitScheduled(kube, ns, 'app=placed', 2))).toEqual(new Set([nodeA]));

        // WHEN node B gets the group key G, node A loses K, and the component scales out
        await patchNodeLabels(kube, nodeB, { [group]: 'true' });
        await patchNodeLabels(kube, nodeA, { [key]: null });
        await scaleDeployment(kube, ns, 'placed', 5);

        // THEN the running pods stay on A (IgnoredDuringExecution) and the 3 new ones land on B
        const placed = await waitScheduled(kube, ns, 'app=placed', 5);
        expect(placed.filter((n) => n === nodeA)).toHaveLength(2);
        expect(placed.filter((n) => n === nodeB)).toHaveLength(3);
      } finally {
        await patchNodeLabels(kube, nodeA, { [key]: null });
        await patchNodeLabels(kube, nodeB, { [group]: null });
      }
    });

    test('tainted compute nodes take only pods that tolerate the hypervisor taint', async () => {
      const ns = testNs();
      // GIVEN the compute nodes: hypervisor label + hypervisor NoSchedule taint
      const computeNodes = (await allNodes(kube))
        .filter((n) =>
          (n.spec?.taints ?? []).some((t) => t.key === HYPERVISOR_KEY && t.effect === 'NoSchedule'),
        )
        .map(nodeName)
        .sort();
      expect(computeNodes.length).toBeGreaterThanOrEqual(1); // needs the default node profiles
      // ... and a key K carried by every compute node and by one untainted node
      const key = `e2e-${uniqueSuffix()}.yaook.cloud/component`;
      const [untainted] = await untaintedNodes(kube);
      const labelled = [...computeNodes, untainted];

      try {
        for (const node of labelled) await patchNodeLabels(kube, node, { [key]: 'true' });

        // WHEN a component placed on K (which does not tolerate the hypervisor taint) scales to 6
        await createObjects(kube, [deployment(ns, 'control-plane', 6, yaookPlacement(key))]);

        // THEN every pod lands on the untainted node, none on a compute node
        const placed = await waitScheduled(kube, ns, 'app=control-plane', 6);
        expect(new Set(placed)).toEqual(new Set([untainted]));

        // WHEN a hypervisor component (key compute.yaook.cloud/hypervisor, tolerating it) and
        // the same placement without the toleration are created
        const hv = yaookPlacement(HYPERVISOR_KEY);
        await createObjects(kube, [
          deployment(ns, 'hypervisor', 4, hv),
          deployment(ns, 'intolerant', 1, { affinity: hv.affinity }),
        ]);

        // THEN the tolerating pods run only on compute nodes, the intolerant pod is Unschedulable
        const hvPlaced = await waitScheduled(kube, ns, 'app=hypervisor', 4);
        expect(hvPlaced.every((n) => computeNodes.includes(n))).toBe(true);
        const [intolerant] = await waitUnschedulable(kube, ns, 'app=intolerant', 1);
        expect(podCondition(intolerant, 'PodScheduled')?.message).toMatch(/untolerated taint/);
      } finally {
        for (const node of labelled) await patchNodeLabels(kube, node, { [key]: null });
      }
    });

    test('a DaemonSet with the forced-downscale node selector runs zero pods', async () => {
      const ns = testNs();
      // GIVEN no node carries state.yaook.cloud/forced-downscale (it must never be a node label)
      expect(await nodesWithLabel(kube, DOWNSCALE_KEY)).toEqual([]);
      const [someNode] = await untaintedNodes(kube);
      const daemonSet = (name: string, nodeSelector: Record<string, string>): V1DaemonSet => ({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name, namespace: ns },
        spec: {
          selector: { matchLabels: { ds: name } },
          template: { metadata: { labels: { ds: name } }, spec: podSpec({ nodeSelector }) },
        },
      });

      // WHEN a downscaled DaemonSet and, as a control, one pinned to a single node are created
      await createObjects(kube, [
        daemonSet('downscaled', { [DOWNSCALE_KEY]: 'true' }),
        daemonSet('control', { 'kubernetes.io/hostname': someNode }),
      ]);

      // THEN the controller reconciles both: the downscaled one wants 0 pods, the control 1
      const statusOf = async (name: string) =>
        waitFor(`DaemonSet ${name} status observed`, async () => {
          const ds = await kube.apps.readNamespacedDaemonSet({ name, namespace: ns });
          const observed = (ds.status?.observedGeneration ?? 0) >= (ds.metadata?.generation ?? 1);
          return observed ? ds.status : undefined;
        });
      const downscaled = await statusOf('downscaled');
      expect(downscaled?.desiredNumberScheduled).toBe(0);
      expect(downscaled?.currentNumberScheduled).toBe(0);
      await waitFor('control DaemonSet ready on 1 node', async () => {
        const s = (await kube.apps.readNamespacedDaemonSet({ name: 'control', namespace: ns })).status;
        return s?.desiredNumberScheduled === 1 && s.numberReady === 1 ? s : undefined;
      });
      expect(await listPods(kube, ns, 'ds=downscaled')).toHaveLength(0);
    });
  });

  describe('workload lifecycles with simulated kubelets', () => {
    test('a Deployment becomes Available', async () => {
      const ns = testNs();
      // GIVEN an API component placed on any.yaook.cloud/api (the control nodes)
      const apiNodes = await nodesWithLabel(kube, API_KEY);
      expect(apiNodes.length).toBeGreaterThanOrEqual(1);

      // WHEN it is deployed with 3 replicas
      await createObjects(kube, [deployment(ns, 'api', 3, yaookPlacement(API_KEY))]);

      // THEN the Deployment reports Available with 3 available replicas, all on API nodes
      const status = await waitFor('Deployment api Available', async () => {
        const s = (await kube.apps.readNamespacedDeployment({ name: 'api', namespace: ns })).status;
        return hasCondition(s?.conditions, 'Available') && s?.availableReplicas === 3 ? s : undefined;
      });
      expect(status.readyReplicas).toBe(3);
      const placed = await waitScheduled(kube, ns, 'app=api', 3);
      expect(placed.every((n) => apiNodes.includes(n))).toBe(true);
    });

    test('a StatefulSet with volume claims becomes ready', async () => {
      const ns = testNs();
      // GIVEN a headless Service and a 2-replica StatefulSet with a volumeClaimTemplate
      // (default StorageClass kwok-volume: kwok's volume stages create and bind the PVs)
      const labels = { app: 'db' };
      const service: V1Service = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'db', namespace: ns },
        spec: { clusterIP: 'None', selector: labels, ports: [{ name: 'mysql', port: 3306 }] },
      };
      const sts: V1StatefulSet = {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db', namespace: ns },
        spec: {
          serviceName: 'db',
          replicas: 2,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: podSpec(yaookPlacement('infra.yaook.cloud/db', 'infra.yaook.cloud/any')),
          },
          volumeClaimTemplates: [
            {
              metadata: { name: 'data' },
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
            },
          ],
        },
      };

      // WHEN both are created
      await createObjects(kube, [service, sts]);

      // THEN the StatefulSet reports 2 ready replicas and its claims are Bound
      await waitFor('StatefulSet db ready', async () => {
        const s = (await kube.apps.readNamespacedStatefulSet({ name: 'db', namespace: ns })).status;
        return s?.readyReplicas === 2 && s.availableReplicas === 2 ? s : undefined;
      });
      const claims = (await kube.core.listNamespacedPersistentVolumeClaim({ namespace: ns })).items;
      expect(claims.map((c) => c.metadata?.name).sort()).toEqual(['data-db-0', 'data-db-1']);
      expect(claims.every((c) => c.status?.phase === 'Bound')).toBe(true);
    });

    test('a Job completes', async () => {
      const ns = testNs();
      // GIVEN a Job with 2 completions
      // WHEN it is created
      await createObjects(kube, [job(ns, 'db-sync', { completions: 2, backoffLimit: 0 })]);

      // THEN the job controller marks it Complete with 2 succeeded pods
      const status = await waitFor('Job db-sync Complete', async () => {
        const s = (await kube.batch.readNamespacedJob({ name: 'db-sync', namespace: ns })).status;
        return hasCondition(s?.conditions, 'Complete') ? s : undefined;
      });
      expect(status.succeeded).toBe(2);
      expect(status.failed ?? 0).toBe(0);
    });

    test('a Job whose pods fail ends Failed', async () => {
      const ns = testNs();
      // GIVEN a Job whose pods carry the failure annotation (kwok stage stackwright-pod-fail)
      // and no retries (each retry would wait out the job controller's 10 s back-off)
      const failing = job(ns, 'db-migrate', {
        completions: 1,
        backoffLimit: 0,
        annotations: { [FAIL_ANNOTATION]: 'true' },
      });

      // WHEN it is created
      await createObjects(kube, [failing]);

      // THEN the job controller counts the failed pod and marks the Job Failed (BackoffLimitExceeded)
      const status = await waitFor('Job db-migrate Failed', async () => {
        const s = (await kube.batch.readNamespacedJob({ name: 'db-migrate', namespace: ns })).status;
        return hasCondition(s?.conditions, 'Failed') ? s : undefined;
      });
      expect(status.conditions?.find((c) => c.type === 'Failed')?.reason).toBe('BackoffLimitExceeded');
      expect(status.failed).toBe(1);
      expect(status.succeeded ?? 0).toBe(0);
      expect(hasCondition(status.conditions, 'Complete')).toBe(false);
    });

    test('a pod with a readiness delay runs first and turns Ready only after the delay', async () => {
      const ns = testNs();
      // GIVEN a Deployment whose pods ask kwok for a 4 s readiness delay
      await createObjects(kube, [
        deployment(ns, 'slow', 1, yaookPlacement(API_KEY), { [READY_DELAY_ANNOTATION]: '4s' }),
      ]);

      // WHEN the pod starts
      const running = await waitFor('pod Running', async () => {
        const [pod] = await listPods(kube, ns, 'app=slow');
        return pod?.status?.phase === 'Running' ? pod : undefined;
      });

      // THEN it is Running but not Ready, and becomes Ready about 4 s after it started
      expect(podCondition(running, 'Ready')?.status).toBe('False');
      const ready = await waitFor('pod Ready', async () => {
        const [pod] = await listPods(kube, ns, 'app=slow');
        return pod && podCondition(pod, 'Ready')?.status === 'True' ? pod : undefined;
      });
      const startedAt = millis(running.status?.startTime);
      const readyAt = millis(podCondition(ready, 'Ready')?.lastTransitionTime);
      expect(readyAt - startedAt).toBeGreaterThanOrEqual(3_000);
    });
  });
});
