import * as path from 'path';
import { Worker } from 'worker_threads';

/** What one run of the CLI did. */
export type CliOutcome =
  | {
      readonly kind: 'exited';
      readonly code: number;
      readonly stdout: string;
      readonly stderr: string;
      readonly opened: number;
    }
  | { readonly kind: 'hung'; readonly ms: number }
  | { readonly kind: 'died'; readonly error: string };

interface Answer {
  readonly id: number;
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly opened: number;
}

/** The heap one run may use: a bomb that needs more is a failure, not a dead test run. */
const HEAP_MB = 768;

/**
 * The CLI in a worker thread (test/fuzz/cli-worker.js), one run at a time, each within `boundMs`:
 * a run that hangs (a synchronous loop included) or exhausts the heap is ended by terminating the
 * thread, and the next run starts a fresh one.
 */
export class CliWorker {
  private worker?: Worker;
  private next = 0;

  async run(args: readonly string[], cwd: string, boundMs: number): Promise<CliOutcome> {
    const worker = this.started();
    const id = this.next++;
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    let onMessage: (answer: Answer) => void = () => undefined;
    let onError: (error: Error) => void = () => undefined;
    let onExit: (code: number) => void = () => undefined;
    const outcome = await new Promise<CliOutcome>((resolve) => {
      onMessage = (answer) => {
        if (answer.id === id) resolve({ kind: 'exited', ...answer });
      };
      onError = (error) => resolve({ kind: 'died', error: `${error.name}: ${error.message}` });
      onExit = (code) => resolve({ kind: 'died', error: `the worker exited with ${code}` });
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      timer = setTimeout(() => resolve({ kind: 'hung', ms: Date.now() - started }), boundMs);
      worker.postMessage({ id, args, cwd });
    }).finally(() => clearTimeout(timer));
    worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    if (outcome.kind !== 'exited') await this.stop();
    return outcome;
  }

  /** Ends the worker (a thread stuck in a system call is left behind, unreferenced). */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    worker.unref();
    await Promise.race([worker.terminate(), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
  }

  private started(): Worker {
    if (!this.worker) {
      this.worker = new Worker(path.join(__dirname, 'cli-worker.js'), {
        resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
        stdout: true,
        stderr: true,
      });
      // An error after a run was decided (a terminated thread) must not become an unhandled event.
      this.worker.on('error', () => undefined);
    }
    return this.worker;
  }
}
