import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { stringify } from 'yaml';
import { ExitCode } from '../../lib/cli/exit-codes';
import { Annotations, KubeObject } from '../../lib/graph';
import { component, configMap, deployment, job, namespace, service } from '../runtime/support/manifests';
import { billionLaughs } from '../support/hostile-yaml';
import { BadInputCase } from './bad-input';

/**
 * A CLI-surface case: the files of a manifests directory, the arguments (given that directory),
 * and the exit code. The message must name the file and document (or the option) and the fix;
 * the runner checks that the cluster was never opened and holds no object.
 */
export interface CliCase extends BadInputCase {
  readonly files: Readonly<Record<string, string>>;
  readonly args: (dir: string) => string[];
  readonly exit: number;
  /** Standard output is a terminal. @default false */
  readonly tty?: boolean;
  /** Makes what `files` cannot hold (links, FIFOs, folders) in the manifests directory. @default - nothing */
  readonly setup?: (dir: string) => void;
}

/** A valid little cloud: namespace, mariadb, keystone-api needing it. */
const CLOUD: readonly KubeObject[] = [
  namespace(),
  ...component('mariadb', {}, deployment('mariadb')),
  ...component('keystone-api', { needs: { mariadb: 'ready' } }, deployment('keystone-api')),
];

/** Objects as one multi-document YAML text. */
function yamlOf(objects: readonly KubeObject[]): string {
  return objects.map((o) => stringify(o)).join('---\n');
}

/** The valid cloud plus `extra`, in `cloud.k8s.yaml`. */
function withObjects(...extra: KubeObject[]): Record<string, string> {
  return { 'cloud.k8s.yaml': yamlOf([...CLOUD, ...extra]) };
}

/** `object` with its metadata changed by `change`. */
function withMetadata(object: KubeObject, change: Record<string, unknown>): KubeObject {
  return { ...object, metadata: { ...object.metadata, ...change } };
}

/** The annotations of a component named `name`. */
function owned(object: KubeObject, name: string): KubeObject {
  return component(name, {}, object)[0];
}

/** A document 4 MiB long: one ConfigMap with a big value. */
const BIG = owned(configMap('big', { blob: 'x'.repeat(4 * 1024 * 1024) }), 'big');

const COMMANDS_WITH_MANIFESTS: readonly ((dir: string) => string[])[] = [
  (dir) => ['deploy', dir],
  (dir) => ['plan', dir],
  (dir) => ['verify', dir],
  (dir) => ['status', dir],
  (dir) => ['destroy', dir, '--yes'],
  (dir) => ['graph', dir],
];

/** The same bad manifests through every command that reads them. */
function everyCommand(testCase: Omit<CliCase, 'args' | 'name'> & { readonly name: string }): CliCase[] {
  return COMMANDS_WITH_MANIFESTS.map((args) => ({
    ...testCase,
    name: `${args('DIR')[0]}: ${testCase.name}`,
    args,
  }));
}

const CONTRACT = { class: 4, exit: ExitCode.USAGE } as const;

