/**
 * The local cluster's kube-apiserver as a process a test can stop, freeze and start again with the
 * same command line (same certificates, same etcd): read from the pid file scripts/cluster/up.sh
 * writes and /proc/<pid>/cmdline. Restarting keeps the pid file current, so down.sh still stops it.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export class ApiServerProcess {
  private readonly argv: string[];

  private constructor(
    private readonly runDir: string,
    private pid: number,
  ) {
    this.argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a.length > 0);
  }

  /** The kube-apiserver of the cluster whose kubeconfig is `kubeconfig` (up.sh's run dir). */
  static of(kubeconfig: string): ApiServerProcess {
    const runDir = path.dirname(kubeconfig);
    const pidFile = path.join(runDir, 'pids', 'kube-apiserver.pid');
    if (!existsSync(pidFile)) throw new Error(`${pidFile} does not exist: is the local cluster running?`);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    if (!existsSync(`/proc/${pid}`)) throw new Error(`kube-apiserver (pid ${pid}) is not running`);
    return new ApiServerProcess(runDir, pid);
  }

  /** Kills it at once (SIGKILL): connections are refused until `start()`. */
  kill(): void {
    process.kill(this.pid, 'SIGKILL');
  }

  /** Freezes it (SIGSTOP): it still accepts connections, and answers none, until `resume()`. */
  freeze(): void {
    process.kill(this.pid, 'SIGSTOP');
  }

  resume(): void {
    process.kill(this.pid, 'SIGCONT');
  }

  /** Starts it again with the same command line, in a session of its own, logging where up.sh does. */
  start(): void {
    const log = openSync(path.join(this.runDir, 'logs', 'kube-apiserver.log'), 'a');
    const child = spawn(this.argv[0], this.argv.slice(1), { detached: true, stdio: ['ignore', log, log] });
    closeSync(log);
    child.unref();
    if (child.pid === undefined) throw new Error('could not start kube-apiserver again');
    this.pid = child.pid;
    writeFileSync(path.join(this.runDir, 'pids', 'kube-apiserver.pid'), `${child.pid}\n`);
  }
}
