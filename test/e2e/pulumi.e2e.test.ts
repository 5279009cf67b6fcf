/**
 * `pulumi up` of the reference cloud (Pulumi.yaml -> stacks/pulumi-main.ts) against the live test
 * cluster: every object is created, the provider's await logic passes (Jobs complete, Deployments
 * and StatefulSets ready), then `pulumi destroy` removes it all again.
 *
 * It needs the Pulumi CLI and the Kubernetes provider plugin, which cannot be installed on the
 * project's machines (no registry ships them; see docs/pulumi.md). Without them the suite is
 * skipped and says so; with them it runs fully offline: local file backend, no plugin downloads,
 * no update check.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  connect,
  deleteTestNamespace,
  E2E_NAMESPACE_LABEL,
  hasCondition,
  Kube,
  uniqueSuffix,
  waitFor,
} from './support/kube';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** What is missing for `pulumi up`, in words; empty when everything is there. */
function missingPrerequisites(): string[] {
  const missing: string[] = [];
  if (!onPath('pulumi')) missing.push('the Pulumi CLI (`pulumi` on PATH)');
  if (!onPath('pulumi-resource-kubernetes') && !installedPlugin('resource-kubernetes')) {
    missing.push(
      'the Kubernetes provider plugin (`pulumi-resource-kubernetes` on PATH or in ~/.pulumi/plugins)',
    );
  }
  return missing;
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir !== '' && existsSync(path.join(dir, command)));
}

function installedPlugin(prefix: string): boolean {
  const dir = path.join(process.env.PULUMI_HOME ?? path.join(homedir(), '.pulumi'), 'plugins');
  return existsSync(dir) && readdirSync(dir).some((entry) => entry.startsWith(`${prefix}-v`));
}

const missing = missingPrerequisites();

if (missing.length > 0) {
  const reason = `pulumi up e2e skipped: this machine lacks ${missing.join(' and ')}. No package registry ships them; see docs/pulumi.md ("What was verified, and how").`;
  process.stderr.write(`[e2e] ${reason}\n`);
  describe('pulumi up of the reference cloud', () => {
    it.skip(reason, () => undefined);
  });
} else {
  describe('pulumi up of the reference cloud', () => {
    let kube: Kube;
    let workDir: string;
    const namespace = `sw-pulumi-${uniqueSuffix()}`;
    const stack = `e2e-${namespace}`;

    /** Runs the Pulumi CLI in the project directory, offline, against a throw-away local backend. */
    function pulumi(...args: string[]): string {
      const result = spawnSync('pulumi', [...args, '--non-interactive'], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        env: {
          ...process.env,
          KUBECONFIG: kube.kubeconfigPath,
          PULUMI_BACKEND_URL: `file://${workDir}/backend`,
          PULUMI_CONFIG_PASSPHRASE: 'stackwright-e2e',
          PULUMI_SKIP_UPDATE_CHECK: 'true',
          PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: 'true',
        },
      });
      if (result.status !== 0) {
        throw new Error(
          `pulumi ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`,
        );
      }
      return result.stdout;
    }

    const configFile = () => path.join(workDir, `Pulumi.${stack}.yaml`);

    beforeAll(() => {
      kube = connect();
      workDir = mkdtempSync(path.join(tmpdir(), 'stackwright-pulumi-e2e-'));
      // Pulumi.yaml runs the compiled program, exactly as a user would after `npm run build`.
      const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, encoding: 'utf8' });
      if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
      mkdirSync(path.join(workDir, 'backend'));
      pulumi('stack', 'init', stack);
      pulumi(
        'config',
        'set',
        '--stack',
        stack,
        '--config-file',
        configFile(),
        'stackwright:namespace',
        namespace,
      );
      // A JSON string: `Config.getObject` parses it.
      pulumi(
        'config',
        'set',
        '--stack',
        stack,
        '--config-file',
        configFile(),
        'stackwright:labels',
        `{"${E2E_NAMESPACE_LABEL}":"true"}`,
      );
      pulumi(
        'config',
        'set',
        '--stack',
        stack,
        '--config-file',
        configFile(),
        '--secret',
        'stackwright:adminPassword',
        'e2e-admin',
      );
    }, 5 * 60_000);

    afterAll(async () => {
      try {
        pulumi('destroy', '--yes', '--skip-preview', '--stack', stack, '--config-file', configFile());
        pulumi('stack', 'rm', '--yes', '--force', stack);
      } finally {
        await deleteTestNamespace(kube, namespace);
        rmSync(workDir, { recursive: true, force: true });
      }
    }, 15 * 60_000);

    test(
      'creates every object and waits for each component in dependency order',
      async () => {
        // WHEN
        const output = pulumi(
          'up',
          '--yes',
          '--skip-preview',
          '--stack',
          stack,
          '--config-file',
          configFile(),
        );

        // THEN Pulumi reports the tree it created
        expect(output).toMatch(/stackwright:index:Cloud/);
        expect(output).toMatch(/stackwright:index:Component/);
        // AND the cluster holds the cloud, converged: bootstrap Job complete, API available
        const job = await waitFor(
          'Job keystone-bootstrap',
          async () => (await kube.batch.readNamespacedJob({ name: 'keystone-bootstrap', namespace })).status,
        );
        expect(hasCondition(job.conditions, 'Complete')).toBe(true);
        const api = await kube.apps.readNamespacedDeployment({ name: 'keystone-api', namespace });
        expect(api.status?.availableReplicas).toBe(api.spec?.replicas);
        // AND the admin password came from the stack config, not from the generator Job
        const secret = await kube.core.readNamespacedSecret({
          name: 'keystone-admin-credentials',
          namespace,
        });
        expect(Buffer.from(secret.data?.password ?? '', 'base64').toString()).toBe('e2e-admin');
      },
      20 * 60_000,
    );

    test(
      'a second `pulumi up` changes nothing',
      () => {
        // WHEN
        const output = pulumi(
          'preview',
          '--diff',
          '--expect-no-changes',
          '--stack',
          stack,
          '--config-file',
          configFile(),
        );

        // THEN
        expect(output).not.toMatch(/to create|to update|to replace|to delete/);
      },
      10 * 60_000,
    );
  });
}
