import { App } from 'cdk8s';
import { Annotations, ComponentGraph, graphFromManifests, KubeObject } from '../../lib/graph';
import { referenceCloud } from '../../stacks/reference-cloud';

/** A Deployment of `component` in `service` with the given `depends-on` annotation value. */
export function workload(service: string, component: string, dependsOn = ''): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: component,
      namespace: 'openstack',
      annotations: {
        [Annotations.CLOUD]: 'prod',
        [Annotations.SERVICE]: service,
        [Annotations.COMPONENT]: component,
        ...(dependsOn ? { [Annotations.DEPENDS_ON]: dependsOn } : {}),
      },
    },
  };
}

/** A ConfigMap of `component`, a kind kapp applies first whatever its annotations. */
export function config(service: string, component: string, dependsOn = ''): KubeObject {
  const base = workload(service, component, dependsOn);
  return {
    ...base,
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { ...base.metadata, name: `${component}-config` },
  };
}

export const NAMESPACE: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'openstack' } };

/**
 * A small cloud with every case the exporters map: a whole service (cache), a service split
 * because its components gate each other (keystone: api after db-sync), a same-node edge and a
 * runtime edge that must not gate.
 */
export function smallCloud(): ComponentGraph {
  return graphFromManifests([
    NAMESPACE,
    workload('db', 'db'),
    workload('cache', 'cache-a'),
    workload('cache', 'cache-b'),
    workload('keystone', 'keystone-db-sync', 'db:ready'),
    config('keystone', 'keystone-api', 'cache-a:ready,keystone-db-sync:completed'),
    workload('keystone', 'keystone-api', 'cache-a:ready,keystone-db-sync:completed'),
    workload('agent', 'agent', 'keystone-api:runtime'),
    workload('compute', 'compute', 'agent:same-node,keystone-api:ready'),
  ]);
}

/** The reference cloud's graph, as `npx cdk8s synth` writes it. */
export function referenceGraph(): ComponentGraph {
  return graphFromManifests(referenceCloud(new App(), 'reference').toJson() as KubeObject[]);
}
