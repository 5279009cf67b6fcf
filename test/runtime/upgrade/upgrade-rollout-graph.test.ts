import { App } from 'cdk8s';
import { ComponentGraph, graphFromManifests, KubeObject } from '../../../lib/graph';
import { UnitScheduler } from '../../../lib/runtime/engine/scheduler';
import { unitGraphOf } from '../../../lib/runtime/engine/unit-graph';
import {
  BACKUP_UNIT,
  planUpgrade,
  renderUpgradePlan,
  UpgradePlan,
  UpgradePlanError,
  upgradeRolloutGraph,
} from '../../../lib/runtime/upgrade';
import { synthObjects } from '../../../lib/testing';
import { minimalControlPlane } from '../../../stacks/minimal-control-plane';
import { referenceCloud } from '../../../stacks/reference-cloud';
import { multiCellCloud } from '../../../examples/multi-cell-cloud';

/** The clouds the package ships, at the target release, as the runtime reads their manifests. */
const clouds: [string, () => ComponentGraph][] = [
  [
    'the minimal control plane',
    () =>
      graphFromManifests(synthObjects(minimalControlPlane(new App(), 'prod', { namespace: 'openstack' }))),
  ],
  ['the reference cloud', () => graphFromManifests(synthObjects(referenceCloud(new App(), 'prod')))],
  ['a cloud with two Nova cells', () => graphFromManifests(synthObjects(multiCellCloud(new App(), 'prod')))],
];

/** The components of `graph` holding a `cell-schema-sync` template of `service`. */
const furtherCells = (graph: ComponentGraph, service: string) =>
  graph.components.filter(
    (c) =>
      c.service === service &&
      c.objects.some(
        (o) => o.metadata.annotations?.['stackwright.io/upgrade-template'] === 'cell-schema-sync',
      ),
  );

const planOf = (graph: ComponentGraph) =>
  planUpgrade(graph, { cloudPath: 'prod', from: '2024.2', to: '2025.1' }) as UpgradePlan;

/** Every component in the order a one-at-a-time rollout of the graph starts them. */
function startOrder(graph: ComponentGraph): string[] {
  const scheduler = new UnitScheduler(unitGraphOf(graph), { concurrency: 1 });
  const started: string[] = [];
  for (let next = scheduler.nextRunnable(); next.length > 0; next = scheduler.nextRunnable()) {
    scheduler.markStarted(next[0]);
    started.push(next[0]);
    scheduler.markDone(next[0]);
  }
  return started;
}

describe.each(clouds)('upgradeRolloutGraph of %s', (_name, graphOf) => {
  const graph = graphOf();
  const plan = planOf(graph);
  const upgrade = upgradeRolloutGraph(graph, plan);
  const order = startOrder(upgrade);
  const at = (name: string) => {
    const index = order.indexOf(name);
    if (index < 0) throw new Error(`${name} never started; started: ${order.join(', ')}`);
    return index;
  };

  test('is a closed, acyclic graph holding every component and every unit of the plan', () => {
    // THEN every component and unit starts exactly once
    expect(order.length).toBe(graph.components.length + plan.units.length);
    expect(new Set(order).size).toBe(order.length);
  });

  test("runs no Job of an upgraded service before the backup, and a service's schema Jobs only after its last step", () => {
    // GIVEN the Jobs of the upgraded services
    const upgraded = new Set(plan.serviceOrder);
    const jobs = graph.components.filter(
      (c) => upgraded.has(c.service) && c.objects.some((o) => o.kind === 'Job'),
    );
    expect(jobs.length).toBeGreaterThan(5);
    // THEN each starts after the backup; Keystone's schema sync after Keystone's contract
    for (const job of jobs)
      expect({ job: job.name, afterBackup: at(job.name) > at(BACKUP_UNIT) }).toEqual({
        job: job.name,
        afterBackup: true,
      });
    expect(at('keystone-db-sync')).toBeGreaterThan(at('keystone-contract'));
  });

  test('rolls each workload after its service expanded and before its contract', () => {
    // THEN for every service with both
    for (const roll of plan.units.filter((u) => u.phase === 'roll')) {
      const expand = plan.units.find((u) => u.service === roll.service && u.phase === 'expand');
      const contract = plan.units.find((u) => u.service === roll.service && u.phase === 'contract');
      for (const workload of roll.components) {
        if (expand) expect(at(workload)).toBeGreaterThan(at(expand.name));
        if (contract) expect(at(workload)).toBeLessThan(at(contract.name));
      }
    }
  });

  test("gives each command unit one Job on its service's image, and one per further cell, named by release and content", () => {
    // THEN
    for (const unit of plan.units.filter((u) => u.phase !== 'roll')) {
      const component = upgrade.components.find((c) => c.name === unit.name);
      const cells = unit.cellCommands.length > 0 ? furtherCells(graph, unit.service) : [];
      expect(component?.objects).toHaveLength(1 + cells.length);
      const [job, ...cellJobs] = component?.objects ?? [];
      expect(job?.metadata.name).toMatch(new RegExp(`^${unit.name}-2025-1-[0-9a-f]{8}$`));
      expect(cellJobs.map((j) => j.metadata.name.replace(/-2025-1-[0-9a-f]{8}$/, ''))).toEqual(
        cells.map((c) => `${unit.name}-${c.name.slice(unit.service.length + 1)}`),
      );
      if (unit.service !== 'cloud') {
        for (const each of [job, ...cellJobs])
          expect(JSON.stringify(each?.spec)).toContain(`/${unit.service}:2025.1"`);
      }
    }
  });

  test("runs each command unit on the target's options: it mounts no ConfigMap that is applied only later", () => {
    // GIVEN the ConfigMaps of the manifests and the component that applies each
    const owner = new Map(
      upgrade.components.flatMap((c) =>
        c.objects.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, c.name] as const),
      ),
    );
    // THEN a unit's Job mounts only ConfigMaps applied before it starts (today: none at all, its
    // options reach it as environment variables of its own spec, the target manifests')
    for (const unit of plan.units.filter((u) => u.phase !== 'roll')) {
      const job = upgrade.components.find((c) => c.name === unit.name)?.objects[0];
      const pod = (job?.spec as { template: { spec: { volumes?: { configMap?: { name: string } }[] } } })
        .template.spec;
      for (const name of (pod.volumes ?? []).flatMap((v) => (v.configMap ? [v.configMap.name] : []))) {
        const by = owner.get(name);
        expect({ unit: unit.name, name, appliedBefore: by !== undefined && at(by) < at(unit.name) }).toEqual({
          unit: unit.name,
          name,
          appliedBefore: true,
        });
      }
    }
  });
});

