/**
 * The reference cloud exported with `stackwright export flux` and applied by Flux's real
 * kustomize-controller v1.9.6 (built from Go modules by scripts/gitops/build.sh; the suite fails,
 * saying how to build it, when it is missing), exactly as the README's three commands do it:
 * synth, export into a Git work tree, `kubectl apply` of the root Kustomization.
 *
 * Flux's source-controller cannot be built from the module proxy here (docs/gitops.md), so the
 * work tree is served by a loopback stand-in: a tarball artifact over HTTP on 127.0.0.1 and a
 * `GitRepository` whose status says where it is (bench/support/gitops/loopback-git-source.ts).
 * Everything after that is Flux's own doing.
 *
 * What it proves, from the cluster's side rather than from Flux's status:
 * - the cloud converges, and no component's first object is created before every object of its
 *   gating dependencies is ready (watch events ordered by resourceVersion, support/object-history.ts);
 * - a new revision changing one service (memcached's image) is rolled out by the controller alone:
 *   in the cloud's namespace kustomize-controller writes that one StatefulSet, nothing else
 *   (the API server's audit log), and its pods run the new image.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { stringify } from 'yaml';
import { exportFlux, planUnits } from '../../lib/export';
import { graphFromManifests, KubeObject } from '../../lib/graph';
import { KubeCluster } from '../../lib/runtime/kube/kube-cluster';
import { ReferenceCloudServices } from '../../stacks/reference-cloud-services';
import { referenceCloud } from '../../stacks/reference-cloud';
import { FluxController } from '../../bench/support/gitops/flux-controller';
import { deleteFluxObjects, waitForKustomizations } from '../../bench/support/gitops/flux-objects';
import { GitOpsBinaries, gitOpsBinaries } from '../../bench/support/gitops/gitops-binaries';
import { Kubectl, kubectlFor } from '../../bench/support/gitops/kubectl';
import { LoopbackGitSource } from '../../bench/support/gitops/loopback-git-source';
import { auditedWrites, auditLogOffset, requiredAuditLogFile } from './support/audit-log';
import { kubeconfigFromEnv } from './support/cluster';
import {
  connect,
  deleteTestNamespace,
  E2E_NAMESPACE_LABEL,
  Kube,
  uniqueSuffix,
  waitFor,
} from './support/kube';
import { ObjectHistory } from './support/object-history';

/** Where `flux bootstrap` puts Flux and its GitRepository, and what the export points at by default. */
const FLUX_NAMESPACE = 'flux-system';
/** How kustomize-controller introduces itself to the API server (its user agent's start). */
const CONTROLLER_USER_AGENT = 'kustomize-controller/';
const MEMCACHED_IMAGE = 'docker.io/library/memcached:1.6.39';
const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Wall times, printed at the end for docs/gitops.md. */
const timings: Record<string, number> = {};

