/**
 * A release upgrade against a real control plane (kwok nodes; see docs/test-cluster.md): the
 * reference cloud deployed at 2024.2, then its 2025.1 manifests deployed. What the API server adds
 * to the in-memory proofs (test/runtime/upgrade/): it accepts every Job the upgrade derives (names,
 * labels, the immutable pod templates of the Jobs they replace) and the backup CronJob; the real
 * runner, watches and readiness rules gate every phase; nothing starts before what it needs is
 * verified; the new release is recorded; a second deploy writes nothing. The commands themselves
 * do not run here (kwok pods only pretend): the real node's suite runs them
 * (test/e2e-real/upgrade.real.test.ts).
 */
import { App } from 'cdk8s';
import { graphFromManifests, KubeObject } from '../../lib/graph';
import { RunEvent } from '../../lib/runtime/events';
import { readInventory } from '../../lib/runtime/inventory/inventory';
import { deploy } from '../../lib/runtime/operations/deploy';
import { planUpgrade, UpgradePlan, upgradeRolloutGraph } from '../../lib/runtime/upgrade';
import { referenceCloud } from '../../stacks/reference-cloud';
import { scratchNamespaces } from './support/scratch-namespaces';
import { orderViolations } from './runtime/events';

jest.setTimeout(900_000);

const scratch = scratchNamespaces('sw-up');

test('the reference cloud upgrades from 2024.2 to 2025.1 phase by phase, and a second deploy writes nothing', async () => {
  // GIVEN the reference cloud deployed at 2024.2
  const cluster = scratch.cluster();
  const namespace = scratch.fresh('ref');
  const at = (release: '2024.2' | '2025.1') =>
    graphFromManifests(referenceCloud(new App(), 'e2e', { namespace, release }).toJson() as KubeObject[]);
  const first = await deploy(at('2024.2'), { cluster, componentTimeoutMs: 120_000 });
  expect(
    first.rollout.components.filter((c) => c.state !== 'verified').map((c) => `${c.name}: ${c.reason}`),
  ).toEqual([]);

  // WHEN its 2025.1 manifests are deployed
  const target = at('2025.1');
  const events: RunEvent[] = [];
  const result = await deploy(target, {
    cluster,
    componentTimeoutMs: 120_000,
    onEvent: (e) => events.push(e),
  });

  // THEN every unit and component verified, none before what it needs, the new release recorded
  expect(
    result.rollout.components.filter((c) => c.state !== 'verified').map((c) => `${c.name}: ${c.reason}`),
  ).toEqual([]);
  expect(result.upgrade).toMatchObject({ from: '2024.2', to: '2025.1' });
  const plan = planUpgrade(target, { cloudPath: 'e2e', from: '2024.2', to: '2025.1' }) as UpgradePlan;
  expect(orderViolations(upgradeRolloutGraph(target, plan), events)).toEqual([]);
  const started = events.filter((e) => e.type === 'unit-started').map((e) => ('unit' in e ? e.unit : ''));
  for (const unit of plan.units) expect(started).toContain(unit.name);
  expect((await readInventory(cluster, { cloud: 'e2e', namespace }))?.release).toBe('2025.1');

  // WHEN deployed again
  const writesBefore = cluster.requests.snapshot().writes;
  const again = await deploy(target, { cluster });

  // THEN nothing is written; the upgrade's Jobs are named as orphans
  expect(again.ok).toBe(true);
  expect(again.upgrade).toBeUndefined();
  expect(cluster.requests.snapshot().writes - writesBefore).toBe(0);
  expect(again.inventory.orphans).toEqual(
    expect.arrayContaining([expect.stringMatching(/^Job\/.*\/keystone-expand-2025-1-/)]),
  );
});
