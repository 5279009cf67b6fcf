import { App } from 'cdk8s';
import { LIBVIRT_IMAGE_TAG } from '../../../constructs/openstack';
import { graphFromManifests } from '../../../lib/graph';
import { UnitScheduler } from '../../../lib/runtime/engine/scheduler';
import { unitGraphOf } from '../../../lib/runtime/engine/unit-graph';
import {
  BACKUP_UNIT,
  imagesOf,
  planUpgrade,
  renderUpgradePlan,
  UpgradePlan,
  UpgradePlanError,
  upgradeRolloutGraph,
} from '../../../lib/runtime/upgrade';
import { synthObjects } from '../../../lib/testing';
import { minimalControlPlane } from '../../../stacks/minimal-control-plane';

// GIVEN the minimal control plane's manifests at the target release, as the runtime reads them
const graph = graphFromManifests(
  synthObjects(minimalControlPlane(new App(), 'prod', { namespace: 'openstack', release: '2025.1' })),
);
const plan = planUpgrade(graph, { cloudPath: 'prod', from: '2024.2', to: '2025.1' }) as UpgradePlan;
const unitNamed = (name: string) => {
  const found = plan.units.find((u) => u.name === name);
  if (!found) throw new Error(`no unit ${name}; units: ${plan.units.map((u) => u.name).join(', ')}`);
  return found;
};

const unitNames = new Set(plan.units.map((u) => u.name));

/**
 * Runs the upgrade's rollout graph through the runtime's scheduler, verifying each component as it
 * starts; returns the plan's units in the order they started, and those blocked by `failing`.
 */
function startOrder(failing?: string): { started: string[]; blocked: string[] } {
  const scheduler = new UnitScheduler(unitGraphOf(upgradeRolloutGraph(graph, plan)), { concurrency: 1 });
  const started: string[] = [];
  const blocked: string[] = [];
  for (let next = scheduler.nextRunnable(); next.length > 0; next = scheduler.nextRunnable()) {
    const name = next[0];
    scheduler.markStarted(name);
    started.push(name);
    if (name === failing) blocked.push(...scheduler.markFailed(name, 'exit 1').map((b) => b.name));
    else scheduler.markDone(name);
  }
  return {
    started: started.filter((n) => unitNames.has(n)),
    blocked: blocked.filter((n) => unitNames.has(n)),
  };
}

