import { Testing } from 'cdk8s';
import { Annotations, ComponentGraph, graphFromManifests, KubeObject } from '../graph';
import type { Cloud } from '../model';

/** Each cloud synthesised once per test file, however many parts a test looks at. */
const synthesised = new WeakMap<Cloud, KubeObject[]>();

/**
 * Synthesises a cloud (validating the whole tree, as `cdk8s synth` does) to its plain objects, in
 * output order. Repeated calls for the same cloud return the same objects.
 */
export function synthObjects(cloud: Cloud): KubeObject[] {
  let objects = synthesised.get(cloud);
  if (!objects) {
    objects = Testing.synth(cloud) as KubeObject[];
    synthesised.set(cloud, objects);
  }
  return objects;
}

/**
 * The objects of one component (e.g. `keystone-api`), in output order. The whole cloud is
 * synthesised and validated; only the component's part is returned, small enough to snapshot.
 * Throws listing the cloud's components when there is none of that name.
 *
 * @example
 * const objects = synthComponent(cloud, 'keystone-api');
 * expect(summarise(objects)).toMatchSnapshot();
 */
export function synthComponent(cloud: Cloud, component: string): KubeObject[] {
  return part(cloud, Annotations.COMPONENT, component, 'component');
}

/** The objects of one service (e.g. `keystone`: its API, Jobs, Secrets, …), in output order. */
export function synthService(cloud: Cloud, service: string): KubeObject[] {
  return part(cloud, Annotations.SERVICE, service, 'service');
}

function part(cloud: Cloud, annotation: string, value: string, what: string): KubeObject[] {
  const objects = synthObjects(cloud);
  const found = objects.filter((o) => o.metadata.annotations?.[annotation] === value);
  if (found.length === 0) {
    const names = [...new Set(objects.map((o) => o.metadata.annotations?.[annotation]).filter(Boolean))];
    throw new Error(
      `[${cloud.node.path}] no ${what} named "${value}"; its ${what}s: ${names.sort().join(', ')}`,
    );
  }
  return found;
}

/** The component graph of a cloud, rebuilt from its synthesised manifests as any deploy tool would. */
export function synthGraph(cloud: Cloud): ComponentGraph {
  return graphFromManifests(synthObjects(cloud));
}
