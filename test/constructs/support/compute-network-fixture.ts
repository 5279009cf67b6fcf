import { App } from 'cdk8s';
import { MariaDB, Memcached, RabbitMQ } from '../../../constructs/infra';
import { Keystone } from '../../../constructs/openstack/keystone';
import { KubeObject } from '../../../lib/graph';
import { Cloud } from '../../../lib/model';
import { podSpecOf } from '../../../lib/testing';

/** The infrastructure and Keystone the compute and network services need, in a cloud `prod` (namespace `openstack`). */
export interface BaseCloud {
  readonly app: App;
  readonly cloud: Cloud;
  readonly database: MariaDB;
  readonly messaging: RabbitMQ;
  readonly cache: Memcached;
  readonly keystone: Keystone;
}

export function baseCloud(): BaseCloud {
  const app = new App();
  const cloud = new Cloud(app, 'prod', { namespace: 'openstack' });
  const database = new MariaDB(cloud, 'db');
  const messaging = new RabbitMQ(cloud, 'mq');
  const cache = new Memcached(cloud, 'cache');
  const keystone = new Keystone(cloud, 'keystone', { database, cache, messaging });
  return { app, cloud, database, messaging, cache, keystone };
}

/** The objects of one service (by the `stackwright.io/service` annotation), for snapshots. */
export function objectsOfService(objects: readonly KubeObject[], service: string): KubeObject[] {
  return objects.filter((o) => o.metadata.annotations?.['stackwright.io/service'] === service);
}

export interface Requirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

/** A workload's required node affinity terms, as written in the pod spec. */
export function termsOf(object: KubeObject): Requirement[][] {
  const spec = podSpecOf(object) as {
    affinity?: {
      nodeAffinity?: {
        requiredDuringSchedulingIgnoredDuringExecution?: {
          nodeSelectorTerms: { matchExpressions: Requirement[] }[];
        };
      };
    };
  };
  return (
    spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []
  ).map((t) => t.matchExpressions);
}

/** The tolerations of a workload's pods as `key:operator:effect`, in order. */
export function tolerationsOf(object: KubeObject): string[] {
  const spec = podSpecOf(object) as { tolerations?: { key: string; effect: string; operator: string }[] };
  return (spec.tolerations ?? []).map((t) => `${t.key}:${t.operator}:${t.effect}`);
}

/** What a placement on `keys` synthesises to: one term per key, `Exists`, each ANDed with `narrowing`. */
export function keyTerms(keys: readonly string[], narrowing: readonly Requirement[] = []): Requirement[][] {
  return keys.map((key) => [{ key, operator: 'Exists' }, ...narrowing]);
}

/** NoSchedule and NoExecute tolerations for each key, in the order the SDK writes them. */
export function keyTolerations(keys: readonly string[]): string[] {
  return keys.flatMap((key) => [`${key}:Exists:NoSchedule`, `${key}:Exists:NoExecute`]);
}

/** One file of a ConfigMap. */
export function fileOf(objects: readonly KubeObject[], configMap: string, file: string): string {
  const found = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === configMap);
  const text = (found?.data as Record<string, string> | undefined)?.[file];
  if (text === undefined) throw new Error(`no file ${file} in ConfigMap ${configMap}`);
  return text;
}

/** The environment of a workload's container (the first, or the one named), by variable name. */
export function envOf(object: KubeObject, container?: string): Record<string, unknown> {
  const containers = podSpecOf(object).containers as {
    name: string;
    env?: { name: string; value?: string; valueFrom?: unknown }[];
  }[];
  const chosen = container === undefined ? containers[0] : containers.find((c) => c.name === container);
  if (!chosen) throw new Error(`no container ${container} in ${object.kind}/${object.metadata.name}`);
  return Object.fromEntries((chosen.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));
}

/** The message of the error `run` throws (construction or synthesis), or '' when it does not throw. */
export function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return '';
}
