import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';
import { ComponentGraph, componentLevels } from '../../lib/graph';

const run = promisify(execFile);

/**
 * The baseline most runbooks use: in dependency order, one component at a time,
 * `kubectl apply --server-side -f <component>` then `kubectl wait` for its Deployment to be Available.
 */
export async function kubectlSequential(
  kubectl: string,
  kubeconfig: string,
  graph: ComponentGraph,
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-kubectl-'));
  const env = {
    ...process.env,
    KUBECONFIG: kubeconfig,
    KUBECACHEDIR: path.join(os.homedir(), '.kube', 'cache'),
  };
  const k = (...args: string[]) => run(kubectl, args, { env, maxBuffer: 16 * 1024 * 1024 });
  try {
    const bootstrap = path.join(dir, '00-bootstrap.json');
    fs.writeFileSync(bootstrap, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: graph.bootstrap }));
    await k('apply', '--server-side', '--field-manager=kubectl-bench', '-f', bootstrap);
    const byName = new Map(graph.components.map((c) => [c.name, c]));
    for (const name of componentLevels(graph).flat()) {
      const component = byName.get(name);
      if (!component) continue;
      const file = path.join(dir, `${name}.json`);
      fs.writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: component.objects }));
      await k('apply', '--server-side', '--field-manager=kubectl-bench', '-f', file);
      for (const o of component.objects.filter((x) => x.kind === 'Deployment')) {
        await k(
          'wait',
          '--for=condition=Available',
          '--timeout=300s',
          '-n',
          o.metadata.namespace ?? 'default',
          `deployment/${o.metadata.name}`,
        );
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Warms kubectl's discovery cache, so the baseline is not charged for it on every call. */
export async function warmKubectl(kubectl: string, kubeconfig: string): Promise<string> {
  const env = { ...process.env, KUBECONFIG: kubeconfig };
  await run(kubectl, ['api-resources'], { env, maxBuffer: 16 * 1024 * 1024 });
  const { stdout } = await run(kubectl, ['version', '--client', '-o', 'json'], { env });
  return (
    (JSON.parse(stdout) as { clientVersion?: { gitVersion?: string } }).clientVersion?.gitVersion ?? 'unknown'
  );
}
