import { Annotations, KubeObject } from '../../../lib/graph';

interface FixtureOptions {
  readonly component?: string;
  /** `depends-on` annotation value, e.g. `db:ready,memcached:ready`. */
  readonly dependsOn?: string;
  /** Omit for cluster-scoped objects. */
  readonly namespace?: string;
  readonly body?: Record<string, unknown>;
}

/** A hand-written synthesised object: the shape `Cloud.toJson()` produces, annotations included. */
export function fixtureObject(
  apiVersion: string,
  kind: string,
  name: string,
  options: FixtureOptions = {},
): KubeObject {
  const annotations: Record<string, string> = { [Annotations.CLOUD]: 'fixture' };
  if (options.component) {
    annotations[Annotations.COMPONENT] = options.component;
    annotations[Annotations.SERVICE] = options.component.split('-')[0];
    annotations[Annotations.CONSTRUCT_PATH] = `fixture/${options.component}`;
    if (options.dependsOn) annotations[Annotations.DEPENDS_ON] = options.dependsOn;
  }
  return {
    apiVersion,
    kind,
    metadata: { name, ...(options.namespace ? { namespace: options.namespace } : {}), annotations },
    ...options.body,
  };
}

const ns = 'openstack';
const workload = {
  spec: { template: { spec: { containers: [{ name: 'main', image: 'example/image:1' }] } } },
};

/**
 * A small cloud exercising every rule of the dependency plan: bootstrap objects (namespace,
 * cluster-scoped RBAC, a namespaced Secret, a CRD), every edge kind (ready, completed, same-node,
 * runtime), workloads with prerequisites in their own component, and a custom resource.
 */
export function fixtureManifests(): KubeObject[] {
  return [
    fixtureObject('v1', 'Namespace', ns),
    fixtureObject('rbac.authorization.k8s.io/v1', 'ClusterRole', 'stackwright-reader'),
    fixtureObject('v1', 'Secret', 'registry-pull', {
      namespace: ns,
      body: { type: 'kubernetes.io/dockerconfigjson' },
    }),
    fixtureObject('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'backups.example.org', {
      body: {
        spec: { group: 'example.org', names: { kind: 'Backup', plural: 'backups' }, scope: 'Namespaced' },
      },
    }),
    fixtureObject('batch/v1', 'Job', 'db-credentials', {
      component: 'db-credentials',
      namespace: ns,
      body: workload,
    }),
    fixtureObject('v1', 'ConfigMap', 'db-config', {
      component: 'db',
      namespace: ns,
      dependsOn: 'db-credentials:completed',
    }),
    fixtureObject('v1', 'Service', 'db', {
      component: 'db',
      namespace: ns,
      dependsOn: 'db-credentials:completed',
    }),
    fixtureObject('apps/v1', 'StatefulSet', 'db', {
      component: 'db',
      namespace: ns,
      dependsOn: 'db-credentials:completed',
      body: workload,
    }),
    fixtureObject('example.org/v1', 'Backup', 'db-nightly', {
      component: 'db-backup',
      namespace: ns,
      dependsOn: 'db:ready',
    }),
    fixtureObject('v1', 'Service', 'memcached', { component: 'memcached', namespace: ns }),
    fixtureObject('apps/v1', 'StatefulSet', 'memcached', {
      component: 'memcached',
      namespace: ns,
      body: workload,
    }),
    fixtureObject('apps/v1', 'StatefulSet', 'rabbitmq', {
      component: 'rabbitmq',
      namespace: ns,
      body: workload,
    }),
    fixtureObject('batch/v1', 'Job', 'keystone-db-sync', {
      component: 'keystone-db-sync',
      namespace: ns,
      dependsOn: 'db:ready',
      body: workload,
    }),
    ...['ConfigMap', 'Secret', 'ServiceAccount', 'Deployment', 'Service', 'PodDisruptionBudget'].map((kind) =>
      fixtureObject(
        kind === 'Deployment' ? 'apps/v1' : kind === 'PodDisruptionBudget' ? 'policy/v1' : 'v1',
        kind,
        'keystone-api',
        {
          component: 'keystone-api',
          namespace: ns,
          dependsOn: 'db:ready,keystone-db-sync:completed,memcached:ready,rabbitmq:runtime',
          body:
            kind === 'Deployment'
              ? workload
              : kind === 'Secret'
                ? { stringData: { 'keystone.conf': '[DEFAULT]\n' } }
                : {},
        },
      ),
    ),
    fixtureObject('apps/v1', 'DaemonSet', 'ovn-controller', {
      component: 'ovn-controller',
      namespace: ns,
      body: workload,
    }),
    fixtureObject('apps/v1', 'DaemonSet', 'nova-compute', {
      component: 'nova-compute',
      namespace: ns,
      dependsOn: 'keystone-api:runtime,ovn-controller:same-node',
      body: workload,
    }),
  ];
}
