import { App } from 'cdk8s';
import { MariaDB, Memcached, RabbitMQ } from '../../../constructs/infra';
import { Keystone } from '../../../constructs/openstack/keystone';
import { Cloud } from '../../../lib/model';
import { KubeObject } from '../../../lib/graph';
import { podSpecOf } from '../../../lib/testing';

/** A cloud `prod` (namespace `openstack`) with the infrastructure and Keystone most services need. */
export function controlPlane(): {
  app: App;
  cloud: Cloud;
  database: MariaDB;
  messaging: RabbitMQ;
  cache: Memcached;
  keystone: Keystone;
} {
  const app = new App();
  const cloud = new Cloud(app, 'prod', { namespace: 'openstack' });
  const database = new MariaDB(cloud, 'db');
  const messaging = new RabbitMQ(cloud, 'mq');
  const cache = new Memcached(cloud, 'cache');
  const keystone = new Keystone(cloud, 'keystone', { database, cache, messaging });
  return { app, cloud, database, messaging, cache, keystone };
}

/** The objects of one service (by the `stackwright.io/service` annotation), for snapshots. */
export function ofService(objects: readonly KubeObject[], service: string): KubeObject[] {
  return objects.filter((o) => o.metadata.annotations?.['stackwright.io/service'] === service);
}

interface Term {
  readonly matchExpressions: readonly { key: string; operator: string; values?: string[] }[];
}

/** A workload's required node affinity terms, as written in the pod spec. */
export function nodeSelectorTermsOf(object: KubeObject): Term[] {
  const spec = podSpecOf(object) as {
    affinity?: {
      nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: Term[] } };
    };
  };
  return spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
}

/** The tolerations of a workload's pods, as `key/effect` strings in order. */
export function tolerationsOf(object: KubeObject): string[] {
  const spec = podSpecOf(object) as { tolerations?: { key: string; effect: string; operator: string }[] };
  return (spec.tolerations ?? []).map((t) => `${t.key}:${t.operator}:${t.effect}`);
}

/** The terms for keys `keys` (ORed, `Exists`), each ANDed with `narrowing`: what a placement must synthesise to. */
export function expectedTerms(keys: readonly string[], narrowing: Term['matchExpressions'] = []): Term[] {
  return keys.map((key) => ({ matchExpressions: [{ key, operator: 'Exists' }, ...narrowing] }));
}

/** NoSchedule and NoExecute tolerations for each key, in the order the SDK writes them. */
export function expectedTolerations(keys: readonly string[]): string[] {
  return keys.flatMap((key) => [`${key}:Exists:NoSchedule`, `${key}:Exists:NoExecute`]);
}

/** A file of a component's config ConfigMap. */
export function configFile(objects: readonly KubeObject[], configMap: string, file: string): string {
  const found = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === configMap);
  const text = (found?.data as Record<string, string> | undefined)?.[file];
  if (text === undefined) throw new Error(`no file ${file} in ConfigMap ${configMap}`);
  return text;
}

/** The container environment of a workload's first container, by name. */
export function envOf(object: KubeObject): Record<string, unknown> {
  const containers = podSpecOf(object).containers as {
    env?: { name: string; value?: string; valueFrom?: unknown }[];
  }[];
  return Object.fromEntries((containers[0].env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));
}
