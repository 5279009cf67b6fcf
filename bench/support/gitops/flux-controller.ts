import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { GitOpsBinaries } from './gitops-binaries';
import { applyObjects, Kubectl } from './kubectl';

/** How kustomize-controller runs next to the test cluster; the flags are its own (docs/gitops.md). */
export interface FluxControllerOptions {
  readonly binaries: GitOpsBinaries;
  readonly kubeconfig: string;
  readonly kubectl: Kubectl;
  /** Where Flux's objects (sources, Kustomizations) live: its RUNTIME_NAMESPACE. */
  readonly namespace: string;
  /** The controller's log (JSON lines). */
  readonly logFile: string;
  /**
   * How often a Kustomization whose dependencies are not Ready yet checks again
   * (`--requeue-dependency`, Flux's default 30s); the controller does not watch dependencies.
   * @default '5s'
   */
  readonly requeueDependency?: string;
  /** Kustomizations reconciled at once (`--concurrent`, Flux's default 4). @default 16 */
  readonly concurrent?: number;
}

/**
 * Flux's kustomize-controller as a local process against the test cluster (the way
 * `make run` starts it upstream), with the Flux CRDs installed from the Go module zips.
 */
export class FluxController {
  private exited = false;

  private constructor(
    private readonly process: ChildProcess,
    private readonly logFile: string,
  ) {
    process.on('exit', () => (this.exited = true));
  }

  static async start(options: FluxControllerOptions): Promise<FluxController> {
    const { kubectl } = options;
    await kubectl('apply', '--server-side', '--field-manager=stackwright-e2e', '-f', options.binaries.crdDir);
    await kubectl('wait', '--for=condition=Established', '--timeout=60s', '-f', options.binaries.crdDir);
    await applyObjects(kubectl, 'stackwright-e2e', [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: options.namespace } },
    ]);
    fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
    const log = fs.openSync(options.logFile, 'a');
    const child = spawn(
      options.binaries.kustomizeController,
      [
        '--metrics-addr=0',
        '--health-addr=0',
        '--enable-leader-election=false',
        `--concurrent=${options.concurrent ?? 16}`,
        `--requeue-dependency=${options.requeueDependency ?? '5s'}`,
        '--log-level=info',
      ],
      {
        env: { ...process.env, KUBECONFIG: options.kubeconfig, RUNTIME_NAMESPACE: options.namespace },
        stdio: ['ignore', log, log],
      },
    );
    fs.closeSync(log);
    const controller = new FluxController(child, options.logFile);
    // A bad flag or an unreachable cluster ends the process within moments; say so with its log.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    controller.assertRunning();
    return controller;
  }

  /** Throws with the end of the controller's log when it is no longer running. */
  assertRunning(): void {
    if (this.exited) {
      const tail = fs.readFileSync(this.logFile, 'utf8').split('\n').slice(-20).join('\n');
      throw new Error(`kustomize-controller exited; the end of ${this.logFile}:\n${tail}`);
    }
  }

  /** Stops the controller (SIGTERM, then SIGKILL after 10 s) and waits for it to exit. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
    this.process.kill('SIGTERM');
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(timer);
  }
}