describe('Flux applies the exported reference cloud', () => {
  const namespace = `sw-flux-${uniqueSuffix()}`;
  const cloud = (services: ReferenceCloudServices = {}) =>
    referenceCloud(new App(), 'openstack', {
      namespace,
      labels: { [E2E_NAMESPACE_LABEL]: 'true' },
      services,
    }).toJson() as KubeObject[];
  const objects = cloud();
  const graph = graphFromManifests(objects);
  const units = planUnits(graph).units.length;
  const namespaced = objects.filter((o) => o.metadata.namespace !== undefined);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-flux-'));
  const repo = path.join(work, 'repo');
  const out = path.join(repo, 'clusters', 'e2e');
  let binaries: GitOpsBinaries;
  let kube: Kube;
  let kubectl: Kubectl;
  let cluster: KubeCluster;
  let controller: FluxController | undefined;
  let source: LoopbackGitSource | undefined;
  let history: ObjectHistory | undefined;

  /** `npx cdk8s synth` then `stackwright export flux` into the work tree: the README's first two commands. */
  const synthAndExport = (manifests: readonly KubeObject[], name: string) => {
    const dist = path.join(work, name);
    fs.mkdirSync(dist, { recursive: true });
    fs.writeFileSync(path.join(dist, 'cloud.k8s.yaml'), manifests.map((o) => stringify(o)).join('---\n'));
    execFileSync(
      process.execPath,
      [path.join(REPO_ROOT, 'bin', 'stackwright.js'), 'export', 'flux', dist, '--out', out],
      {
        cwd: repo,
        stdio: 'pipe',
      },
    );
  };

  beforeAll(async () => {
    // First, so missing binaries fail the suite before anything touches the cluster.
    binaries = gitOpsBinaries();
    kube = connect();
    const bin = process.env.STACKWRIGHT_CLUSTER_BIN;
    if (!bin)
      throw new Error(
        'STACKWRIGHT_CLUSTER_BIN is not set: run with jest.e2e.config.js against the local cluster',
      );
    kubectl = kubectlFor(path.join(bin, 'kubectl'), kube.kubeconfigPath);
    cluster = await KubeCluster.connect({ kubeconfig: kube.kubeconfigPath });
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    controller = await FluxController.start({
      binaries,
      kubeconfig: kubeconfigFromEnv(),
      kubectl,
      namespace: FLUX_NAMESPACE,
      logFile: path.join(process.env.STACKWRIGHT_CLUSTER_LOGS ?? work, 'kustomize-controller.log'),
    });
    source = await LoopbackGitSource.start(kubectl, FLUX_NAMESPACE, 'flux-system');
  }, 5 * 60_000);

  afterAll(async () => {
    history?.stop();
    await controller?.stop();
    await source?.stop();
    if (kubectl) await deleteFluxObjects(kubectl, FLUX_NAMESPACE);
    if (kube) for (const ns of [namespace, `${namespace}-agents`]) await deleteTestNamespace(kube, ns);
    cluster?.close();
    fs.rmSync(work, { recursive: true, force: true });
    process.stderr.write(`[e2e] flux wall times (s): ${JSON.stringify(timings)}\n`);
  }, 5 * 60_000);

  test(
    'converges, each component created only after its gating dependencies are ready',
    async () => {
      // GIVEN every kind of the cloud watched in its namespaces from before the first write
      history = await ObjectHistory.record(cluster, objects);
      synthAndExport(objects, 'dist');
      const revision = await (source as LoopbackGitSource).publish(repo);

      // WHEN the root Kustomization is applied, and nothing else is done
      const started = Date.now();
      await kubectl('apply', '-f', path.join(out, 'root-kustomization.yaml'));
      await waitForKustomizations(kubectl, controller as FluxController, {
        namespace: FLUX_NAMESPACE,
        expected: units + 1,
        revision,
        timeoutMs: 20 * 60_000,
      });
      timings.converge = (Date.now() - started) / 1000;

      // THEN the cluster saw every object, none of a component before its gating dependencies were
      // ready (workloads) or created (everything else), and every workload ended ready
      expect(history.unseen(namespaced)).toEqual([]);
      expect(history.orderViolations(graph.components)).toEqual([]);
      expect(history.neverReady(namespaced)).toEqual([]);
    },
    25 * 60_000,
  );

  test(
    "a new revision changing one service's image is rolled out by the controller alone",
    async () => {
      // GIVEN
      const audit = requiredAuditLogFile();
      const changed = cloud({ memcached: { image: MEMCACHED_IMAGE } });
      synthAndExport(changed, 'dist-changed');
      const offset = auditLogOffset(audit);

      // WHEN the new revision is published (a `git push`)
      const started = Date.now();
      const revision = await (source as LoopbackGitSource).publish(repo);
      await waitForKustomizations(kubectl, controller as FluxController, {
        namespace: FLUX_NAMESPACE,
        expected: units + 1,
        revision,
        timeoutMs: 15 * 60_000,
      });
      timings.change = (Date.now() - started) / 1000;

      // THEN in the cloud's namespace the controller wrote the memcached StatefulSet and nothing
      // else (the audit backend writes asynchronously, hence the pause)
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect([...new Set(auditedWrites(audit, offset, CONTROLLER_USER_AGENT, namespace))]).toEqual([
        'patch statefulsets memcached',
      ]);
      // AND the StatefulSet rolled: every pod runs the new image
      const sts = await waitFor(
        'the memcached StatefulSet to finish its rollout',
        async () => {
          const current = await kube.apps.readNamespacedStatefulSet({ name: 'memcached', namespace });
          return current.status?.currentRevision === current.status?.updateRevision &&
            current.status?.updatedReplicas === current.spec?.replicas
            ? current
            : undefined;
        },
        { timeoutMs: 120_000, intervalMs: 1000 },
      );
      const selector = Object.entries(sts.spec?.selector.matchLabels ?? {})
        .map(([key, value]) => `${key}=${value}`)
        .join(',');
      const pods = await kube.core.listNamespacedPod({ namespace, labelSelector: selector });
      expect(pods.items.map((p) => p.spec?.containers[0].image)).toEqual(
        Array(sts.spec?.replicas).fill(MEMCACHED_IMAGE),
      );
      // AND the export of the changed cloud differs from the first in that one object only
      const before = exportFlux(graph, { repoPath: 'clusters/e2e' });
      const after = exportFlux(graphFromManifests(changed), { repoPath: 'clusters/e2e' });
      expect(after.filter((f, i) => f.content !== before[i].content).map((f) => f.path)).toEqual([
        'units/memcached/objects.yaml',
      ]);
    },
    20 * 60_000,
  );
});
