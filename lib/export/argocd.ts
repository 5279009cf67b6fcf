import { ComponentGraph } from '../graph';
import { DependencyUnit, planUnits } from './dependency-units';
import { cloudName, ExportFile, exportTree, ExportTree, yamlDocuments } from './export-tree';
import { joinRepoPath, normaliseRepoPath } from './repo-path';
import { unitFolderFiles } from './unit-folder';

export interface ArgoCdExportOptions {
  /** URL of the Git repository Argo CD reads, e.g. `https://git.example.com/platform/clusters.git`. */
  readonly repoUrl: string;
  /** Where the export root lives inside that repository, e.g. `clusters/prod/openstack`. */
  readonly repoPath: string;
  /** @default `HEAD` */
  readonly targetRevision?: string;
  /** Namespace Argo CD runs in and its Applications live in. @default `argocd` */
  readonly namespace?: string;
  /** @default `default` */
  readonly project?: string;
  /** @default `https://kubernetes.default.svc`, the cluster Argo CD runs in */
  readonly destinationServer?: string;
}

/** The app of apps: `kubectl apply -f <out>/root-application.yaml` starts it all. */
export const ARGOCD_ROOT_FILE = 'root-application.yaml';
/** The `argocd-cm` patch the waves need (see {@link ARGOCD_HEALTH_CUSTOMIZATIONS}). */
export const ARGOCD_CM_PATCH_FILE = 'argocd-cm-patch.yaml';

/**
 * Health checks Argo CD needs for this layout, as `argocd-cm` keys:
 * - `argoproj.io/Application`: Argo CD (since 1.8) reports no health for an Application, so the
 *   parent would start wave n+1 as soon as the Applications of wave n exist; this check makes an
 *   Application Healthy only once it is synced and its resources are.
 * - `batch/Job`: Healthy only once the Job has completed (Degraded when it failed, Progressing
 *   otherwise, a suspended Job included), so a unit of Jobs — db-sync, bootstrap, credentials — is
 *   Healthy exactly when Stackwright's `completed` edge is satisfied.
 */
export const ARGOCD_HEALTH_CUSTOMIZATIONS: Readonly<Record<string, string>> = {
  'resource.customizations.health.argoproj.io_Application': `hs = {}
hs.status = "Progressing"
hs.message = ""
if obj.status ~= nil and obj.status.health ~= nil and obj.status.sync ~= nil then
  if obj.status.sync.status == "Synced" then
    hs.status = obj.status.health.status
  end
  if obj.status.health.message ~= nil then
    hs.message = obj.status.health.message
  end
end
return hs
`,
  'resource.customizations.health.batch_Job': `hs = { status = "Progressing", message = "waiting for the Job to complete" }
if obj.status ~= nil and obj.status.conditions ~= nil then
  for _, condition in ipairs(obj.status.conditions) do
    if condition.type == "Complete" and condition.status == "True" then
      return { status = "Healthy", message = "completed" }
    end
    if condition.type == "Failed" and condition.status == "True" then
      return { status = "Degraded", message = condition.message or "failed" }
    end
  end
end
return hs
`,
};

/**
 * The component graph as an Argo CD app of apps: the unit folders in `units/` (shared with the
 * Flux layout), one `Application` per unit in `argocd/` whose sync wave is the unit's level (its
 * longest dependency path), the root Application that syncs `argocd/` wave by wave, and the
 * `argocd-cm` health customisations that make a wave wait for the previous one.
 *
 * Waves are level barriers: a unit waits for every unit of the levels before it, not only for its
 * own dependencies (docs/gitops.md compares the cost with per-unit gating).
 */
export function exportArgoCd(graph: ComponentGraph, options: ArgoCdExportOptions): ExportTree {
  const cloud = cloudName(graph);
  const namespace = options.namespace ?? 'argocd';
  const repoPath = normaliseRepoPath(options.repoPath);
  const source = (path: string) => ({
    repoURL: options.repoUrl,
    targetRevision: options.targetRevision ?? 'HEAD',
    path: joinRepoPath(repoPath, path),
  });
  const application = (name: string, path: string, wave: number | undefined) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: {
      name,
      namespace,
      labels: { 'app.kubernetes.io/managed-by': 'stackwright', 'stackwright.io/cloud': cloud },
      ...(wave === undefined ? {} : { annotations: { 'argocd.argoproj.io/sync-wave': String(wave) } }),
    },
    spec: {
      project: options.project ?? 'default',
      source: source(path),
      destination: { server: options.destinationServer ?? 'https://kubernetes.default.svc' },
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        syncOptions: ['ServerSideApply=true'],
        retry: { limit: -1, backoff: { duration: '10s', factor: 2, maxDuration: '3m' } },
      },
    },
  });
  const { units } = planUnits(graph);
  const unitApplication = (unit: DependencyUnit) =>
    application(`${cloud}-${unit.name}`, `units/${unit.path}`, unit.level);

  const files: ExportFile[] = units.flatMap((unit) => [
    ...unitFolderFiles(`units/${unit.path}`, unit.objects),
    { path: `argocd/${unit.name}.yaml`, content: yamlDocuments([unitApplication(unit)]) },
  ]);
  files.push(
    {
      path: 'argocd/kustomization.yaml',
      content: yamlDocuments([
        {
          apiVersion: 'kustomize.config.k8s.io/v1beta1',
          kind: 'Kustomization',
          resources: units.map((u) => `${u.name}.yaml`),
        },
      ]),
    },
    { path: ARGOCD_ROOT_FILE, content: yamlDocuments([application(cloud, 'argocd', undefined)]) },
    {
      path: ARGOCD_CM_PATCH_FILE,
      content: yamlDocuments([
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'argocd-cm', namespace },
          data: ARGOCD_HEALTH_CUSTOMIZATIONS,
        },
      ]),
    },
  );
  return exportTree(files);
}