export const CLI_CASES: readonly CliCase[] = [
  ...everyCommand({
    ...CONTRACT,
    name: 'a Deployment without a component annotation',
    files: withObjects(deployment('rogue')),
    path: 'cloud.k8s.yaml: document 4 (Deployment/openstack/rogue): has no stackwright.io/component annotation',
    fix: 'add the annotation naming the component that owns it',
  }),
  ...everyCommand({
    ...CONTRACT,
    name: 'the same object twice',
    files: withObjects(owned(configMap('shared'), 'mariadb'), owned(configMap('shared'), 'mariadb')),
    path: 'cloud.k8s.yaml: document 5 (ConfigMap/openstack/shared): the same object as',
    fix: 'remove one of them',
  }),
  ...everyCommand({
    ...CONTRACT,
    name: 'an object name that is not a DNS name',
    files: withObjects(owned(configMap('Keystone_Config'), 'mariadb')),
    path: 'cloud.k8s.yaml: document 4 (ConfigMap/openstack/Keystone_Config): ConfigMap name "Keystone_Config"',
    fix: 'fix the name and re-synthesise',
  }),
  ...everyCommand({
    ...CONTRACT,
    name: 'a document of 4 MiB',
    files: withObjects(BIG),
    path: 'cloud.k8s.yaml: document 4 is 4.0 MiB',
    fix: 'keep large data out of manifests',
  }),
  {
    ...CONTRACT,
    name: 'a Service without a component annotation',
    files: withObjects(service('rogue')),
    args: (dir) => ['deploy', dir],
    path: '(Service/openstack/rogue): has no stackwright.io/component annotation',
    fix: 'synthesise it from a component',
  },
  {
    ...CONTRACT,
    name: 'a Job without a component annotation',
    files: withObjects(job('rogue-sync')),
    args: (dir) => ['plan', dir],
    path: '(Job/openstack/rogue-sync): has no stackwright.io/component annotation',
    fix: 'synthesise it from a component',
  },
  {
    ...CONTRACT,
    name: 'a custom resource without a component annotation',
    files: withObjects({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'openstack' },
    }),
    args: (dir) => ['deploy', dir],
    path: '(Widget/openstack/w): has no stackwright.io/component annotation',
    fix: 'only Namespace, CustomResourceDefinition',
  },
  {
    ...CONTRACT,
    name: 'the same object in two files',
    files: { ...withObjects(), 'extra.k8s.yaml': yamlOf([owned(deployment('mariadb'), 'mariadb')]) },
    args: (dir) => ['deploy', dir],
    path: 'extra.k8s.yaml: document 1 (Deployment/openstack/mariadb): the same object as',
    fix: 'remove one of them',
  },
  {
    ...CONTRACT,
    name: 'one object owned by two components',
    files: withObjects(owned(configMap('shared'), 'mariadb'), owned(configMap('shared'), 'keystone-api')),
    args: (dir) => ['deploy', dir],
    path: '(ConfigMap/openstack/shared): the same object as',
    fix: 'owned by both component mariadb and component keystone-api; remove one of them',
  },
  {
    ...CONTRACT,
    name: 'a Service name with a dot',
    files: withObjects(
      owned({ ...service('x'), metadata: { name: 'keystone.api', namespace: 'openstack' } }, 'mariadb'),
    ),
    args: (dir) => ['deploy', dir],
    path: 'Service name "keystone.api" is not a valid DNS-1123 label',
    fix: 'fix the name and re-synthesise',
  },
  {
    ...CONTRACT,
    name: 'an object name of 254 characters',
    files: withObjects(owned(configMap('c'.repeat(254)), 'mariadb')),
    args: (dir) => ['plan', dir],
    path: 'is not a valid DNS-1123 subdomain',
    fix: 'fix the name and re-synthesise',
  },
  {
    ...CONTRACT,
    name: 'a namespace with a space',
    files: withObjects(withMetadata(owned(configMap('c'), 'mariadb'), { namespace: 'open stack' })),
    args: (dir) => ['deploy', dir],
    path: '(ConfigMap/open stack/c): metadata.namespace "open stack"',
    fix: "use lower-case letters, digits and '-'",
  },
  {
    ...CONTRACT,
    name: 'a label value with a space',
    files: withObjects(withMetadata(owned(configMap('c'), 'mariadb'), { labels: { team: 'core infra' } })),
    args: (dir) => ['deploy', dir],
    path: '(ConfigMap/openstack/c): metadata.labels: label value "core infra" of team',
    fix: 'starting and ending alphanumeric',
  },
  {
    ...CONTRACT,
    name: 'a label key with a space',
    files: withObjects(withMetadata(owned(configMap('c'), 'mariadb'), { labels: { 'team name': 'core' } })),
    args: (dir) => ['plan', dir],
    path: '(ConfigMap/openstack/c): metadata.labels: "team name" is not a valid label key',
    fix: "an optional DNS prefix and '/'",
  },
  {
    ...CONTRACT,
    name: 'an annotation that is not text',
    files: withObjects(
      withMetadata(configMap('c'), {
        annotations: { [Annotations.COMPONENT]: 'mariadb', [Annotations.DEPENDS_ON]: 5 },
      }),
    ),
    args: (dir) => ['deploy', dir],
    path: '(ConfigMap/openstack/c): metadata.annotations must map names to strings',
    fix: 'must map names to strings',
  },
  {
    ...CONTRACT,
    name: 'a component name that is not a DNS label',
    files: withObjects(owned(configMap('c'), 'Keystone API')),
    args: (dir) => ['deploy', dir],
    path: '(ConfigMap/openstack/c): stackwright.io/component "Keystone API"',
    fix: "use lower-case letters, digits and '-'",
  },
  {
    ...CONTRACT,
    name: 'an edge kind "readyy" in depends-on',
    files: withObjects(
      ...component('glance-api', { needs: { mariadb: 'ready' } }, deployment('glance-api')).map((o) =>
        withMetadata(o, {
          annotations: { ...o.metadata.annotations, [Annotations.DEPENDS_ON]: 'mariadb:readyy' },
        }),
      ),
    ),
    args: (dir) => ['deploy', dir],
    path: 'component glance-api: malformed stackwright.io/depends-on entry "mariadb:readyy"',
    fix: 'expected "<component>:<ready|completed|same-node|runtime>"',
  },
  {
    ...CONTRACT,
    name: 'a dependency on a component not in the manifests',
    files: withObjects(
      ...component('glance-api', { needs: { 'keystone-apii': 'ready' } }, deployment('glance-api')),
    ),
    args: (dir) => ['deploy', dir],
    path: 'component glance-api depends on keystone-apii (ready)',
    fix: 'which is not in the manifests',
  },
  {
    ...CONTRACT,
    name: 'a dependency cycle',
    files: {
      'cloud.k8s.yaml': yamlOf([
        namespace(),
        ...component('a', { needs: { b: 'ready' } }, deployment('a')),
        ...component('b', { needs: { a: 'completed' } }, deployment('b')),
      ]),
    },
    args: (dir) => ['deploy', dir],
    path: 'dependency cycle between components: a -> b -> a',
    fix: 'a -> b -> a',
  },
  {
    ...CONTRACT,
    name: 'objects of one component that disagree on its edges',
    files: withObjects(
      ...component('glance-api', { needs: { mariadb: 'ready' } }, deployment('glance-api')),
      ...component('glance-api', {}, configMap('glance-config')),
    ),
    args: (dir) => ['plan', dir],
    path: 'component glance-api: ConfigMap/openstack/glance-config and Deployment/openstack/glance-api disagree',
    fix: 're-synthesise instead of editing the YAML',
  },
  ...['deploy', 'plan', 'status', 'destroy'].map((command): CliCase => ({
    ...CONTRACT,
    name: `${command}: two clouds in one directory`,
    files: {
      ...withObjects(),
      'other.k8s.yaml': yamlOf(
        component('memcached', {}, deployment('memcached')).map((o) =>
          withMetadata(o, { annotations: { ...o.metadata.annotations, [Annotations.CLOUD]: 'other' } }),
        ),
      ),
    },
    args: (dir) => [command, dir, ...(command === 'destroy' ? ['--yes'] : [])],
    path: 'the manifests hold several clouds (other, test)',
    fix: 'deploy one cloud at a time',
  })),
  {
    ...CONTRACT,
    name: 'destroy without --yes off a terminal',
    files: withObjects(),
    args: (dir) => ['destroy', dir],
    path: 'destroy deletes the whole cloud',
    fix: 'pass --yes to confirm when not on a terminal',
  },
  {
    ...CONTRACT,
    name: 'destroy --json without --yes on a terminal',
    files: withObjects(),
    tty: true,
    args: (dir) => ['destroy', dir, '--json'],
    path: 'destroy deletes the whole cloud',
    fix: 'pass --yes to confirm',
  },
  {
    ...CONTRACT,
    name: 'a document that is not a Kubernetes object',
    files: { 'cloud.k8s.yaml': `${yamlOf(CLOUD)}---\nkind: ConfigMap\nmetadata:\n  name: x\n` },
    args: (dir) => ['deploy', dir],
    path: 'cloud.k8s.yaml: document 4 is not a Kubernetes object',
    fix: '(apiVersion, kind, metadata.name)',
  },
  {
    ...CONTRACT,
    name: 'a scalar document',
    files: { 'cloud.k8s.yaml': `${yamlOf(CLOUD)}---\nhello\n` },
    args: (dir) => ['plan', dir],
    path: 'cloud.k8s.yaml: document 4 is not a Kubernetes object',
    fix: '(apiVersion, kind, metadata.name)',
  },
  {
    ...CONTRACT,
    name: 'a list document',
    files: { 'cloud.k8s.yaml': `${yamlOf(CLOUD)}---\n- a\n- b\n` },
    args: (dir) => ['deploy', dir],
    path: 'cloud.k8s.yaml: document 4 is not a Kubernetes object',
    fix: '(apiVersion, kind, metadata.name)',
  },
  {
    ...CONTRACT,
    name: 'a name that is a number',
    files: {
      'cloud.k8s.yaml': `${yamlOf(CLOUD)}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 5\n`,
    },
    args: (dir) => ['deploy', dir],
    path: 'cloud.k8s.yaml: document 4 is not a Kubernetes object',
    fix: '(apiVersion, kind, metadata.name)',
  },
  {
    ...CONTRACT,
    name: 'YAML that does not parse',
    files: { 'cloud.k8s.yaml': 'apiVersion: v1\nkind: [ConfigMap\n' },
    args: (dir) => ['deploy', dir],
    path: 'cloud.k8s.yaml: unexpected end of the stream',
    fix: /\(\d+:\d+\)/,
  },
  {
    ...CONTRACT,
    name: 'a directory without manifests',
    files: { 'README.md': 'no yaml here' },
    args: (dir) => ['deploy', dir],
    path: 'no *.yaml files in',
    fix: 'run `npx cdk8s synth` first',
  },
  {
    ...CONTRACT,
    name: 'a directory that does not exist',
    files: {},
    args: (dir) => ['plan', `${dir}/missing`],
    path: 'missing does not exist',
    fix: 'run `stackwright synth` (or `npx cdk8s synth`) first',
  },
  // Files that are not what their name or size says (issue 25): refused by name, bounded.
  ...everyCommand({
    class: 2,
    exit: ExitCode.USAGE,
    name: 'a directory named x.yaml',
    files: withObjects(),
    setup: (dir) => fs.mkdirSync(path.join(dir, 'x.yaml')),
    path: 'x.yaml is a directory, not a regular file',
    fix: 'a manifest file must be a file: remove it or put the file there',
  }),
  ...everyCommand({
    class: 3,
    exit: ExitCode.USAGE,
    name: 'a link to /dev/zero named x.yaml',
    files: withObjects(),
    setup: (dir) => fs.symlinkSync('/dev/zero', path.join(dir, 'x.yaml')),
    path: 'x.yaml is a symbolic link to /dev/zero, outside',
    fix: 'links are not followed out of the folder given',
  }),
  {
    class: 3,
    exit: ExitCode.USAGE,
    name: 'a FIFO named x.yaml',
    files: withObjects(),
    setup: (dir) => execFileSync('mkfifo', [path.join(dir, 'x.yaml')]),
    args: (dir) => ['deploy', dir],
    path: 'x.yaml is a FIFO (named pipe), not a regular file',
    fix: 'remove it or put the file there',
  },
  {
    class: 3,
    exit: ExitCode.USAGE,
    name: 'a link to a manifest outside the directory',
    files: withObjects(),
    setup: (dir) => {
      const elsewhere = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-elsewhere-')), 'x.yaml');
      fs.writeFileSync(elsewhere, yamlOf([owned(configMap('elsewhere'), 'mariadb')]));
      fs.symlinkSync(elsewhere, path.join(dir, 'x.yaml'));
    },
    args: (dir) => ['plan', dir],
    path: 'x.yaml is a symbolic link to',
    fix: 'copy the file into',
  },
  {
    class: 3,
    exit: ExitCode.USAGE,
    name: 'the manifest file given is a link to /dev/zero',
    files: {},
    setup: (dir) => fs.symlinkSync('/dev/zero', path.join(dir, 'zero.yaml')),
    args: (dir) => ['graph', path.join(dir, 'zero.yaml')],
    path: 'zero.yaml is a symbolic link to /dev/zero, which is a character device, not a regular file',
    fix: 'a manifest file must be a file',
  },
  ...(['deploy', 'graph', 'plan'] as const).map((command): CliCase => ({
    class: 3,
    exit: ExitCode.USAGE,
    name: `${command}: 700 bytes of nested aliases (billion laughs)`,
    files: { 'lol.yaml': billionLaughs() },
    args: (dir) => [command, dir],
    path: 'lol.yaml: its aliases expand it to more than',
    fix: 'write the values out instead of nesting aliases',
  })),
  {
    class: 2,
    exit: ExitCode.USAGE,
    name: 'nesting 5000 levels deep',
    files: { 'deep.yaml': `${yamlOf(CLOUD)}---\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n` },
    args: (dir) => ['deploy', dir],
    path: 'deep.yaml: nesting deeper than 128 levels',
    fix: 'flatten it',
  },
  {
    class: 2,
    exit: ExitCode.USAGE,
    name: 'cdk8s.yaml of nested aliases',
    files: { 'cdk8s.yaml': billionLaughs() },
    args: () => ['graph'],
    path: 'cdk8s.yaml: its aliases expand it to more than',
    fix: 'write the values out instead of nesting aliases',
  },
  // Usage: options, checked before anything is read or opened.
  ...[
    { args: ['--concurrency', '0'], path: '--concurrency', fix: 'positive' },
    { args: ['--concurrency', 'abc'], path: '--concurrency', fix: 'positive' },
    { args: ['--concurrency', '2.5'], path: '--concurrency', fix: 'positive' },
    { args: ['--timeout', '5 parsecs'], path: '--timeout', fix: /duration/ },
    { args: ['--component-timeout', '-5s'], path: '--component-timeout', fix: /duration/ },
    { args: ['--preflight', 'maybe'], path: '--preflight', fix: /report|strict|off/ },
    { args: ['--frobnicate'], path: "unknown option '--frobnicate'", fix: /--help|unknown option/ },
  ].map((usage): CliCase => ({
    class: 4,
    exit: ExitCode.USAGE,
    name: `deploy ${usage.args.join(' ')}`,
    files: withObjects(),
    args: (dir) => ['deploy', dir, ...usage.args],
    path: usage.path,
    fix: usage.fix,
  })),
  {
    class: 4,
    exit: ExitCode.USAGE,
    name: 'destroy --cascade sideways',
    files: withObjects(),
    args: (dir) => ['destroy', dir, '--yes', '--cascade', 'sideways'],
    path: '--cascade',
    fix: /foreground|background/,
  },
  {
    class: 4,
    exit: ExitCode.USAGE,
    name: 'verify --wait forever',
    files: withObjects(),
    args: (dir) => ['verify', dir, '--wait', 'forever'],
    path: '--wait',
    fix: /duration/,
  },
  {
    class: 4,
    exit: ExitCode.USAGE,
    name: 'graph --format png',
    files: withObjects(),
    args: (dir) => ['graph', dir, '--format', 'png'],
    path: "option '--format <format>' argument 'png' is invalid",
    fix: 'Allowed choices are dot, mermaid, json',
  },
  {
    class: 4,
    exit: ExitCode.USAGE,
    name: 'an unknown command',
    files: withObjects(),
    args: (dir) => ['deplyo', dir],
    path: "unknown command 'deplyo'",
    fix: /deploy|help/,
  },
];
