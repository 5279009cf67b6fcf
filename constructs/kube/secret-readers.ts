import { k8s } from 'cdk8s-plus-33';
import { ApiObject } from 'cdk8s';
import { Cloud, JsonApiObject, SynthesisPlan } from '../../lib/model';

/** The names of the Secrets a pod reads (env, envFrom, volumes), sorted. */
export function secretsReadBy(pod: k8s.PodTemplateSpec): string[] {
  const names = new Set<string>();
  const spec = pod.spec;
  for (const container of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])]) {
    for (const env of container.env ?? []) {
      const name = env.valueFrom?.secretKeyRef?.name;
      if (name) names.add(name);
    }
    for (const from of container.envFrom ?? []) if (from.secretRef?.name) names.add(from.secretRef.name);
  }
  for (const volume of spec?.volumes ?? []) {
    if (volume.secret?.secretName) names.add(volume.secret.secretName);
    for (const source of volume.projected?.sources ?? [])
      if (source.secret?.name) names.add(source.secret.name);
  }
  return [...names].sort();
}

/** The kinds of workload whose pods a restart replaces: each keeps its pods running. */
export const RESTARTABLE_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet'] as const;
export type RestartableKind = (typeof RESTARTABLE_KINDS)[number];

/** A workload of the cloud, as a restart names it. */
export interface WorkloadRef {
  readonly kind: RestartableKind;
  readonly namespace: string;
  readonly name: string;
  /** How long its pods may take to stop once told to (their preStop delay included). */
  readonly terminationGracePeriodSeconds: number;
}

/** Kubernetes' default `terminationGracePeriodSeconds`. */
const DEFAULT_TERMINATION_GRACE_SECONDS = 30;

/**
 * The Deployments, StatefulSets and DaemonSets of the cloud's enabled components whose pods read
 * Secret `secretName`, in either of the cloud's namespaces (the agents' read a copy of the same
 * name, see `copySecretsForNodeAgent`), sorted by namespace, kind and name. Read from the objects as
 * they were built, so call it when the cloud is synthesised (from a `Lazy`), when every
 * component exists. Every Secret's readers are found in one pass per synthesis plan: a cloud's
 * rotations ask for them dozens of times while it renders.
 */
export function workloadsReading(cloud: Cloud, secretName: string): WorkloadRef[] {
  const plan = cloud.plan();
  let readers = readersByPlan.get(plan);
  if (readers === undefined) {
    readers = workloadsBySecret(cloud, plan);
    readersByPlan.set(plan, readers);
  }
  return [...(readers.get(secretName) ?? [])];
}

/** Each synthesis plan's index of the workloads reading each Secret (dropped with the plan). */
const readersByPlan = new WeakMap<SynthesisPlan, ReadonlyMap<string, readonly WorkloadRef[]>>();

function workloadsBySecret(cloud: Cloud, plan: SynthesisPlan): Map<string, WorkloadRef[]> {
  const readers = new Map<string, WorkloadRef[]>();
  for (const component of plan.enabled) {
    for (const object of component.apiObjects) {
      const manifest = asBuilt(object);
      if (!RESTARTABLE_KINDS.includes(manifest.kind as RestartableKind)) continue;
      const pod = manifest.spec?.template;
      if (pod === undefined) continue;
      const workload: WorkloadRef = {
        kind: manifest.kind as RestartableKind,
        namespace: cloud.namespaceOf(component),
        name: manifest.metadata?.name ?? object.name,
        terminationGracePeriodSeconds:
          pod.spec?.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_SECONDS,
      };
      for (const secret of secretsReadBy(pod)) {
        const workloads = readers.get(secret) ?? [];
        workloads.push(workload);
        readers.set(secret, workloads);
      }
    }
  }
  const key = (w: WorkloadRef) => `${w.namespace}/${w.kind}/${w.name}`;
  for (const workloads of readers.values()) workloads.sort((a, b) => key(a).localeCompare(key(b)));
  return readers;
}

interface BuiltWorkload {
  readonly kind?: string;
  readonly metadata?: { readonly name?: string };
  readonly spec?: { readonly template?: k8s.PodTemplateSpec };
}

/** An object as built (a JsonApiObject's props, typed names), or rendered when it is not one. */
function asBuilt(object: ApiObject): BuiltWorkload {
  return (JsonApiObject.isJsonApiObject(object) ? object.manifest : object.toJson()) as BuiltWorkload;
}
