import { diagnosePod } from '../../../lib/runtime/diagnose';
import {
  freshCluster,
  HYPERVISOR,
  OVN_MAINTENANCE,
  pendingPod,
  runningPod,
  yaookScheduling,
} from './fixtures';

describe('diagnosePod', () => {
  test('an unschedulable pod: which scheduling label no node carries and the kubectl label that fixes it', () => {
    // GIVEN
    const pod = pendingPod(
      'nova-compute-x7k2p',
      'nova-compute',
      yaookScheduling([HYPERVISOR], true),
      "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match Pod's node affinity/selector.",
    );

    // WHEN
    const messages = diagnosePod(pod, freshCluster());

    // THEN
    expect(messages).toEqual([
      `pod nova-compute-x7k2p is unschedulable: no node carries the scheduling label ${HYPERVISOR} (and none has ${OVN_MAINTENANCE}=not-required); ` +
        `fix: kubectl label node <a-suitable-node> ${HYPERVISOR}=true ${OVN_MAINTENANCE}=not-required; nodes whose taints it tolerates: worker-1, worker-2`,
    ]);
  });

  test('an unschedulable pod without the node list falls back to the scheduler message', () => {
    // GIVEN
    const pod = pendingPod(
      'keystone-api-0',
      'keystone-api',
      {},
      '0/3 nodes are available: 3 Insufficient memory.',
    );

    // THEN
    expect(diagnosePod(pod)).toEqual([
      'pod keystone-api-0 is unschedulable (scheduler: 0/3 nodes are available: 3 Insufficient memory.)',
    ]);
  });

  test('an unschedulable pod whose placement fits (resources, ports): the scheduler message', () => {
    // GIVEN: placement is fine, the scheduler says memory.
    const pod = pendingPod(
      'keystone-api-0',
      'keystone-api',
      {},
      '0/3 nodes are available: 3 Insufficient memory.',
    );

    // THEN
    expect(diagnosePod(pod, freshCluster())).toEqual([
      'pod keystone-api-0 is unschedulable (scheduler: 0/3 nodes are available: 3 Insufficient memory.)',
    ]);
  });

  test('image pull back-off names the image and what to check', () => {
    // GIVEN
    const pod = runningPod(
      'glance-api-6d5f-abcde',
      'glance-api',
      {
        state: {
          waiting: {
            reason: 'ImagePullBackOff',
            message:
              'Back-off pulling image "registry.yaook.cloud/yaook/glance-api:2024.1": ErrImagePull: failed to pull and unpack image: not found',
          },
        },
      },
      'Pending',
    );

    // WHEN
    const messages = diagnosePod(pod);

    // THEN
    expect(messages).toEqual([
      'pod glance-api-6d5f-abcde: container glance-api cannot pull image registry.yaook.cloud/yaook/glance-api:2024.1 (ImagePullBackOff): Back-off pulling image "registry.yaook.cloud/yaook/glance-api:2024.1": ErrImagePull: failed to pull and unpack image: not found; check the image name and tag, the registry\'s reachability and the pull secret',
    ]);
  });

  test('ErrImagePull is reported the same way', () => {
    const pod = runningPod('p', 'neutron-api', { state: { waiting: { reason: 'ErrImagePull' } } }, 'Pending');
    expect(diagnosePod(pod)[0]).toMatch(
      /^pod p: container neutron-api cannot pull image registry.yaook.cloud\/yaook\/neutron-api:2024.1 \(ErrImagePull\); check/,
    );
  });

  test('crash loop with restart count, last exit code and the logs command', () => {
    // GIVEN
    const pod = runningPod('keystone-api-7c9d-q2w3e', 'keystone-api', {
      restartCount: 12,
      lastState: {
        terminated: {
          exitCode: 1,
          reason: 'Error',
          message: 'oslo_config.cfg.ConfigFileValueError: Value for option connection is not valid',
        },
      },
      state: {
        waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' },
      },
    });

    // WHEN
    const messages = diagnosePod(pod);

    // THEN
    expect(messages).toEqual([
      'pod keystone-api-7c9d-q2w3e: container keystone-api is crash-looping (12 restarts; last exit code 1 (Error)): oslo_config.cfg.ConfigFileValueError: Value for option connection is not valid; see kubectl logs -n openstack keystone-api-7c9d-q2w3e -c keystone-api --previous',
    ]);
  });

  test('running but not ready points at the readiness probe', () => {
    const pod = runningPod('placement-api-0', 'placement-api', {
      restartCount: 0,
      state: { running: { startedAt: '2025-03-04T10:00:00Z' } },
    });
    expect(diagnosePod(pod)).toEqual([
      'pod placement-api-0: container placement-api is running but not ready (readiness probe failing?)',
    ]);
  });

  test('a healthy or completed pod has nothing to say', () => {
    const ready = runningPod('ok', 'ok', { ready: true, state: { running: {} } });
    const done = runningPod('done', 'done', { state: { terminated: { exitCode: 0 } } }, 'Succeeded');
    expect(
      diagnosePod({
        ...ready,
        status: {
          ...(ready.status as object),
          containerStatuses: [{ name: 'ok', ready: true, state: { running: {} } }],
        },
      }),
    ).toEqual([]);
    expect(diagnosePod(done)).toEqual([]);
  });
});
