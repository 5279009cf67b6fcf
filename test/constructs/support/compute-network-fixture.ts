import { App } from 'cdk8s';
import { MariaDB, Memcached, RabbitMQ } from '../../../constructs/infra';
import { Keystone, KeystoneProps } from '../../../constructs/openstack/keystone';
import { Edge, EdgeKind, KubeObject } from '../../../lib/graph';
import { Cloud } from '../../../lib/model';
import { podSpecOf } from '../../../lib/testing';

/*
 * The shared fixture and readers of the construct tests (every OpenStack service, not only compute
 * and network, despite the file's name, which test/examples imports too). Finding objects, edges and
 * pod specs is `lib/testing`'s job; this adds what only these tests need.
 */

/** The infrastructure of a cloud `prod` (namespace `openstack`): MariaDB `db`, RabbitMQ `mq`, Memcached `cache`. */
export interface InfraCloud {
  readonly app: App;
  readonly cloud: Cloud;
  readonly database: MariaDB;
  readonly messaging: RabbitMQ;
  readonly cache: Memcached;
}

/** The infrastructure plus Keystone `keystone`: what almost every service needs. */
export interface BaseCloud extends InfraCloud {
  readonly keystone: Keystone;
}

/** A cloud with the infrastructure only, for tests of Keystone itself. */
export function infraCloud(): InfraCloud {
  const app = new App();
  const cloud = new Cloud(app, 'prod', { namespace: 'openstack' });
  const database = new MariaDB(cloud, 'db');
  const messaging = new RabbitMQ(cloud, 'mq');
  const cache = new Memcached(cloud, 'cache');
  return { app, cloud, database, messaging, cache };
}

/**
 * A cloud with the infrastructure and a Keystone on it (with `keystone` props merged in). Keystone
 * sends notifications to the message bus only with `notifications`: a test that enables them adds
 * their consumer (Barbican's keystone listener).
 */
export function baseCloud(keystone: Partial<KeystoneProps> = {}, notifications = false): BaseCloud {
  const infra = infraCloud();
  const { database, cache, messaging } = infra;
  return {
    ...infra,
    keystone: new Keystone(infra.cloud, 'keystone', {
      database,
      cache,
      messaging: notifications ? messaging : undefined,
      ...keystone,
    }),
  };
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

/**
 * A workload's required node affinity terms, as the match expressions of each term. A term with
 * anything besides match expressions (`matchFields`) throws, so comparing only these loses nothing.
 */
export function termsOf(object: KubeObject): Requirement[][] {
  const spec = podSpecOf(object) as {
    affinity?: {
      nodeAffinity?: {
        requiredDuringSchedulingIgnoredDuringExecution?: {
          nodeSelectorTerms: ({ matchExpressions: Requirement[] } & Record<string, unknown>)[];
        };
      };
    };
  };
  const terms =
    spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return (terms ?? []).map((term) => {
    const other = Object.keys(term).filter((k) => k !== 'matchExpressions');
    if (other.length > 0) {
      throw new Error(`${object.kind}/${object.metadata.name}: a node selector term has ${other.join(', ')}`);
    }
    return term.matchExpressions;
  });
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

/** The keys a Yaook operator Job runs on: its operator's own key, or the key shared by all operators. */
export function operatorKeys(operator: string): string[] {
  return [`operator.yaook.cloud/${operator}`, 'operator.yaook.cloud/any'];
}

/** Expects `workload` to require one of `keys` (each ANDed with `narrowing`) and to tolerate exactly `keys`. */
export function expectPlacedOn(
  workload: KubeObject,
  keys: readonly string[],
  narrowing: readonly Requirement[] = [],
): void {
  expect(termsOf(workload)).toEqual(keyTerms(keys, narrowing));
  expect(tolerationsOf(workload)).toEqual(keyTolerations(keys));
}

/**
 * The edges from `from`, given by kind, in the order the `depends-on` annotation keeps them (sorted
 * `to:kind` strings), so that comparing with `edgesOf` checks the order too.
 */
export function edgesFrom(from: string, byKind: Partial<Record<EdgeKind, readonly string[]>>): Edge[] {
  const edges = (Object.entries(byKind) as [EdgeKind, readonly string[]][]).flatMap(([kind, targets]) =>
    targets.map((to) => ({ from, to, kind })),
  );
  const key = (e: Edge) => `${e.to}:${e.kind}`;
  return edges.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** One file of a ConfigMap. */
export function fileOf(objects: readonly KubeObject[], configMap: string, file: string): string {
  const found = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === configMap);
  const text = (found?.data as Record<string, string> | undefined)?.[file];
  if (text === undefined) throw new Error(`no file ${file} in ConfigMap ${configMap}`);
  return text;
}

interface Container {
  readonly name: string;
  readonly command?: string[];
  readonly env?: { name: string; value?: string; valueFrom?: unknown }[];
}

/** A workload's container: the first, or the one named. */
function containerOf(object: KubeObject, container?: string): Container {
  const containers = podSpecOf(object).containers as Container[];
  const chosen = container === undefined ? containers[0] : containers.find((c) => c.name === container);
  if (!chosen) throw new Error(`no container ${container} in ${object.kind}/${object.metadata.name}`);
  return chosen;
}

/** The environment of a workload's container (the first, or the one named), by variable name. */
export function envOf(object: KubeObject, container?: string): Record<string, unknown> {
  return Object.fromEntries(
    (containerOf(object, container).env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]),
  );
}

/** The command of a workload's container (the first, or the one named). */
export function commandOf(object: KubeObject, container?: string): string[] {
  const command = containerOf(object, container).command;
  if (!command) throw new Error(`${object.kind}/${object.metadata.name} has no command`);
  return command;
}

/** The script of a workload's first container, run as `sh -c <script>` (the third word of its command). */
export function scriptOf(object: KubeObject): string {
  const script = commandOf(object)[2];
  if (script === undefined) throw new Error(`${object.kind}/${object.metadata.name} runs no script`);
  return script;
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
