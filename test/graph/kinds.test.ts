import { isClusterScoped, kindFacts, sortByKindRank } from '../../lib/graph';

const type = (apiVersion: string, kind: string) => ({ apiVersion, kind });

describe('the kinds table', () => {
  test('keys by group/Kind: a custom Service is a custom resource, not the core Service', () => {
    expect(kindFacts(type('v1', 'Service')).rank).toBeLessThan(50);
    expect(kindFacts(type('serving.knative.dev/v1', 'Service'))).toEqual({ scope: 'Namespaced', rank: 50 });
    expect(kindFacts(type('example.com/v1', 'Deployment')).role).toBeUndefined();
  });

  test('knows which kinds live outside namespaces, whatever their version', () => {
    expect(isClusterScoped(type('rbac.authorization.k8s.io/v1', 'ClusterRole'))).toBe(true);
    expect(isClusterScoped(type('scheduling.k8s.io/v1', 'PriorityClass'))).toBe(true);
    expect(isClusterScoped(type('apiextensions.k8s.io/v1beta1', 'CustomResourceDefinition'))).toBe(true);
    expect(isClusterScoped(type('rbac.authorization.k8s.io/v1', 'Role'))).toBe(false);
    expect(isClusterScoped(type('v1', 'ConfigMap'))).toBe(false);
  });

  test('orders what others refer to first and webhooks last, stable within a rank', () => {
    const objects = [
      type('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration'),
      type('apps/v1', 'Deployment'),
      type('example.com/v1', 'Widget'),
      type('v1', 'ConfigMap'),
      type('rbac.authorization.k8s.io/v1', 'RoleBinding'),
      type('apiextensions.k8s.io/v1', 'CustomResourceDefinition'),
      type('v1', 'Namespace'),
      type('apps/v1', 'DaemonSet'),
      type('apps/v1', 'ReplicaSet'),
    ];
    expect(sortByKindRank(objects).map((o) => o.kind)).toEqual([
      'Namespace',
      'CustomResourceDefinition',
      'RoleBinding',
      'ConfigMap',
      'Deployment',
      'DaemonSet',
      'ReplicaSet',
      'Widget',
      'ValidatingWebhookConfiguration',
    ]);
  });

  test('roles: definitions go first, pods need their prerequisites, workloads say how their pods are found', () => {
    expect(kindFacts(type('v1', 'Namespace')).role).toBe('definition');
    expect(kindFacts(type('v1', 'Secret')).role).toBe('pod-prerequisite');
    expect(kindFacts(type('apps/v1', 'StatefulSet'))).toMatchObject({ role: 'workload', pods: 'selector' });
    expect(kindFacts(type('batch/v1', 'CronJob'))).toMatchObject({ role: 'workload', pods: 'via-jobs' });
    expect(kindFacts(type('v1', 'Pod'))).toMatchObject({ role: 'workload', pods: 'itself' });
    expect(kindFacts(type('apiregistration.k8s.io/v1', 'APIService')).role).toBe('late');
  });
});
