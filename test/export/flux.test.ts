import { parse, parseAllDocuments } from 'yaml';
import { exportFlux, ExportTree, FLUX_ROOT_FILE, planUnits } from '../../lib/export';
import { referenceGraph, smallCloud } from './fixtures';

interface FluxKustomization {
  metadata: { name: string };
  spec: { dependsOn?: { name: string }[]; path: string; wait: boolean; prune: boolean };
}

const file = (tree: ExportTree, path: string) => {
  const found = tree.find((f) => f.path === path);
  if (!found) throw new Error(`no ${path} in the export`);
  return found.content;
};

describe('Flux export', () => {
  test('the small cloud, file by file', () => {
    // WHEN
    const tree = exportFlux(smallCloud(), { repoPath: './clusters/prod/' });

    // THEN
    expect(Object.fromEntries(tree.map((f) => [f.path, f.content]))).toMatchSnapshot();
  });

  test('one Kustomization per unit, waiting, pruning, dependsOn along the gating edges', () => {
    // GIVEN
    const graph = referenceGraph();
    const { units } = planUnits(graph);

    // WHEN
    const tree = exportFlux(graph, { repoPath: 'clusters/prod/openstack' });

    // THEN every unit has its folder with a kustomization.yaml and its Flux Kustomization
    for (const unit of units) {
      expect(parse(file(tree, `units/${unit.path}/kustomization.yaml`))).toEqual({
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        resources: ['objects.yaml'],
      });
      const objects = parseAllDocuments(file(tree, `units/${unit.path}/objects.yaml`)).map((d) => d.toJS());
      expect(objects).toEqual(unit.objects);
      const kustomization = parse(file(tree, `flux/${unit.name}.yaml`)) as FluxKustomization;
      expect(kustomization.metadata.name).toBe(`reference-${unit.name}`);
      expect(kustomization.spec.path).toBe(`./clusters/prod/openstack/units/${unit.path}`);
      expect(kustomization.spec.wait).toBe(true);
      expect(kustomization.spec.prune).toBe(true);
      expect((kustomization.spec.dependsOn ?? []).map((d) => d.name)).toEqual(
        unit.dependsOn.map((d) => `reference-${d.unit}`),
      );
    }
    // AND the root applies the unit Kustomizations, which flux/kustomization.yaml lists
    expect(parse(file(tree, FLUX_ROOT_FILE))).toMatchObject({
      kind: 'Kustomization',
      metadata: { name: 'reference', namespace: 'flux-system' },
      spec: {
        path: './clusters/prod/openstack/flux',
        prune: true,
        sourceRef: { kind: 'GitRepository', name: 'flux-system' },
      },
    });
    expect(parse(file(tree, 'flux/kustomization.yaml')).resources).toEqual(
      units.map((u) => `${u.name}.yaml`),
    );
    // AND the export is deterministic
    expect(exportFlux(referenceGraph(), { repoPath: 'clusters/prod/openstack' })).toEqual(tree);
  });

  test('a repository path that leaves the repository is rejected with an example', () => {
    expect(() => exportFlux(smallCloud(), { repoPath: '../elsewhere' })).toThrow(
      'repository path "../elsewhere" must be relative to the repository root without "..", e.g. clusters/prod/openstack',
    );
  });
});
