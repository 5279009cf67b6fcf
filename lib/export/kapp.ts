import { ComponentGraph, groupKindOf, KubeObject } from '../graph';
import { DependencyUnit, planUnits } from './dependency-units';
import { exportTree, ExportTree, yamlDocuments } from './export-tree';

/** The folder of the export root holding the app's files: `kapp deploy -f <out>/kapp`. */
export const KAPP_FOLDER = 'kapp';

/** The change group of a unit, e.g. `stackwright.io/keystone-api`. */
export function kappChangeGroup(unit: string): string {
  return `stackwright.io/${unit}`;
}

/**
 * Kinds in kapp's built-in change groups that every other namespaced object is applied after
 * (`pod-related`: ConfigMap, Secret, ServiceAccount, ...; `rbac`; `storage`; `storage-class`;
 * namespaces), from kapp's default configuration. A change rule on one of them would make every
 * workload of the cloud wait for that one dependency, serialising the rollout, so they carry no
 * annotations and kapp applies them first, as it always does (docs/gitops.md).
 */
export const KAPP_DEFAULT_GROUP_KINDS: ReadonlySet<string> = new Set([
  'Namespace',
  'ConfigMap',
  'Secret',
  'ServiceAccount',
  'ResourceQuota',
  'LimitRange',
  'networking.k8s.io/NetworkPolicy',
  'scheduling.k8s.io/PriorityClass',
  'node.k8s.io/RuntimeClass',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/RoleBinding',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'storage.k8s.io/StorageClass',
]);

/**
 * The component graph as one kapp app: every unit's objects in `kapp/<unit path>.yaml`, each object
 * (but the kinds of {@link KAPP_DEFAULT_GROUP_KINDS}) in the change group of its unit, with a
 * `change-rule.<n>` pair per dependency (on a unit with a non-empty group): upsert after the dependency's group was upserted (kapp
 * waits for it: workloads available, Jobs complete), delete before it is deleted.
 *
 * @example
 * writeExportTree(exportKapp(graph), 'out');   // then: kapp deploy -a openstack -f out/kapp
 */
export function exportKapp(graph: ComponentGraph): ExportTree {
  const { units } = planUnits(graph);
  // A unit of default-group kinds only (the namespace) has an empty change group: kapp applies
  // its objects first anyway, so rules pointing at it are left out.
  const grouped = new Set(units.filter((u) => u.objects.some(inChangeGroup)).map((u) => u.name));
  return exportTree(
    units.map((unit) => ({
      path: `${KAPP_FOLDER}/${unit.path}.yaml`,
      content: yamlDocuments(unit.objects.map((object) => annotate(object, unit, grouped))),
    })),
  );
}

function inChangeGroup(object: KubeObject): boolean {
  return !KAPP_DEFAULT_GROUP_KINDS.has(groupKindOf(object));
}

function annotate(object: KubeObject, unit: DependencyUnit, grouped: ReadonlySet<string>): KubeObject {
  if (!inChangeGroup(object)) return object;
  const rules = unit.dependsOn
    .filter((d) => grouped.has(d.unit))
    .flatMap((d) => [
      `upsert after upserting ${kappChangeGroup(d.unit)}`,
      `delete before deleting ${kappChangeGroup(d.unit)}`,
    ]);
  return {
    ...object,
    metadata: {
      ...object.metadata,
      annotations: {
        ...object.metadata.annotations,
        'kapp.k14s.io/change-group': kappChangeGroup(unit.name),
        ...Object.fromEntries(rules.map((rule, i) => [`kapp.k14s.io/change-rule.${i}`, rule])),
      },
    },
  };
}
