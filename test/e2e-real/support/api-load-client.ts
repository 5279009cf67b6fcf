import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Keystone } from '../../../constructs/openstack/keystone';
import { uniqueSuffix } from '../../e2e/support/kube';
import { adminClientPod } from './admin-client-pod';
import { applyObject, kubectl, succeededPodLog } from './cli';
import { LoadReport, RequestLine, UnitWindow } from './load-report';

const LOAD_SCRIPT = readFileSync(path.join(__dirname, 'api-load.py'), 'utf8');

/** support/api-load.py run in admin client pods of one cloud (the upgrade suite's and the compute suite's load). */
export interface ApiLoadClient {
  /** Starts `api-load.py load` with the fixtures and extra environment; the pod's name once it runs. */
  start(fixtures: unknown, env?: Readonly<Record<string, string>>): string;
  /** Stops a load pod (it ends its loops) and returns its requests. */
  stop(name: string): RequestLine[];
  /** Runs api-load.py once (fixtures, verify, …) and returns its last line, parsed. */
  once<T>(args: readonly string[]): T;
}

export function apiLoadClient(keystone: Keystone, namespace: string): ApiLoadClient {
  const pod = (prefix: string, args: readonly string[], env: Readonly<Record<string, string>> = {}) => {
    const name = `${prefix}-${uniqueSuffix()}`;
    const manifest = adminClientPod(keystone, name, namespace, ['python3', '-c', LOAD_SCRIPT, ...args]);
    const [container] = manifest.spec.containers;
    container.env.push(...Object.entries(env).map(([variable, value]) => ({ name: variable, value })));
    applyObject(manifest);
    return name;
  };
  /** Waits for a client pod to end; returns its log lines and deletes it. */
  const finish = (name: string, timeout = '300s'): string[] => {
    const lines = succeededPodLog(namespace, name, timeout);
    kubectl('-n', namespace, 'delete', 'pod', name, '--wait=false');
    return lines;
  };
  return {
    start(fixtures, env = {}) {
      const name = pod('api-load', ['load', JSON.stringify(fixtures)], env);
      kubectl('-n', namespace, 'wait', `pod/${name}`, '--for=condition=Ready', '--timeout=300s');
      return name;
    },
    stop(name) {
      kubectl('-n', namespace, 'exec', name, '--', 'touch', '/tmp/stop');
      return finish(name, '120s')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as RequestLine);
    },
    once<T>(args: readonly string[]) {
      const lines = finish(pod('api-once', args));
      return JSON.parse(lines[lines.length - 1]) as T;
    },
  };
}

/** Prints a load report: the total, each phase, and the first failures with the units that ran then. */
export function printLoadReport(
  report: LoadReport,
  windows: readonly UnitWindow[],
  say: (line: string) => void,
): void {
  say(`load: ${JSON.stringify(report.total)}`);
  for (const [phase, counts] of Object.entries(report.phases))
    say(`phase ${phase}: ${JSON.stringify(counts)}`);
  for (const [workload, served] of Object.entries(report.servedWhileRolling))
    say(`served while ${workload} rolled (old and new pods): ${served}`);
  for (const failure of report.failures.slice(0, 20)) {
    const running = windows
      .filter((w) => failure.t >= w.startedAt && failure.t <= w.doneAt)
      .map((w) => w.unit);
    say(`failed: ${JSON.stringify(failure)} while ${running.join(', ') || 'no unit ran'}`);
  }
}
