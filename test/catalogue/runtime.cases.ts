import { Annotations, KubeObject } from '../../lib/graph';
import { component, configMap, deployment, namespace } from '../runtime/support/manifests';
import { BadInputCase, js } from './bad-input';

/**
 * A runtime-surface case: what a program passes to `deploy`, `plan` or `destroy` of
 * `stackwright/runtime` (objects, a directory, anything), or YAML text for the loader. The runner
 * checks the rejection names the object (or file and document) and the fix, and that the
 * in-memory cluster received no request.
 */
export interface RuntimeCase extends BadInputCase {
  /** Objects (or anything a JavaScript caller could pass) for `deploy`/`plan`/`destroy`. */
  readonly input?: unknown;
  /** YAML text for a manifests file, read through a directory instead of `input`. */
  readonly yaml?: string;
  /** The operations that must refuse it. @default all three */
  readonly operations?: readonly ('deploy' | 'plan' | 'destroy')[];
}

const CLOUD: readonly KubeObject[] = [
  namespace(),
  ...component('mariadb', {}, deployment('mariadb')),
  ...component('keystone-api', { needs: { mariadb: 'ready' } }, deployment('keystone-api')),
];

function owned(object: KubeObject, name: string): KubeObject {
  return component(name, {}, object)[0];
}

