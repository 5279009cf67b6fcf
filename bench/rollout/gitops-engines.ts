import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { performance } from 'perf_hooks';
import { promisify } from 'util';
import { exportFlux, exportKapp, FLUX_ROOT_FILE, planUnits, writeExportTree } from '../../lib/export';
import { ComponentGraph } from '../../lib/graph';
import { FluxController } from '../support/gitops/flux-controller';
import { waitForKustomizations } from '../support/gitops/flux-objects';
import { GitOpsBinaries } from '../support/gitops/gitops-binaries';
import { kappDeployArgs } from '../support/gitops/kapp-deploy';
import { applyObjects, Kubectl } from '../support/gitops/kubectl';
import { LoopbackGitSource } from '../support/gitops/loopback-git-source';

const run = promisify(execFile);

/** The user agents the audit log counts for each engine. */
export const FLUX_USER_AGENT = 'kustomize-controller/';
export const KAPP_USER_AGENT = 'kapp/';

/**
 * One rollout through Flux: the graph exported with `exportFlux`, served by the loopback source in
 * `fluxNamespace`, started by applying the root Kustomization; done when every Kustomization is
 * Ready at the published revision. Resolves with the time from that apply to the last Ready (the
 * export and the publication, a `git push`, are not counted). The namespace (and with it the
 * Kustomizations, whose finalizers the running controller handles) is the caller's to delete.
 */
export async function fluxRollout(
  kubectl: Kubectl,
  controller: FluxController,
  graph: ComponentGraph,
  fluxNamespace: string,
): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-flux-'));
  await applyObjects(kubectl, 'stackwright-bench', [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: fluxNamespace } },
  ]);
  const source = await LoopbackGitSource.start(kubectl, fluxNamespace, 'bench');
  try {
    const tree = exportFlux(graph, {
      repoPath: '',
      namespace: fluxNamespace,
      sourceRef: { kind: 'GitRepository', name: 'bench' },
    });
    writeExportTree(tree, dir);
    const revision = await source.publish(dir);
    const started = performance.now();
    await kubectl('apply', '-f', path.join(dir, FLUX_ROOT_FILE));
    await waitForKustomizations(kubectl, controller, {
      namespace: fluxNamespace,
      expected: planUnits(graph).units.length + 1,
      revision,
      timeoutMs: 15 * 60_000,
    });
    return performance.now() - started;
  } finally {
    await source.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One rollout through kapp: the graph exported with `exportKapp`, deployed as one app whose record
 * lives in `default`, with as many applies and waits at once as the graph is wide (kapp's defaults
 * are 5 and 5), so the comparison measures ordering, not a concurrency cap.
 */
export async function kappRollout(
  binaries: GitOpsBinaries,
  kubeconfig: string,
  graph: ComponentGraph,
  app: string,
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-kapp-'));
  const concurrency = String(Math.max(8, graph.components.length));
  try {
    writeExportTree(exportKapp(graph), dir);
    await run(
      binaries.kapp,
      kappDeployArgs(app, dir, kubeconfig, [
        `--apply-concurrency=${concurrency}`,
        `--wait-concurrency=${concurrency}`,
        '--wait-timeout=15m',
      ]),
      { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, KAPP_FORCE_COLOR: 'false' } },
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Forgets a kapp app whose objects are already gone (its record in `default`). */
export async function forgetKappApp(
  binaries: GitOpsBinaries,
  kubeconfig: string,
  app: string,
): Promise<void> {
  await run(
    binaries.kapp,
    ['delete', '--app', app, '--namespace', 'default', '--yes', `--kubeconfig=${kubeconfig}`],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
}
