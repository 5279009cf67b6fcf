import { KubeObject } from '../graph';
import { ExportFile, yamlDocuments } from './export-tree';

/** The objects file of a unit folder; `kustomization.yaml` lists it. */
export const UNIT_OBJECTS_FILE = 'objects.yaml';

/**
 * A unit's folder as kustomize (Flux, Argo CD) reads it: the objects in synthesis order and a
 * `kustomization.yaml` naming them, so nothing else in the folder is ever applied by accident.
 */
export function unitFolderFiles(folder: string, objects: readonly KubeObject[]): ExportFile[] {
  return [
    { path: `${folder}/${UNIT_OBJECTS_FILE}`, content: yamlDocuments(objects) },
    {
      path: `${folder}/kustomization.yaml`,
      content: yamlDocuments([
        {
          apiVersion: 'kustomize.config.k8s.io/v1beta1',
          kind: 'Kustomization',
          resources: [UNIT_OBJECTS_FILE],
        },
      ]),
    },
  ];
}
