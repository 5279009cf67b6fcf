import { ComponentGraph } from '../graph';
import { DependencyUnit, planUnits } from './dependency-units';
import { cloudName, ExportFile, exportTree, ExportTree, yamlDocuments } from './export-tree';
import { joinRepoPath, normaliseRepoPath } from './repo-path';
import { unitFolderFiles } from './unit-folder';

/** The Flux source the Kustomizations read the exported tree from. */
export interface FluxSourceRef {
  readonly kind: 'GitRepository' | 'OCIRepository' | 'Bucket';
  readonly name: string;
  /** @default the Kustomizations' namespace */
  readonly namespace?: string;
}

export interface FluxExportOptions {
  /**
   * Where the export root lives inside the source's tree (the Git repository), e.g.
   * `clusters/prod/openstack`; every Kustomization's `spec.path` starts with it.
   */
  readonly repoPath: string;
  /** @default GitRepository `flux-system`, what `flux bootstrap` creates */
  readonly sourceRef?: FluxSourceRef;
  /** Namespace of the Kustomization objects. @default `flux-system` */
  readonly namespace?: string;
  /** How often Flux re-applies each unit to undo drift. @default `10m` */
  readonly interval?: string;
  /** How long a unit may take to become Ready (workloads available, Jobs complete). @default `10m` */
  readonly timeout?: string;
  /** How soon a failed unit is retried. @default `1m` */
  readonly retryInterval?: string;
}

/** Where the root Kustomization is written: `kubectl apply -f <out>/root-kustomization.yaml` starts it all. */
export const FLUX_ROOT_FILE = 'root-kustomization.yaml';

const KUSTOMIZE_TOOLKIT = 'kustomize.toolkit.fluxcd.io/v1';

/**
 * The component graph as a Flux layout: the unit's objects in `units/<path>/` (with a
 * `kustomization.yaml` each), one Flux `Kustomization` per unit in `flux/`, with `dependsOn` along
 * the gating edges and `wait: true` so a unit is Ready only when its workloads are available and
 * its Jobs complete, and the root Kustomization that applies `flux/` ({@link FLUX_ROOT_FILE}).
 *
 * @example
 * const tree = exportFlux(graphFromManifests(cloud.toJson()), { repoPath: 'clusters/prod/openstack' });
 * writeExportTree(tree, 'clusters/prod/openstack');
 */
export function exportFlux(graph: ComponentGraph, options: FluxExportOptions): ExportTree {
  const cloud = cloudName(graph);
  const namespace = options.namespace ?? 'flux-system';
  const repoPath = normaliseRepoPath(options.repoPath);
  const sourceRef = options.sourceRef ?? { kind: 'GitRepository', name: 'flux-system' };
  const name = (unit: string) => dnsLabel(`${cloud}-${unit}`);
  const common = {
    interval: options.interval ?? '10m',
    retryInterval: options.retryInterval ?? '1m',
    timeout: options.timeout ?? '10m',
    sourceRef: { ...sourceRef },
  };

  const { units } = planUnits(graph);
  const unitKustomization = (unit: DependencyUnit) => ({
    apiVersion: KUSTOMIZE_TOOLKIT,
    kind: 'Kustomization',
    metadata: {
      name: name(unit.name),
      namespace,
      labels: { 'app.kubernetes.io/managed-by': 'stackwright', 'stackwright.io/cloud': cloud },
      annotations: { 'stackwright.io/unit-components': unit.components.join(',') || '(bootstrap objects)' },
    },
    spec: {
      ...(unit.dependsOn.length > 0
        ? { dependsOn: unit.dependsOn.map((d) => ({ name: name(d.unit) })) }
        : {}),
      ...common,
      path: `./${joinRepoPath(repoPath, `units/${unit.path}`)}`,
      prune: true,
      wait: true,
    },
  });

  const files: ExportFile[] = units.flatMap((unit) => [
    ...unitFolderFiles(`units/${unit.path}`, unit.objects),
    { path: `flux/${unit.name}.yaml`, content: yamlDocuments([unitKustomization(unit)]) },
  ]);
  files.push({
    path: 'flux/kustomization.yaml',
    content: yamlDocuments([
      {
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        resources: units.map((u) => `${u.name}.yaml`),
      },
    ]),
  });
  files.push({
    path: FLUX_ROOT_FILE,
    content: yamlDocuments([
      {
        apiVersion: KUSTOMIZE_TOOLKIT,
        kind: 'Kustomization',
        metadata: {
          name: dnsLabel(cloud),
          namespace,
          labels: { 'app.kubernetes.io/managed-by': 'stackwright', 'stackwright.io/cloud': cloud },
        },
        // Applies the unit Kustomizations only; they do the ordering and the waiting.
        spec: { ...common, path: `./${joinRepoPath(repoPath, 'flux')}`, prune: true, wait: false },
      },
    ]),
  });
  return exportTree(files);
}

function dnsLabel(name: string): string {
  if (name.length > 63) {
    throw new Error(
      `Flux object name ${name} is longer than 63 characters; shorten the cloud or component name`,
    );
  }
  return name;
}
