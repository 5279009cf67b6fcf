import { KubeObject } from '../../../lib/graph';
import { ApplyOutcome } from '../../../lib/runtime/ports';
import { isOwnWriteObserved, ownWritePending } from '../../../lib/runtime/readiness';

function deployment(generation: number | undefined, observedGeneration?: number, uid = 'uid-1'): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'keystone-api',
      namespace: 'openstack',
      uid,
      ...(generation !== undefined ? { generation } : {}),
    },
    spec: { replicas: 1 },
    ...(observedGeneration !== undefined ? { status: { observedGeneration } } : {}),
  };
}

function applied(live: KubeObject): ApplyOutcome {
  return { ref: 'Deployment/openstack/keystone-api', action: 'configured', live };
}

describe('isOwnWriteObserved', () => {
  test('true once the live object shows our generation and its controller observed it', () => {
    expect(isOwnWriteObserved(applied(deployment(2)), deployment(2, 2))).toBe(true);
    expect(isOwnWriteObserved(applied(deployment(2)), deployment(3, 3))).toBe(true);
  });

  test('false while the live object is an older generation (a cached pre-apply object)', () => {
    expect(isOwnWriteObserved(applied(deployment(2)), deployment(1, 1))).toBe(false);
    expect(ownWritePending(applied(deployment(2)), deployment(1, 1))?.message).toBe(
      'waiting to observe our write (generation 2, seen 1)',
    );
  });

  test('false while the controller has not caught up with our generation', () => {
    expect(isOwnWriteObserved(applied(deployment(2)), deployment(2, 1))).toBe(false);
    expect(ownWritePending(applied(deployment(2)), deployment(2, 1))?.message).toBe(
      'waiting for the controller to observe generation 2 (observed 1)',
    );
  });

  test('leaves kinds without observedGeneration to their own rule', () => {
    // A Job reports no observedGeneration; its rule waits for Complete.
    expect(isOwnWriteObserved(applied(deployment(1)), deployment(1))).toBe(true);
  });

  test('kinds without generation (ConfigMap) are observed as soon as seen', () => {
    const cm: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'openstack', uid: 'u' },
      data: {},
    };
    expect(isOwnWriteObserved({ ref: 'ConfigMap/openstack/c', action: 'created', live: cm }, cm)).toBe(true);
  });

  test('false for another incarnation of the object (deleted and recreated)', () => {
    expect(isOwnWriteObserved(applied(deployment(1, undefined, 'ours')), deployment(5, 5, 'theirs'))).toBe(
      false,
    );
  });
});
