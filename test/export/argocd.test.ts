import { parse } from 'yaml';
import { ARGOCD_ROOT_FILE, exportArgoCd, planUnits } from '../../lib/export';
import { referenceGraph, smallCloud } from './fixtures';

const options = {
  repoUrl: 'https://git.example.com/platform/clusters.git',
  repoPath: 'clusters/prod/openstack',
};

describe('Argo CD export', () => {
  test('the small cloud, file by file', () => {
    expect(
      Object.fromEntries(exportArgoCd(smallCloud(), options).map((f) => [f.path, f.content])),
    ).toMatchSnapshot();
  });

  test("one Application per unit whose sync wave is the unit's level, and an app of apps", () => {
    // GIVEN
    const graph = referenceGraph();
    const { units } = planUnits(graph);

    // WHEN
    const tree = exportArgoCd(graph, options);
    const content = (path: string) => tree.find((f) => f.path === path)?.content ?? '';

    // THEN every dependency of a unit is in an earlier wave
    for (const unit of units) {
      const application = parse(content(`argocd/${unit.name}.yaml`));
      expect(application.metadata.annotations['argocd.argoproj.io/sync-wave']).toBe(String(unit.level));
      expect(application.spec.source.path).toBe(`clusters/prod/openstack/units/${unit.path}`);
      for (const dependency of unit.dependsOn) {
        expect(units.find((u) => u.name === dependency.unit)?.level).toBeLessThan(unit.level);
      }
    }
    // AND the root syncs the folder of Applications, without a wave of its own
    expect(parse(content(ARGOCD_ROOT_FILE))).toMatchObject({
      kind: 'Application',
      metadata: { name: 'reference', namespace: 'argocd' },
      spec: { source: { path: 'clusters/prod/openstack/argocd', repoURL: options.repoUrl } },
    });
    expect(parse(content(ARGOCD_ROOT_FILE)).metadata.annotations).toBeUndefined();
  });
});
