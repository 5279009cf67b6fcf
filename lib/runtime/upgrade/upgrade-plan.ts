import {
  ComponentGraph,
  findCycle,
  GraphComponent,
  isGating,
  KubeObject,
  topologicalOrder,
  upgradePathProblems,
} from '../../graph';
import { cellTemplates } from './cell-templates';
import { SERVICE_RECIPES, ServiceRecipe } from './service-recipes';
import { UpgradeCommand, UpgradePhase } from './upgrade-phase';

/** Kinds whose pods roll to the new image. */
const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

/** Unit that backs up every database of the cloud before the first schema step. */
export const BACKUP_UNIT = 'upgrade-backup';

/**
 * One gated unit of an upgrade: a phase of one service (or the cloud's backup). The runtime runs
 * it like a component: it starts when every unit in `needs` is verified, and is verified when its
 * gate holds (its commands passed by their exit-code semantics; for a roll, every pod of its
 * components on the target image and ready).
 */
export interface UpgradeUnit {
  /** `<service>-<phase>`, with the roll group's index for rolls: `nova-roll-1`. */
  readonly name: string;
  /** The service, or `cloud` for the backup. */
  readonly service: string;
  readonly phase: UpgradePhase;
  /** Commands run in order, each judged by its exit code. */
  readonly commands: readonly UpgradeCommand[];
  /**
   * Commands run beside them in each further cell of the service (its `cell-schema-sync`
   * templates: Nova's cells 2 and up), one Job per cell; empty when the service has none.
   */
  readonly cellCommands: readonly UpgradeCommand[];
  /** For a roll: the components whose pods roll in this unit. */
  readonly components: readonly string[];
  /** Units that must be verified first. */
  readonly needs: readonly string[];
  /** What must hold before the next unit starts, as shown by `stackwright plan`. */
  readonly gate: string;
}

/** The upgrade of one cloud from one release to the next. */
export interface UpgradePlan {
  readonly cloud: string;
  readonly from: string;
  readonly to: string;
  /** The services in the cloud-wide order derived from the graph (dependencies first). */
  readonly serviceOrder: readonly string[];
  /** Every unit, in an order that respects `needs`. */
  readonly units: readonly UpgradeUnit[];
}

/** Where the plan is made: the cloud's construct path (for messages) and the two releases. */
export interface UpgradePlanInput {
  /** The cloud's construct path, e.g. `prod`. */
  readonly cloudPath: string;
  /** The release the cluster runs (the inventory's record, docs/upgrades.md). */
  readonly from: string;
  /** The release of the manifests. */
  readonly to: string;
}

/** The graph cannot be upgraded: a refused path or a cycle between services. */
export class UpgradePlanError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'UpgradePlanError';
  }
}

/**
 * The upgrade plan of `graph` from `input.from` to `input.to`, or undefined when the releases are
 * the same (a plain deploy). Pure: the graph is the manifests' (the target), nothing is read from a
 * cluster.
 *
 * Cloud-wide order: every service's pre-checks first (before anything is written), one backup,
 * then per service in the order of the graph (a service after those its components need: MariaDB,
 * RabbitMQ and Memcached before Keystone, Keystone before the rest, Placement before Nova) expand,
 * the roll groups in the recipe's order, and contract; online data migrations only once every
 * service runs the new code; post-checks last. Services without a recipe roll in their place (their
 * db-sync Job runs the plain sync before their pods, as on install).
 */
export function planUpgrade(graph: ComponentGraph, input: UpgradePlanInput): UpgradePlan | undefined {
  const problems = upgradePathProblems(input.cloudPath, input.from, input.to);
  if (problems.length > 0) throw new UpgradePlanError(problems);
  if (input.from === input.to) return undefined;
  const serviceOrder = servicesInOrder(graph, input.cloudPath);
  const needsOf = serviceNeeds(graph);
  const units: UpgradeUnit[] = [];
  const recipeOf = (service: string): ServiceRecipe | undefined => SERVICE_RECIPES[service];
  const upgraded = serviceOrder.filter((s) => workloadsOf(graph, s, input.to).length > 0);
  /** The recipe's steps for the further cells of `service`, when its manifests have any. */
  const cellSteps = (service: string, phase: 'expand' | 'onlineDataMigrations') =>
    cellTemplates(graph, service).length > 0 ? (recipeOf(service)?.cells?.[phase] ?? []) : [];

  const preChecks = upgraded
    .filter((s) => (recipeOf(s)?.preChecks.length ?? 0) > 0)
    .map((s) =>
      unit(
        s,
        'pre-check',
        recipeOf(s)?.preChecks ?? [],
        [],
        [],
        'every command exits as upstream documents success',
      ),
    );
  units.push(...preChecks);
  units.push({
    name: BACKUP_UNIT,
    service: 'cloud',
    phase: 'backup',
    commands: [],
    components: [],
    cellCommands: [],
    needs: preChecks.map((u) => u.name),
    gate: 'every service database dumped, restored into a scratch database, and the restored copy dumping identically',
  });

  /** The last unit of each service's roll (or contract): what later services wait for. */
  const doneOf = new Map<string, string>();
  for (const service of upgraded) {
    const recipe = recipeOf(service);
    const after = [BACKUP_UNIT, ...[...(needsOf.get(service) ?? [])].flatMap((s) => doneOf.get(s) ?? [])];
    let previous = after;
    if (recipe && recipe.expand.length > 0) {
      const expand = unit(service, 'expand', recipe.expand, [], previous, 'every command exits 0', {
        cellCommands: cellSteps(service, 'expand'),
      });
      units.push(expand);
      previous = [expand.name];
    }
    const groups = rollGroups(workloadsOf(graph, service, input.to), service, recipe?.rollOrder ?? []);
    groups.forEach((components, index) => {
      const roll = unit(
        service,
        'roll',
        [],
        components,
        previous,
        'every pod of these components runs the target image and is ready',
        { index: groups.length > 1 ? index : undefined },
      );
      units.push(roll);
      previous = [roll.name];
    });
    if (recipe && recipe.contract.length > 0) {
      const contract = unit(
        service,
        'contract',
        recipe.contract,
        [],
        previous,
        'every command exits 0, after no old pod is left',
      );
      units.push(contract);
      previous = [contract.name];
    }
    doneOf.set(service, previous[0]);
  }

  const migrations = upgraded
    .filter((s) => (recipeOf(s)?.onlineDataMigrations.length ?? 0) > 0)
    .map((s) =>
      unit(
        s,
        'online-data-migrations',
        recipeOf(s)?.onlineDataMigrations ?? [],
        [],
        [...new Set(doneOf.values())].sort(),
        'the command exits 0 (re-run while it reports migrations left)',
        { cellCommands: cellSteps(s, 'onlineDataMigrations') },
      ),
    );
  units.push(...migrations);
  const settled =
    migrations.length > 0 ? migrations.map((u) => u.name) : [...new Set(doneOf.values())].sort();
  units.push(
    ...upgraded
      .filter((s) => (recipeOf(s)?.postChecks.length ?? 0) > 0)
      .map((s) =>
        unit(
          s,
          'post-check',
          recipeOf(s)?.postChecks ?? [],
          [],
          settled,
          'every command exits as upstream documents success',
        ),
      ),
  );
  return { cloud: input.cloudPath, from: input.from, to: input.to, serviceOrder: upgraded, units };
}

