import {
  Annotations,
  ComponentGraph,
  EdgeKind,
  encodeDependsOn,
  graphFromManifests,
  KubeObject,
} from '../../../lib/graph';
import { RunEvent } from '../../../lib/runtime/events';

/**
 * Hand-written manifests carrying the graph annotations, the way synthesis emits them. Engine
 * behaviour in the in-memory cluster is steered with `sim.stackwright.io/*` annotations.
 */

export const NS = 'openstack';

export interface ComponentSpec {
  readonly needs?: Readonly<Record<string, EdgeKind>>;
  readonly service?: string;
}

/** Annotates `objects` as the objects of component `name`. */
export function component(name: string, spec: ComponentSpec, ...objects: KubeObject[]): KubeObject[] {
  const dependsOn = encodeDependsOn(Object.entries(spec.needs ?? {}).map(([to, kind]) => ({ to, kind })));
  return objects.map((o) => ({
    ...o,
    metadata: {
      ...o.metadata,
      annotations: {
        ...(o.metadata.annotations ?? {}),
        [Annotations.CLOUD]: 'test',
        [Annotations.COMPONENT]: name,
        [Annotations.SERVICE]: spec.service ?? name.split('-')[0],
        [Annotations.CONSTRUCT_PATH]: `test/${name}`,
        ...(dependsOn ? { [Annotations.DEPENDS_ON]: dependsOn } : {}),
      },
    },
  }));
}

/** The component graph of groups of objects (each from `component(...)`), through the manifest contract. */
export function testGraph(...groups: KubeObject[][]): ComponentGraph {
  return graphFromManifests(groups.flat());
}

export function deployment(name: string, annotations: Record<string, string> = {}, replicas = 1): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS, annotations },
    spec: {
      replicas,
      progressDeadlineSeconds: 600,
      selector: { matchLabels: { 'app.kubernetes.io/name': name } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': name } },
        spec: { containers: [{ name: 'main', image: `registry.example.com/${name}:1.0` }] },
      },
    },
  };
}

export function statefulSet(
  name: string,
  annotations: Record<string, string> = {},
  replicas = 1,
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: NS, annotations },
    spec: {
      replicas,
      serviceName: name,
      selector: { matchLabels: { 'app.kubernetes.io/name': name } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': name } },
        spec: { containers: [{ name: 'main', image: `${name}:1` }] },
      },
    },
  };
}

export function daemonSet(name: string, annotations: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: NS, annotations },
    spec: {
      selector: { matchLabels: { 'app.kubernetes.io/name': name } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': name } },
        spec: { containers: [{ name: 'main', image: `${name}:1` }] },
      },
    },
  };
}

export function job(
  name: string,
  annotations: Record<string, string> = {},
  extraSpec: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: NS, annotations },
    spec: {
      backoffLimit: 2,
      ...extraSpec,
      template: {
        metadata: { labels: { 'job-name': name } },
        spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: `${name}:1` }] },
      },
    },
  };
}

export function configMap(name: string, data: Record<string, string> = { key: 'value' }): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS }, data };
}

export function service(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: NS },
    spec: { selector: { 'app.kubernetes.io/name': name }, ports: [{ port: 80, targetPort: 8080 }] },
  };
}

export function namespace(name = NS): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

export function crd(plural: string, group = 'example.stackwright.io', kind = 'Widget'): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { plural, kind },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true }],
    },
  };
}

/** Collects events; `index` finds the position of the first matching event (-1 when absent). */
export class EventRecorder {
  readonly events: RunEvent[] = [];
  readonly onEvent = (event: RunEvent): void => {
    this.events.push(event);
  };

  of<T extends RunEvent['type']>(type: T): Extract<RunEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
  }

  index(type: RunEvent['type'], component?: string): number {
    return this.events.findIndex(
      (e) => e.type === type && (component === undefined || ('unit' in e && e.unit === component)),
    );
  }

  /** Highest number of components running at the same time, replayed from the events. */
  maxRunning(): number {
    let running = 0;
    let max = 0;
    for (const e of this.events) {
      if (e.type === 'unit-started') running += 1;
      if (e.type === 'unit-done' || e.type === 'unit-failed') running -= 1;
      max = Math.max(max, running);
    }
    return max;
  }
}

/** mariadb <- keystone-api as cloud `cloud`, in a namespace of the same name. */
export function twoComponentCloud(cloud: string): KubeObject[] {
  return [
    namespace(),
    ...component('mariadb', {}, deployment('mariadb')),
    ...component('keystone-api', { needs: { mariadb: 'ready' } }, deployment('keystone-api')),
  ].map((o) => ({
    ...o,
    metadata: {
      ...o.metadata,
      ...(o.kind === 'Namespace' ? { name: cloud } : { namespace: cloud }),
      annotations: { ...o.metadata.annotations, [Annotations.CLOUD]: cloud },
    },
  }));
}