describe('upgrading a cloud with two Nova cells', () => {
  // GIVEN
  const graph = graphFromManifests(synthObjects(multiCellCloud(new App(), 'prod')));
  const plan = planOf(graph);
  const upgrade = upgradeRolloutGraph(graph, plan);
  const order = startOrder(upgrade);
  const unitJobs = (name: string) => upgrade.components.find((c) => c.name === name)?.objects ?? [];
  const script = (job: KubeObject) =>
    (job.spec as { template: { spec: { containers: { command: string[] }[] } } }).template.spec.containers[0]
      .command[2];
  const env = (job: KubeObject) =>
    Object.fromEntries(
      (
        job.spec as { template: { spec: { containers: { env: { name: string; value?: string }[] }[] } } }
      ).template.spec.containers[0].env.map((e) => [e.name, e.value]),
    );

  test('migrates cell 2 in its own pod: its schema in the expand, its data with the online data migrations', () => {
    // THEN cell 1 and cell0 are the API template's; cell 2 has a Job of its own in both units
    expect(furtherCells(graph, 'nova').map((c) => c.name)).toEqual(['nova-cell2-db-sync']);
    for (const [unit, command] of [
      ['nova-expand', 'nova-manage db sync --local_cell'],
      ['nova-online-data-migrations', 'nova-manage db online_data_migrations --max-count 1000'],
    ]) {
      const [own, cell2] = unitJobs(unit);
      expect(cell2.metadata.name).toMatch(new RegExp(`^${unit}-cell2-db-sync-2025-1-[0-9a-f]{8}$`));
      expect(script(cell2)).toContain(command);
      expect(script(own)).not.toContain('--local_cell');
      // … on cell 2's database, with the API database the data migrations also read
      expect(env(cell2).OS_DATABASE__CONNECTION).toMatch(/\/nova_cell2\?/);
      expect(env(cell2).OS_API_DATABASE__CONNECTION).toMatch(/\/nova_api\?/);
    }
    // … and the checks run once, in the API template's pod
    expect(unitJobs('nova-pre-check')).toHaveLength(1);
    expect(unitJobs('nova-post-check')).toHaveLength(1);
  });

  test("runs cell 2's own sync Job again only after Nova's last step, like the API database's", () => {
    // THEN
    const lastNovaStep = plan.units.filter((u) => u.service === 'nova' && u.phase === 'roll').pop()
      ?.name as string;
    expect(order.indexOf('nova-cell2-db-sync')).toBeGreaterThan(order.indexOf(lastNovaStep));
    expect(order.indexOf('nova-api-db-sync')).toBeGreaterThan(order.indexOf(lastNovaStep));
  });

  test("prints the further cells' steps in the plan", () => {
    // THEN
    expect(renderUpgradePlan(plan)).toContain(
      '  nova-expand: nova-manage api_db sync; nova-manage db sync; in each further cell: nova-manage db sync --local_cell (after upgrade-backup, keystone-contract, neutron-contract, placement-roll)',
    );
  });
});

describe('upgradeRolloutGraph refuses', () => {
  test('a unit name a component already has, naming the cloud and the fix', () => {
    // GIVEN manifests with a component called keystone-expand
    const graph = clouds[0][1]();
    const renamed: ComponentGraph = {
      ...graph,
      components: graph.components.map((c) =>
        c.name === 'memcached' ? { ...c, name: 'keystone-expand' } : c,
      ),
    };
    // WHEN / THEN
    expect(() => upgradeRolloutGraph(renamed, planOf(graph))).toThrow(UpgradePlanError);
    expect(() => upgradeRolloutGraph(renamed, planOf(graph))).toThrow(
      '[prod] the upgrade unit keystone-expand has the name of a component of the manifests; rename the component',
    );
  });
});
