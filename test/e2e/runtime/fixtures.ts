import { Annotations, EdgeKind, encodeDependsOn, KubeObject } from '../../../lib/graph';

/**
 * Hand-written manifests shaped like synthesised ones (graph annotations, Yaook scheduling on every
 * pod template), for the runtime e2e tests and the rollout benchmark. Pod readiness in kwok is
 * steered per pod template: `stackwright.io/e2e-ready-delay` (ready after a delay) and
 * `stackwright.io/e2e-fail` (a Job pod that fails), see scripts/cluster/kwok/.
 */

export const READY_DELAY = 'stackwright.io/e2e-ready-delay';
export const FAIL = 'stackwright.io/e2e-fail';

export interface FixtureComponent {
  readonly name: string;
  readonly service?: string;
  readonly needs?: Readonly<Record<string, EdgeKind>>;
  /** `deployment` (default), `job` (must complete), or `config` (a ConfigMap only). */
  readonly kind?: 'deployment' | 'job' | 'config';
  /** Scheduling key the pods require (one nodeSelectorTerm per key, operator Exists, tolerations for each). */
  readonly schedulingKeys?: readonly string[];
  /** Readiness delay of the pods, e.g. `2s`. */
  readonly readyDelay?: string;
  /** A Job whose pod fails (BackoffLimitExceeded after `backoffLimit` 0). */
  readonly fail?: boolean;
  readonly replicas?: number;
  /** Extra content to make the manifest differ (e.g. a new image tag). */
  readonly version?: string;
  /** A PersistentVolumeClaim `<name>-data` of this StorageClass, mounted by the pods. */
  readonly claimStorageClass?: string;
}

/** The objects of a cloud: its namespace, then every component's objects, annotated. */
export function fixtureCloud(
  cloud: string,
  namespace: string,
  components: readonly FixtureComponent[],
): KubeObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: namespace, labels: { 'stackwright-e2e/namespace': 'true' } },
    },
    ...components.flatMap((c) => componentObjects(cloud, namespace, c)),
  ];
}

function componentObjects(cloud: string, namespace: string, c: FixtureComponent): KubeObject[] {
  const dependsOn = encodeDependsOn(Object.entries(c.needs ?? {}).map(([to, kind]) => ({ to, kind })));
  const annotations = {
    [Annotations.CLOUD]: cloud,
    [Annotations.COMPONENT]: c.name,
    [Annotations.SERVICE]: c.service ?? c.name.split('-')[0],
    [Annotations.CONSTRUCT_PATH]: `${cloud}/${c.name}`,
    ...(dependsOn ? { [Annotations.DEPENDS_ON]: dependsOn } : {}),
  };
  const labels = { 'app.kubernetes.io/name': c.name, 'app.kubernetes.io/part-of': cloud };
  const metadata = (name: string) => ({ name, namespace, labels, annotations });
  const config: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: metadata(`${c.name}-config`),
    data: { version: c.version ?? '1' },
  };
  if (c.kind === 'config') return [config];
  const podAnnotations: Record<string, string> = {
    ...(c.readyDelay ? { [READY_DELAY]: c.readyDelay } : {}),
    ...(c.fail ? { [FAIL]: 'true' } : {}),
  };
  const claim: KubeObject | undefined = c.claimStorageClass
    ? {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: metadata(`${c.name}-data`),
        spec: {
          storageClassName: c.claimStorageClass,
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage: '1Gi' } },
        },
      }
    : undefined;
  const podSpec = {
    ...scheduling(c.schedulingKeys ?? ['any.yaook.cloud/api']),
    containers: [{ name: 'main', image: `registry.example.com/${c.name}:${c.version ?? '1'}` }],
    ...(claim
      ? { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim.metadata.name } }] }
      : {}),
    ...(c.kind === 'job' ? { restartPolicy: 'Never' } : {}),
  };
  const template = { metadata: { labels, annotations: podAnnotations }, spec: podSpec };
  if (c.kind === 'job') {
    return [
      config,
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: metadata(c.name),
        spec: { backoffLimit: 0, template },
      },
    ];
  }
  return [
    config,
    ...(claim ? [claim] : []),
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: metadata(c.name),
      spec: { replicas: c.replicas ?? 1, selector: { matchLabels: labels }, template },
    },
  ];
}

/** Yaook scheduling: required node affinity with one term per key (Exists), and tolerations for each key. */
export function scheduling(keys: readonly string[]): Record<string, unknown> {
  return {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: keys.map((key) => ({ matchExpressions: [{ key, operator: 'Exists' }] })),
        },
      },
    },
    tolerations: keys.flatMap((key) =>
      ['NoSchedule', 'NoExecute'].map((effect) => ({ key, operator: 'Exists', effect })),
    ),
  };
}
