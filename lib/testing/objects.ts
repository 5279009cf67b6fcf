import { Annotations, decodeDependsOn, Edge, KubeObject } from '../graph';

/** The object of `kind` named `name`; throws listing what exists when it is missing. */
export function findObject(objects: readonly KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) {
    const names = objects.filter((o) => o.kind === kind).map((o) => o.metadata.name);
    throw new Error(`no ${kind} named ${name}; ${kind} objects: ${names.join(', ') || 'none'}`);
  }
  return found;
}

/** The edges of the component owning `object`, decoded from its annotations. */
export function edgesOf(object: KubeObject): Edge[] {
  const name = object.metadata.annotations?.[Annotations.COMPONENT] ?? object.metadata.name;
  return decodeDependsOn(name, object.metadata.annotations?.[Annotations.DEPENDS_ON]);
}

/** The pod spec of a workload (Deployment, StatefulSet, DaemonSet, Job) or a Pod. */
export function podSpecOf(object: KubeObject): Record<string, unknown> {
  const spec = object.spec as { template?: { spec?: Record<string, unknown> } } & Record<string, unknown>;
  if (object.kind === 'Pod') return spec;
  const podSpec = spec?.template?.spec;
  if (!podSpec) throw new Error(`${object.kind}/${object.metadata.name} has no pod template`);
  return podSpec;
}