export const RUNTIME_CASES: readonly RuntimeCase[] = [
  {
    class: 4,
    name: 'a Deployment without a component annotation is not applied first as bootstrap',
    input: [...CLOUD, deployment('rogue')],
    path: 'Deployment/openstack/rogue: has no stackwright.io/component annotation',
    fix: 'add the annotation naming the component that owns it',
  },
  {
    class: 4,
    name: 'a PersistentVolumeClaim without a component annotation',
    input: [
      ...CLOUD,
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'openstack' } },
    ],
    path: 'PersistentVolumeClaim/openstack/data: has no stackwright.io/component annotation',
    fix: 'synthesise it from a component',
  },
  {
    class: 4,
    name: 'a duplicated object',
    input: [...CLOUD, owned(configMap('c'), 'mariadb'), owned(configMap('c'), 'mariadb')],
    path: 'ConfigMap/openstack/c: the same object as ConfigMap/openstack/c',
    fix: 'remove one of them',
  },
  {
    class: 4,
    name: 'a duplicated cluster-scoped object',
    input: [...CLOUD, namespace()],
    path: 'Namespace/openstack: the same object as Namespace/openstack',
    fix: 'remove one of them',
  },
  {
    class: 4,
    name: 'an invalid object name',
    input: [...CLOUD, owned(configMap('Bad_Name'), 'mariadb')],
    path: 'ConfigMap/openstack/Bad_Name: ConfigMap name "Bad_Name"',
    fix: 'fix the name and re-synthesise',
  },
  {
    class: 4,
    name: 'an invalid Namespace name',
    input: [...CLOUD, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'open.stack' } }],
    path: 'Namespace/open.stack: Namespace name "open.stack" is not a valid DNS-1123 label',
    fix: 'fix the name and re-synthesise',
  },
  {
    class: 4,
    name: 'an invalid namespace of an object',
    input: [
      ...CLOUD,
      {
        ...owned(configMap('c'), 'mariadb'),
        metadata: { ...owned(configMap('c'), 'mariadb').metadata, namespace: 'Open_Stack' },
      },
    ],
    path: 'ConfigMap/Open_Stack/c: metadata.namespace "Open_Stack"',
    fix: "use lower-case letters, digits and '-'",
  },
  {
    class: 4,
    name: 'labels that are not a map',
    input: [
      ...CLOUD,
      {
        ...owned(configMap('c'), 'mariadb'),
        metadata: { ...owned(configMap('c'), 'mariadb').metadata, labels: js(['a']) },
      },
    ],
    path: 'ConfigMap/openstack/c: metadata.labels must be an object of label: value',
    fix: 'must be an object of label: value',
  },
  {
    class: 4,
    name: 'a depends-on annotation that is a number',
    input: [
      ...CLOUD,
      {
        ...configMap('c'),
        metadata: {
          ...configMap('c').metadata,
          annotations: js({ [Annotations.COMPONENT]: 'mariadb', [Annotations.DEPENDS_ON]: 7 }),
        },
      },
    ],
    path: 'ConfigMap/openstack/c: metadata.annotations must map names to strings',
    fix: 'must map names to strings',
  },
  {
    class: 4,
    name: 'several clouds in one set of manifests (one inventory per deploy or destroy)',
    operations: ['deploy', 'plan', 'destroy'],
    input: [
      ...CLOUD,
      ...component('memcached', {}, deployment('memcached')).map((o) => ({
        ...o,
        metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, [Annotations.CLOUD]: 'other' } },
      })),
    ],
    path: 'the manifests hold several clouds (other, test)',
    fix: "pass the option cloud: 'other' to choose one",
  },
  {
    class: 4,
    name: 'two clouds with the same component names, in their own namespaces (not merged by name)',
    operations: ['deploy', 'plan', 'destroy'],
    input: [
      ...CLOUD,
      ...CLOUD.map((o) => ({
        ...o,
        metadata: {
          ...o.metadata,
          ...(o.kind === 'Namespace' ? { name: 'staging' } : { namespace: 'staging' }),
          annotations: { ...o.metadata.annotations, [Annotations.CLOUD]: 'staging' },
        },
      })),
    ],
    path: 'the manifests hold several clouds (staging, test)',
    fix: "pass the option cloud: 'staging' to choose one",
  },
  {
    class: 4,
    name: 'a 4 MiB document in a manifests file',
    yaml: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  blob: ${'x'.repeat(4 * 1024 * 1024)}\n`,
    path: 'cloud.k8s.yaml: document 1 is 4.0 MiB',
    fix: 'keep large data out of manifests',
  },
  {
    class: 4,
    name: 'a 4 MiB document after a small one',
    yaml: `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: openstack\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  blob: ${'x'.repeat(4 * 1024 * 1024)}\n`,
    path: 'cloud.k8s.yaml: document 2 is 4.0 MiB',
    fix: 'keep large data out of manifests',
  },
  {
    class: 4,
    name: 'an unannotated Deployment in a manifests file names the file and document',
    yaml: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: rogue\n  namespace: openstack\n',
    path: 'cloud.k8s.yaml: document 1 (Deployment/openstack/rogue)',
    fix: 'add the annotation naming the component that owns it',
  },
  {
    class: 2,
    name: 'null instead of manifests',
    input: null,
    path: 'cannot read manifests from null',
    fix: 'pass a manifests directory or file, a list of objects, a component graph or a chart',
  },
  {
    class: 2,
    name: 'a number instead of manifests',
    input: 42,
    path: 'cannot read manifests from 42',
    fix: 'pass a manifests directory or file, a list of objects',
  },
  {
    class: 2,
    name: 'an object that is none of the accepted inputs',
    input: { objects: [] },
    path: 'cannot read manifests from {"objects":[]}',
    fix: 'a component graph or a chart',
  },
  {
    class: 2,
    name: 'null among the objects',
    input: [...CLOUD, null],
    path: 'object 4 is not a Kubernetes object',
    fix: '(apiVersion, kind, metadata.name)',
  },
  {
    class: 2,
    name: 'an empty object among the objects',
    input: [...CLOUD, {}],
    path: 'object 4 is not a Kubernetes object',
    fix: '(apiVersion, kind, metadata.name)',
  },
  {
    class: 2,
    name: 'an object without metadata',
    input: [...CLOUD, { apiVersion: 'v1', kind: 'ConfigMap' }],
    path: 'object 4 is not a Kubernetes object',
    fix: '(apiVersion, kind, metadata.name)',
  },
  {
    class: 2,
    name: 'metadata given as a string',
    input: [...CLOUD, { apiVersion: 'v1', kind: 'ConfigMap', metadata: 'c' }],
    path: 'object 4 is not a Kubernetes object',
    fix: '(apiVersion, kind, metadata.name)',
  },
  {
    class: 2,
    name: 'a directory that does not exist',
    input: '/nonexistent/stackwright/dist',
    path: '/nonexistent/stackwright/dist does not exist',
    fix: 'run `npx cdk8s synth` first',
  },
];
