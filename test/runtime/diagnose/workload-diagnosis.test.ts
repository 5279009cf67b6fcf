import { KubeObject } from '../../../lib/graph';
import {
  diagnoseDaemonSet,
  diagnoseJob,
  diagnoseWorkload,
  podSelectorOf,
} from '../../../lib/runtime/diagnose';
import { freshCluster, HYPERVISOR, pendingPod, runningPod, yaookScheduling } from './fixtures';

function failedJob(): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'keystone-db-sync', namespace: 'openstack' },
    spec: {
      backoffLimit: 3,
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': '3c1d' } },
      template: {
        metadata: { labels: { 'job-name': 'keystone-db-sync' } },
        spec: { containers: [{ name: 'db-sync', image: 'keystone' }] },
      },
    },
    status: {
      startTime: '2025-03-04T10:00:00Z',
      failed: 4,
      conditions: [
        {
          type: 'Failed',
          status: 'True',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        },
      ],
    },
  };
}

function daemonSet(podSpec: Record<string, unknown>, desired: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'nova-compute', namespace: 'openstack' },
    spec: {
      selector: { matchLabels: { 'app.kubernetes.io/name': 'nova-compute' } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': 'nova-compute' } },
        spec: { ...podSpec, containers: [{ name: 'c', image: 'nova' }] },
      },
    },
    status: {
      observedGeneration: 1,
      desiredNumberScheduled: desired,
      currentNumberScheduled: desired,
      numberReady: 0,
    },
  };
}

describe('podSelectorOf', () => {
  test('matchLabels and matchExpressions become a label selector string', () => {
    const workload: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'x' },
      spec: {
        selector: {
          matchLabels: { 'app.kubernetes.io/name': 'keystone-api', 'app.kubernetes.io/instance': 'prod' },
          matchExpressions: [
            { key: 'tier', operator: 'In', values: ['api', 'web'] },
            { key: 'canary', operator: 'DoesNotExist' },
          ],
        },
      },
    };
    expect(podSelectorOf(workload)).toBe(
      'app.kubernetes.io/name=keystone-api,app.kubernetes.io/instance=prod,tier in (api,web),!canary',
    );
  });

  test('a Job manifest without a selector uses its template labels', () => {
    const job: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j' },
      spec: { template: { metadata: { labels: { 'job-name': 'j' } } } },
    };
    expect(podSelectorOf(job)).toBe('job-name=j');
  });
});

describe('diagnoseJob', () => {
  test('reason, message, failed pod count, and what the failed pods say', () => {
    // GIVEN
    const pod = runningPod(
      'keystone-db-sync-8x7vq',
      'keystone-db-sync',
      { restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error' } } },
      'Failed',
    );
    const failedPod: KubeObject = {
      ...pod,
      status: { ...(pod.status as object), reason: undefined, message: 'container db-sync exited with 1' },
    };

    // WHEN
    const messages = diagnoseJob(failedJob(), { pods: [failedPod], nodes: [] });

    // THEN
    expect(messages).toEqual([
      'Job keystone-db-sync failed: BackoffLimitExceeded: Job has reached the specified backoff limit; 4 failed pod(s) (backoffLimit 3)',
      'pod keystone-db-sync-8x7vq failed: container db-sync exited with 1',
    ]);
  });
});

describe('diagnoseDaemonSet', () => {
  test('desired 0 because of the forced-downscale nodeSelector', () => {
    // GIVEN
    const ds = daemonSet({ nodeSelector: { 'state.yaook.cloud/forced-downscale': 'true' } }, 0);

    // THEN
    expect(diagnoseDaemonSet(ds, { pods: [], nodes: freshCluster() })).toEqual([
      'DaemonSet nova-compute is downscaled to zero: its nodeSelector uses state.yaook.cloud/forced-downscale, which must never be on a node; remove it from the pod template to run the pods again',
    ]);
  });

  test('desired 0 because no node carries its scheduling label', () => {
    // GIVEN
    const ds = daemonSet(yaookScheduling([HYPERVISOR]), 0);

    // WHEN
    const messages = diagnoseDaemonSet(ds, { pods: [], nodes: freshCluster() });

    // THEN
    expect(messages).toEqual([
      `DaemonSet nova-compute runs on no node: no node carries the scheduling label ${HYPERVISOR}; fix: kubectl label node <a-suitable-node> ${HYPERVISOR}=true; nodes whose taints it tolerates: worker-1, worker-2`,
    ]);
  });
});

describe('diagnoseWorkload', () => {
  test('groups pods stuck for the same reason', () => {
    // GIVEN: three replicas that cannot pull the same image
    const pods = ['a1b2c', 'd3e4f', 'g5h6i'].map((suffix) =>
      runningPod(
        `glance-api-6d5f-${suffix}`,
        'glance-api',
        { state: { waiting: { reason: 'ImagePullBackOff' } } },
        'Pending',
      ),
    );
    const deployment: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'glance-api', namespace: 'openstack' },
      spec: {},
    };

    // WHEN
    const messages = diagnoseWorkload(deployment, { pods, nodes: [] });

    // THEN
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(
      /^pod glance-api-6d5f-a1b2c: container glance-api cannot pull image .* \(and 2 more pod\(s\) alike\)$/,
    );
  });

  test('a Deployment past its progress deadline says so first', () => {
    // GIVEN
    const deployment: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'nova-api', namespace: 'openstack' },
      spec: {},
      status: {
        conditions: [
          {
            type: 'Progressing',
            status: 'False',
            reason: 'ProgressDeadlineExceeded',
            message: 'ReplicaSet "nova-api-64b7" has timed out progressing.',
          },
        ],
      },
    };
    const pod = pendingPod(
      'nova-api-64b7-zz',
      'nova-api',
      yaookScheduling(['compute.yaook.cloud/api', 'any.yaook.cloud/api']),
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.",
    );

    // WHEN
    const messages = diagnoseWorkload(deployment, { pods: [pod], nodes: freshCluster() });

    // THEN
    expect(messages[0]).toBe(
      'Deployment nova-api: progress deadline exceeded: ReplicaSet "nova-api-64b7" has timed out progressing.',
    );
    expect(messages[1]).toMatch(
      /^pod nova-api-64b7-zz is unschedulable: no node carries any of the scheduling labels compute.yaook.cloud\/api, any.yaook.cloud\/api;/,
    );
  });
});
