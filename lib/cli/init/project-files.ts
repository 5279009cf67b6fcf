/**
 * The files of a new Stackwright project (`stackwright init`): a cdk8s app whose cloud starts from
 * the reference cloud, with a jest test that uses `stackwright/testing`. TypeScript projects get the
 * tsconfig and jest configuration `cdk8s init typescript-app` writes, so a cdk8s user finds their
 * habits; JavaScript projects the same layout in plain CommonJS.
 */

export type ProjectLanguage = 'typescript' | 'javascript';

/** What the files depend on: versions come from the installed `stackwright` package. */
export interface ProjectVersions {
  /** The `stackwright` version the project depends on (`^version`). */
  readonly stackwright: string;
  /** Ranges of the packages the project installs, by package name. */
  readonly packages: Readonly<Record<string, string>>;
}

export interface ProjectSpec {
  /** npm package name of the project (the directory's name, made valid). */
  readonly name: string;
  /** The cloud's id: its construct path, label and namespace prefix (a DNS-1123 label). */
  readonly cloudId: string;
  readonly language: ProjectLanguage;
  readonly versions: ProjectVersions;
}

/** The project's files, by path relative to its directory, in the order they are written. */
export function projectFiles(spec: ProjectSpec): Record<string, string> {
  const ts = spec.language === 'typescript';
  const ext = ts ? 'ts' : 'js';
  return {
    'package.json': packageJson(spec),
    'cdk8s.yaml': [
      `language: ${spec.language}`,
      `app: ${ts ? 'npx ts-node main.ts' : 'node main.js'}`,
      'output: dist',
      '',
    ].join('\n'),
    ...(ts ? { 'tsconfig.json': TSCONFIG } : {}),
    'jest.config.js': ts ? JEST_CONFIG_TS : JEST_CONFIG_JS,
    [`cloud.${ext}`]: ts ? cloudTs(spec.cloudId) : cloudJs(spec.cloudId),
    [`main.${ext}`]: ts ? MAIN_TS : MAIN_JS,
    [`main.test.${ext}`]: ts ? TEST_TS : TEST_JS,
    'README.md': readme(spec),
    '.gitignore': ts ? 'node_modules\ndist/\n*.js\n*.d.ts\n!jest.config.js\n' : 'node_modules\ndist/\n',
  };
}

function packageJson(spec: ProjectSpec): string {
  const { packages } = spec.versions;
  const pick = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, packages[n]]));
  const dev =
    spec.language === 'typescript'
      ? ['@types/jest', '@types/node', 'cdk8s-cli', 'jest', 'ts-jest', 'ts-node', 'typescript']
      : ['cdk8s-cli', 'jest'];
  const project = {
    name: spec.name,
    version: '0.1.0',
    private: true,
    scripts: {
      synth: 'cdk8s synth',
      test: 'jest',
      graph: 'stackwright graph dist/',
      plan: 'stackwright plan dist/',
      deploy: 'stackwright deploy dist/',
    },
    dependencies: {
      cdk8s: packages.cdk8s,
      constructs: packages.constructs,
      stackwright: `^${spec.versions.stackwright}`,
    },
    devDependencies: pick(dev),
  };
  return `${JSON.stringify(project, null, 2)}\n`;
}

