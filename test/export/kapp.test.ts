import { parseAllDocuments } from 'yaml';
import { exportKapp, KAPP_DEFAULT_GROUP_KINDS, planUnits } from '../../lib/export';
import { groupKindOf, KubeObject } from '../../lib/graph';
import { referenceGraph, smallCloud } from './fixtures';

describe('kapp export', () => {
  test('the small cloud, file by file', () => {
    expect(Object.fromEntries(exportKapp(smallCloud()).map((f) => [f.path, f.content]))).toMatchSnapshot();
  });

  test('change groups and rules follow the units; kinds of kapp default groups stay unannotated', () => {
    // GIVEN
    const graph = referenceGraph();
    const { units } = planUnits(graph);

    // units made only of kinds kapp applies first anyway (the bootstrap objects, the service user
    // rotations' grants in the agents' namespace: a Role and its binding) have no group to wait for
    const grouped = new Set(
      units
        .filter((u) => u.objects.some((o) => !KAPP_DEFAULT_GROUP_KINDS.has(groupKindOf(o))))
        .map((u) => u.name),
    );
    expect([...units.map((u) => u.name)].filter((n) => !grouped.has(n))).toEqual([
      'bootstrap',
      'ceilometer-ks-user-rotation-agents',
      'nova-ks-user-rotation-agents',
    ]);

    // WHEN
    const tree = exportKapp(graph);

    // THEN
    expect(tree.map((f) => f.path)).toEqual(units.map((u) => `kapp/${u.path}.yaml`).sort());
    for (const unit of units) {
      const objects = parseAllDocuments(
        tree.find((f) => f.path === `kapp/${unit.path}.yaml`)?.content ?? '',
      ).map((d) => d.toJS() as KubeObject);
      expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(
        unit.objects.map((o) => `${o.kind}/${o.metadata.name}`),
      );
      for (const object of objects) {
        const annotations = object.metadata.annotations ?? {};
        const kapp = Object.keys(annotations).filter((k) => k.startsWith('kapp.k14s.io/'));
        if (KAPP_DEFAULT_GROUP_KINDS.has(groupKindOf(object))) {
          expect(kapp).toEqual([]);
          continue;
        }
        expect(annotations['kapp.k14s.io/change-group']).toBe(`stackwright.io/${unit.name}`);
        expect(
          kapp.filter((k) => k.startsWith('kapp.k14s.io/change-rule.')).map((k) => annotations[k]),
        ).toEqual(
          unit.dependsOn
            .filter((d) => grouped.has(d.unit))
            .flatMap((d) => [
              `upsert after upserting stackwright.io/${d.unit}`,
              `delete before deleting stackwright.io/${d.unit}`,
            ]),
        );
      }
    }
  });
});
