/**
 * The Pulumi CLI as the e2e tests run it: the three binaries scripts/pulumi/build.sh builds from Go
 * modules (CLI, Node.js language host, Kubernetes provider) first on PATH, and a throw-away
 * workspace — local file backend, generated passphrase, PULUMI_HOME — in a temp dir, so nothing
 * leaves the machine: no update check, no plugin download, no service login.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const BUILD_SCRIPT = 'scripts/pulumi/build.sh';
/** What `pulumi up` of a Stackwright program needs on PATH (the language host is a flag shim). */
const BINARIES = ['pulumi', 'pulumi-language-nodejs', 'pulumi-resource-kubernetes'];

/** The directory holding the built binaries; throws saying how to build them when one is missing. */
export function pulumiBinDir(): string {
  const result = spawnSync('bash', [path.join(REPO_ROOT, BUILD_SCRIPT), '--bin-dir'], { encoding: 'utf8' });
  const dir = result.stdout.trim();
  const missing = BINARIES.filter((binary) => dir === '' || !existsSync(path.join(dir, binary)));
  if (result.status !== 0 || missing.length > 0) {
    throw new Error(
      `the Pulumi binaries are not built (missing in ${dir || '<no bin dir>'}: ${missing.join(', ')}); run \`bash ${BUILD_SCRIPT}\` ` +
        `(cold: about an hour on 2 cores; or \`bash ${BUILD_SCRIPT} --background\` early and \`--wait\` before the e2e tests)`,
    );
  }
  return dir;
}

/** One finished CLI run. */
export interface PulumiRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly seconds: number;
}

/** A Pulumi workspace in a temp dir, running the project in the repository root (Pulumi.yaml). */
export class PulumiWorkspace {
  /** Creates the workspace; throws when the binaries are missing. */
  static create(kubeconfig: string): PulumiWorkspace {
    const binDir = pulumiBinDir();
    const dir = mkdtempSync(path.join(tmpdir(), 'stackwright-pulumi-e2e-'));
    mkdirSync(path.join(dir, 'backend'));
    mkdirSync(path.join(dir, 'home'));
    return new PulumiWorkspace(dir, {
      ...process.env,
      PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`,
      KUBECONFIG: kubeconfig,
      PULUMI_HOME: path.join(dir, 'home'),
      PULUMI_BACKEND_URL: `file://${path.join(dir, 'backend')}`,
      PULUMI_CONFIG_PASSPHRASE: randomBytes(24).toString('base64'),
      PULUMI_SKIP_UPDATE_CHECK: 'true',
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: 'true',
    });
  }

  private constructor(
    /** The temp dir: backend, PULUMI_HOME and stack config files. */
    readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** The stack config file of `stack`, kept in the temp dir instead of beside Pulumi.yaml. */
  configFile(stack: string): string {
    return path.join(this.dir, `Pulumi.${stack}.yaml`);
  }

  /**
   * Runs `pulumi <args> --non-interactive` in the repository root and resolves when it exits 0;
   * rejects with its output otherwise. Asynchronous, so watches in the test keep streaming.
   */
  run(...args: string[]): Promise<PulumiRun> {
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const child = spawn('pulumi', [...args, '--non-interactive'], { cwd: REPO_ROOT, env: this.env });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      child.on('error', reject);
      child.on('close', (code) => {
        const run = {
          stdout: Buffer.concat(stdout).toString('utf8'),
          stderr: Buffer.concat(stderr).toString('utf8'),
          seconds: (Date.now() - started) / 1000,
        };
        if (code === 0) resolve(run);
        else
          reject(new Error(`pulumi ${args.join(' ')} failed (exit ${code}):\n${run.stdout}\n${run.stderr}`));
      });
    });
  }

  /** `run` for a command of `stack`, with the stack's config file. */
  runStack(stack: string, ...args: string[]): Promise<PulumiRun> {
    return this.run(...args, '--stack', stack, '--config-file', this.configFile(stack));
  }

  /** Deletes the temp dir (state and passphrase included). */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
