import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { component, deployment, namespace } from '../runtime/support/manifests';
import { manifestDir } from './support';

// Each test runs fresh Node processes (transpiling on a cold cache): seconds on a loaded machine.
const CHILD_PROCESS_TIMEOUT_MS = 60_000;
const root = path.join(__dirname, '..', '..');
const register = path.join(root, 'bin', 'ts-register.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-startup-'));
// The child processes' transpile cache, so tests never write to the user's.
const cache = path.join(work, 'transpile-cache');

/**
 * Runs `stackwright <argv>` from the TypeScript sources in a fresh Node process, as
 * bin/stackwright.js does in an unbuilt checkout, and returns its exit code and the modules it
 * loaded (repository-relative; packages as `node_modules/<name>/...`).
 */
function run(argv: readonly string[]): { code: number; modules: string[] } {
  const report = path.join(work, `modules-${argv[0]}.json`);
  const script = `
    require(${JSON.stringify(path.join(root, 'lib', 'cli', 'main.ts'))})
      .main(${JSON.stringify(argv)})
      .then((code) => require('fs').writeFileSync(${JSON.stringify(report)},
        JSON.stringify({ code, modules: Object.keys(require.cache) })));
  `;
  execFileSync(process.execPath, ['--require', register, '-e', script], {
    cwd: root,
    env: { ...process.env, STACKWRIGHT_TRANSPILE_CACHE: cache },
    stdio: 'ignore',
  });
  const { code, modules } = JSON.parse(fs.readFileSync(report, 'utf8')) as {
    code: number;
    modules: string[];
  };
  const realRoot = fs.realpathSync(root);
  return {
    code,
    modules: modules.map((m) =>
      m.includes('/node_modules/')
        ? `node_modules/${m.split('/node_modules/').pop()}`
        : path.relative(realRoot, m),
    ),
  };
}

/** What loading the cluster side would pull in: the Kubernetes client and our transport over it. */
const CLUSTER_CLIENT = [
  /^node_modules\/@kubernetes\/client-node\//,
  /^lib\/runtime\/kube\/(kube-cluster|connection|transport|client-node)\.ts$/,
  /^lib\/runtime\/operations\/(rollout|deploy|plan|destroy)\.ts$/,
];

/** A small cloud: a database and the API that needs it. */
const cloud = () => [
  namespace(),
  ...component('mariadb', {}, deployment('mariadb')),
  ...component('keystone-api', { needs: { mariadb: 'ready' } }, deployment('keystone-api')),
];

const clusterModules = (modules: readonly string[]) =>
  modules.filter((m) => CLUSTER_CLIENT.some((pattern) => pattern.test(m)));

describe('CLI start-up loads only what the command needs', () => {
  test(
    '--help loads the argument parser and nothing of the graph, the engine or the cluster client',
    () => {
      // WHEN
      const { code, modules } = run(['--help']);

      // THEN
      expect(code).toBe(0);
      expect(clusterModules(modules)).toEqual([]);
      expect(modules.filter((m) => m.startsWith('lib/')).sort()).toEqual([
        'lib/cli/duration.ts',
        'lib/cli/exit-codes.ts',
        'lib/cli/io.ts',
        'lib/cli/main.ts',
        'lib/cli/own-package-json.ts',
        'lib/cli/program.ts',
        'lib/runtime/defaults.ts',
      ]);
    },
    CHILD_PROCESS_TIMEOUT_MS,
  );

  test(
    'graph reads manifests without loading the cluster client',
    () => {
      // GIVEN synthesised manifests
      const dir = manifestDir(cloud());

      // WHEN
      const { code, modules } = run(['graph', dir, '--format', 'json']);

      // THEN it rendered the graph from the manifests, and never loaded the cluster side
      expect(code).toBe(0);
      expect(modules).toContain('lib/graph/load-manifests.ts');
      expect(clusterModules(modules)).toEqual([]);
    },
    CHILD_PROCESS_TIMEOUT_MS,
  );

  test(
    'deploy does load the cluster client (the check above can fail)',
    () => {
      // GIVEN manifests and a kubeconfig that does not exist, so deploy stops right after connecting
      const dir = manifestDir(cloud());

      // WHEN
      const { code, modules } = run(['deploy', dir, '--kubeconfig', path.join(work, 'missing-kubeconfig')]);

      // THEN it failed as unreachable (exit 3), after loading the transport and the client
      expect(code).toBe(3);
      expect(clusterModules(modules)).toEqual(
        expect.arrayContaining(['lib/runtime/operations/deploy.ts', 'lib/runtime/kube/kube-cluster.ts']),
      );
    },
    CHILD_PROCESS_TIMEOUT_MS,
  );
});