describe('planUpgrade', () => {
  test('orders the services by the graph: infrastructure, Keystone, then Placement before Nova', () => {
    // THEN
    const at = (s: string) => plan.serviceOrder.indexOf(s);
    for (const s of ['keystone', 'glance', 'placement', 'nova', 'neutron']) expect(at(s)).toBeGreaterThan(-1);
    expect(at('keystone')).toBeLessThan(at('glance'));
    expect(at('keystone')).toBeLessThan(at('placement'));
    expect(at('placement')).toBeLessThan(at('nova'));
  });

  test('runs every pre-check before the backup, and the backup before the first schema step', () => {
    // THEN the backup needs every pre-check, and every expand waits (transitively) for the backup
    const preChecks = plan.units.filter((u) => u.phase === 'pre-check').map((u) => u.name);
    expect(preChecks).toEqual(
      expect.arrayContaining(['keystone-pre-check', 'nova-pre-check', 'placement-pre-check']),
    );
    expect([...unitNamed(BACKUP_UNIT).needs].sort()).toEqual([...preChecks].sort());
    const { started } = startOrder();
    const firstSchemaStep = Math.min(
      ...plan.units.filter((u) => u.phase === 'expand').map((u) => started.indexOf(u.name)),
    );
    expect(started.indexOf(BACKUP_UNIT)).toBeLessThan(firstSchemaStep);
    for (const name of preChecks) expect(started.indexOf(name)).toBeLessThan(started.indexOf(BACKUP_UNIT));
  });

  test('Keystone expands, rolls and contracts in that order, with its upstream commands', () => {
    // THEN
    expect(unitNamed('keystone-expand').commands.map((c) => c.command)).toEqual([
      'keystone-manage db_sync --expand',
    ]);
    expect(unitNamed('keystone-roll').components).toEqual(['keystone-api']);
    expect(unitNamed('keystone-roll').needs).toEqual(['keystone-expand']);
    expect(unitNamed('keystone-contract').needs).toEqual(['keystone-roll']);
    expect(unitNamed('keystone-post-check').commands[0]).toMatchObject({
      command: 'keystone-manage db_sync --check',
      accept: [0],
    });
  });

  test("rolls Nova's conductors before its scheduler and its API, and migrates data only after every service rolled", () => {
    // THEN the roll groups follow nova's upgrade guide
    const rolls = plan.units.filter((u) => u.service === 'nova' && u.phase === 'roll');
    const groupOf = (component: string) => rolls.findIndex((u) => u.components.includes(component));
    expect(groupOf('nova-conductor')).toBeGreaterThan(-1);
    expect(groupOf('nova-conductor')).toBeLessThan(groupOf('nova-scheduler'));
    expect(groupOf('nova-scheduler')).toBeLessThan(groupOf('nova-api'));
    // … and the online data migrations wait for the last roll of every service
    const { started } = startOrder();
    const migrations = started.indexOf('nova-online-data-migrations');
    const lastRoll = Math.max(
      ...plan.units.filter((u) => u.phase === 'roll').map((u) => started.indexOf(u.name)),
    );
    expect(migrations).toBeGreaterThan(lastRoll);
    expect(
      started
        .slice(-plan.units.filter((u) => u.phase === 'post-check').length)
        .every((n) => n.endsWith('-post-check')),
    ).toBe(true);
  });

  test('leaves libvirt alone: its default image has a tag of its own, not the release', () => {
    // THEN libvirt's DaemonSet runs `libvirt:<libvirt version>`, so no unit rolls it, while nova-compute rolls
    const rolled = plan.units.flatMap((u) => u.components);
    expect(rolled).toContain('nova-compute');
    expect(rolled).not.toContain('nova-libvirt');
    const libvirt = graph.components.find((c) => c.name === 'nova-libvirt');
    expect(libvirt?.objects.flatMap((o) => imagesOf(o))).toEqual([
      `registry.yaook.cloud/yaook/libvirt:${LIBVIRT_IMAGE_TAG}`,
      `registry.yaook.cloud/yaook/libvirt:${LIBVIRT_IMAGE_TAG}`,
    ]);
  });

  test("a failed phase blocks what comes after it through the runtime's scheduler, and nothing before", () => {
    // WHEN Keystone's expand fails
    const { started, blocked } = startOrder('keystone-expand');
    // THEN nothing of Keystone or the services after it starts; the pre-checks and the backup ran
    expect(started).toEqual(expect.arrayContaining([BACKUP_UNIT, 'keystone-expand']));
    expect(blocked).toEqual(
      expect.arrayContaining([
        'keystone-roll',
        'keystone-contract',
        'placement-expand',
        'nova-online-data-migrations',
      ]),
    );
    expect(started).not.toContain('keystone-roll');
  });

  test('prints the phases before anything is written', () => {
    // WHEN the plan is rendered
    const lines = renderUpgradePlan(plan);
    // THEN it names the releases, the order and each unit with its gate
    expect(lines[0]).toBe('upgrade prod: 2024.2 -> 2025.1');
    expect(lines).toContain('  keystone-expand: keystone-manage db_sync --expand (after upgrade-backup)');
    expect(lines.filter((l) => l.includes('gate:')).length).toBe(plan.units.length);
  });

  test('the same release plans nothing, and a downgrade is refused with the cloud path', () => {
    // WHEN / THEN
    expect(planUpgrade(graph, { cloudPath: 'prod', from: '2025.1', to: '2025.1' })).toBeUndefined();
    expect(() => planUpgrade(graph, { cloudPath: 'prod', from: '2025.1', to: '2024.2' })).toThrow(
      UpgradePlanError,
    );
    expect(() => planUpgrade(graph, { cloudPath: 'prod', from: '2025.1', to: '2024.2' })).toThrow(
      /^\[prod\] release '2025\.1' -> '2024\.2' is a downgrade/,
    );
  });
});
