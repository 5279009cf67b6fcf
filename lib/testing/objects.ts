import { Annotations, decodeDependsOn, Edge, KubeObject } from '../graph';

/**
 * The object of `kind` named `name`, or else the only object of `kind` owned by the component
 * `name` (a Job is named `<component>-<release>-<hash>`, so tests find it by its component);
 * throws listing what exists when it is missing.
 */
export function findObject(objects: readonly KubeObject[], kind: string, name: string): KubeObject {
  const ofKind = objects.filter((o) => o.kind === kind);
  const owned = ofKind.filter((o) => o.metadata.annotations?.[Annotations.COMPONENT] === name);
  const found = ofKind.find((o) => o.metadata.name === name) ?? (owned.length === 1 ? owned[0] : undefined);
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

/** The pod spec of a workload (Deployment, StatefulSet, DaemonSet, Job, CronJob's Job template) or a Pod. */
export function podSpecOf(object: KubeObject): Record<string, unknown> {
  type WithTemplate = { template?: { spec?: Record<string, unknown> } };
  const spec = object.spec as WithTemplate & { jobTemplate?: { spec?: WithTemplate } } & Record<
      string,
      unknown
    >;
  if (object.kind === 'Pod') return spec;
  const podSpec = (object.kind === 'CronJob' ? spec?.jobTemplate?.spec : spec)?.template?.spec;
  if (!podSpec) throw new Error(`${object.kind}/${object.metadata.name} has no pod template`);
  return podSpec;
}