function unit(
  service: string,
  phase: UpgradePhase,
  commands: readonly UpgradeCommand[],
  components: readonly string[],
  needs: readonly string[],
  gate: string,
  options: { readonly index?: number; readonly cellCommands?: readonly UpgradeCommand[] } = {},
): UpgradeUnit {
  const { index, cellCommands = [] } = options;
  const name = `${service}-${phase}${index === undefined ? '' : `-${index + 1}`}`;
  return { name, service, phase, commands, cellCommands, components, needs: [...needs], gate };
}

/**
 * The components of `service` whose pods run an image of the release `to` (`…:<to>`), in graph
 * order: what the release change rolls. Infrastructure (MariaDB, RabbitMQ, Memcached, OVN) has
 * tags of its own, so a release upgrade leaves its pods alone.
 */
function workloadsOf(graph: ComponentGraph, service: string, to: string): GraphComponent[] {
  return graph.components.filter(
    (c) =>
      c.service === service &&
      c.objects.some((o) => WORKLOAD_KINDS.has(o.kind) && imagesOf(o).some((i) => i.endsWith(`:${to}`))),
  );
}

/** The container images of a workload's (or Job's) pod template. */
export function imagesOf(object: KubeObject): string[] {
  const spec = (
    object.spec as
      | { template?: { spec?: { containers?: { image?: string }[]; initContainers?: { image?: string }[] } } }
      | undefined
  )?.template?.spec;
  return [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])].flatMap((c) =>
    c.image ? [c.image] : [],
  );
}

/** The service's workloads split into the recipe's roll groups; unmatched ones first, empty groups dropped. */
function rollGroups(
  workloads: readonly GraphComponent[],
  service: string,
  order: readonly (readonly string[])[],
): string[][] {
  const groupOf = (component: GraphComponent): number => {
    const rest = component.name.startsWith(`${service}-`)
      ? component.name.slice(service.length + 1)
      : component.name;
    const parts = rest.split('-');
    return order.findIndex((fragments) => fragments.some((f) => parts.includes(f)));
  };
  const groups: string[][] = [[], ...order.map(() => [])];
  for (const component of workloads) groups[groupOf(component) + 1].push(component.name);
  return groups.filter((g) => g.length > 0).map((g) => g.sort());
}

/**
 * service -> the other services whose running pods its components need (gating edges to a
 * workload). Edges to a one-shot Job (a generated Secret, a copy of one) order the install, not the
 * services: a Job does not roll, and helper Jobs point both ways between services.
 */
function serviceNeeds(graph: ComponentGraph): Map<string, Set<string>> {
  const serviceOf = new Map(graph.components.map((c) => [c.name, c.service]));
  const workloads = new Set(
    graph.components.filter((c) => c.objects.some((o) => WORKLOAD_KINDS.has(o.kind))).map((c) => c.name),
  );
  const needs = new Map<string, Set<string>>();
  for (const edge of graph.edges) {
    const [from, to] = [serviceOf.get(edge.from), serviceOf.get(edge.to)];
    if (!isGating(edge.kind) || !workloads.has(edge.to) || !from || !to || from === to) continue;
    needs.set(from, new Set([...(needs.get(from) ?? []), to]));
  }
  return needs;
}

/** The services in dependency order; a cycle between services has no upgrade order. */
function servicesInOrder(graph: ComponentGraph, cloudPath: string): string[] {
  const services = [...new Set(graph.components.map((c) => c.service))].sort();
  const edges = [...serviceNeeds(graph)].flatMap(([from, tos]) =>
    [...tos].map((to) => ({ from, to, kind: 'ready' as const })),
  );
  const cycle = findCycle(services, edges);
  if (cycle) {
    throw new UpgradePlanError([
      `[${cloudPath}] the services depend on each other in a cycle (${cycle.join(' -> ')}), so they have no upgrade order; make one of these dependencies a 'runtime' edge`,
    ]);
  }
  return topologicalOrder(services, edges);
}