// As `cdk8s init typescript-app` writes it (cdk8s-cli's templates/typescript-app/tsconfig.json).
const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      alwaysStrict: true,
      declaration: true,
      experimentalDecorators: true,
      inlineSourceMap: true,
      inlineSources: true,
      lib: ['es2016'],
      module: 'CommonJS',
      noEmit: false,
      noEmitOnError: true,
      noFallthroughCasesInSwitch: true,
      noImplicitAny: true,
      noImplicitReturns: true,
      noImplicitThis: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      resolveJsonModule: true,
      strict: true,
      strictNullChecks: true,
      strictPropertyInitialization: true,
      stripInternal: true,
      target: 'ES2017',
    },
    include: ['**/*.ts'],
    exclude: ['node_modules'],
  },
  null,
  2,
)}\n`;

const JEST_CONFIG_TS = `module.exports = {
  roots: ['<rootDir>'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\\\.tsx?$': 'ts-jest' },
};
`;

const JEST_CONFIG_JS = `module.exports = {
  roots: ['<rootDir>'],
  testMatch: ['**/*.test.js'],
};
`;

const CLOUD_DOC = `/**
 * Your cloud. It starts as Stackwright's reference cloud: every service Stackwright models, wired
 * with the canonical dependency edges and placed by the Yaook scheduling keys. Change the services'
 * options here, leave services out (\`enabled: false\`), or build the cloud yourself from the
 * constructs (\`new Cloud\`, \`new Keystone\`, …).
 */`;

function cloudTs(cloudId: string): string {
  return `import { Construct } from 'constructs';
import { Cloud, referenceCloud } from 'stackwright';

${CLOUD_DOC}
export function myCloud(scope: Construct): Cloud {
  return referenceCloud(scope, '${cloudId}', {
    namespace: 'openstack',
    services: {
      keystone: { replicas: 2 },
      ironic: { enabled: false },
    },
  });
}
`;
}

function cloudJs(cloudId: string): string {
  return `// @ts-check
const { referenceCloud } = require('stackwright');

${CLOUD_DOC}
function myCloud(scope) {
  return referenceCloud(scope, '${cloudId}', {
    namespace: 'openstack',
    services: {
      keystone: { replicas: 2 },
      ironic: { enabled: false },
    },
  });
}

module.exports = { myCloud };
`;
}

const MAIN_TS = `import { App } from 'cdk8s';
import { myCloud } from './cloud';

// \`npx cdk8s synth\` runs this file: the manifests go to dist/.
const app = new App();
myCloud(app);
app.synth();
`;

const MAIN_JS = `const { App } = require('cdk8s');
const { myCloud } = require('./cloud');

// \`npx cdk8s synth\` runs this file: the manifests go to dist/.
const app = new App();
myCloud(app);
app.synth();
`;

const TEST_BODY = `describe('my cloud', () => {
  const cloud = myCloud(Testing.app());

  test('the Keystone API: what matters, as a snapshot', () => {
    expect(summarise(synthComponent(cloud, 'keystone-api'))).toMatchSnapshot();
  });

  test('Keystone waits for its database and its schema', () => {
    const edges = synthGraph(cloud).edges.filter((e) => e.from === 'keystone-api');
    expect(edges).toEqual(
      expect.arrayContaining([
        { from: 'keystone-api', to: 'db', kind: 'ready' },
        { from: 'keystone-api', to: 'keystone-db-sync', kind: 'completed' },
      ]),
    );
  });

  test('nova-compute runs on hypervisors only', () => {
    const compute = findObject(synthComponent(cloud, 'nova-compute'), 'DaemonSet', 'nova-compute');
    const { nodeSelectorTerms } = placementOf(compute);
    expect(nodeSelectorTerms.every((term) => term.includes('compute.yaook.cloud/hypervisor'))).toBe(true);
  });

  // A few seconds: every component of the cloud is applied and verified, in dependency order.
  test('deploys in dependency order (on an in-memory cluster)', async () => {
    const cluster = new InMemoryCluster();
    const result = await deploy(cloud, { cluster, preflight: 'off' });
    expect(result.ok).toBe(true);
  }, 60_000);
});
`;

const TEST_TS = `import { Testing } from 'cdk8s';
import { deploy } from 'stackwright/runtime';
import { findObject, InMemoryCluster, placementOf, summarise, synthComponent, synthGraph } from 'stackwright/testing';
import { myCloud } from './cloud';

${TEST_BODY}`;

const TEST_JS = `const { Testing } = require('cdk8s');
const { deploy } = require('stackwright/runtime');
const { findObject, InMemoryCluster, placementOf, summarise, synthComponent, synthGraph } = require('stackwright/testing');
const { myCloud } = require('./cloud');

${TEST_BODY}`;

function readme(spec: ProjectSpec): string {
  const ext = spec.language === 'typescript' ? 'ts' : 'js';
  return `# ${spec.name}

An OpenStack cloud on Kubernetes, written with [Stackwright](https://www.npmjs.com/package/stackwright).
\`cloud.${ext}\` is the cloud (it starts from Stackwright's reference cloud), \`main.${ext}\` synthesises it,
\`main.test.${ext}\` tests it.

\`\`\`sh
npm install
npx cdk8s synth               # the manifests, in dist/
npm test                      # jest: the tests in main.test.${ext}
npx stackwright graph dist/   # the component graph (dot; --format mermaid|json)
npx stackwright plan dist/    # against your cluster (kubeconfig): a server-side dry run and diff
npx stackwright deploy dist/  # applies the cloud in dependency order, verifying each component
\`\`\`

Label your nodes with the Yaook scheduling keys before deploying (a fresh cluster's unlabelled
nodes schedule nothing; \`stackwright deploy\` names the missing labels). Testing your own stack:
Stackwright's docs/testing.md.
`;
}
