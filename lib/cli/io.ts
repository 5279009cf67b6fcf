import { spawn } from 'child_process';
import * as readline from 'readline';
import type { ClusterPort, RequestCounts } from '../runtime';

/** Where the CLI writes: a terminal, a pipe, or a test buffer. */
export interface OutputStream {
  write(text: string): void;
  readonly isTTY?: boolean;
  readonly columns?: number;
  readonly rows?: number;
}

/** A connected cluster as the commands use it. */
export interface CliCluster {
  readonly port: ClusterPort;
  /** The kubeconfig context, for titles and confirmations. */
  readonly context: string;
  /** API requests so far, when known. */
  requests?(): RequestCounts;
  close(): void;
}

/**
 * Everything the CLI touches outside itself, so tests run commands against an in-memory cluster
 * with captured output, and the real binary wires it to the process.
 */
export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Aborts when the user presses Ctrl-C. */
  readonly signal?: AbortSignal;
  now(): number;
  /** Connects to the cluster (and proves it is reachable, and Kubernetes). */
  openCluster(options: {
    readonly kubeconfig?: string;
    readonly context?: string;
    /** How long requests wait for an API server that stopped answering. */
    readonly apiLossTimeoutMs?: number;
  }): Promise<CliCluster>;
  /** Asks a yes/no question on the terminal. */
  confirm(question: string): Promise<boolean>;
  /** Runs a shell command (the cdk8s app), inheriting stdio; resolves with its exit code. */
  runShell(command: string, env: Readonly<Record<string, string>>): Promise<number>;
}

/** The real process: stdout/stderr, environment, the API server from the kubeconfig. */
export function processIo(signal?: AbortSignal): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal,
    now: () => Date.now(),
    openCluster: async (options) => {
      // Loaded here, not at the top: commands that never touch a cluster (help, graph, synth)
      // must not pay for the Kubernetes client.
      const { KubeCluster } = await import('../runtime');
      const cluster = await KubeCluster.connect(options);
      try {
        await cluster.serverVersion();
      } catch (error) {
        cluster.close();
        throw error;
      }
      return {
        port: cluster,
        context: cluster.transport.connection.context,
        requests: () => cluster.requests.snapshot(),
        close: () => cluster.close(),
      };
    },
    confirm: (question) =>
      new Promise((resolve) => {
        const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
        rl.question(`${question} [y/N] `, (answer) => {
          rl.close();
          resolve(/^y(es)?$/i.test(answer.trim()));
        });
      }),
    runShell: (command, env) =>
      new Promise((resolve, reject) => {
        const child = spawn(command, { shell: true, stdio: 'inherit', env: { ...process.env, ...env } });
        child.on('error', reject);
        child.on('exit', (code, sig) => resolve(code ?? (sig ? 1 : 0)));
      }),
  };
}
