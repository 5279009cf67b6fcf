import {
  Annotations,
  ComponentGraph,
  Edge,
  GraphComponent,
  isGating,
  KubeObject,
  UpgradeTemplateRole,
} from '../../graph';
import { CellTemplate, cellTemplates } from './cell-templates';
import { judgedScript } from './judged-script';
import { upgradeJob } from './upgrade-job';
import { BACKUP_UNIT, UpgradePlan, UpgradePlanError, UpgradeUnit } from './upgrade-plan';

/**
 * The graph `deploy` rolls out for an upgrade: the target manifests' components, plus one
 * component per unit of the plan, wired so that the existing runner executes the plan — gates,
 * parallelism, timeouts, diagnosis and events are a rollout's (docs/upgrades.md, "Running the plan").
 *
 * - A command unit (checks, expand, contract, online data migrations) is a component with one Job
 *   made from its service's schema-sync Job ({@link upgradeJob}), running the unit's commands judged
 *   by their exit codes ({@link judgedScript}), and one more per further cell (a `cell-schema-sync`
 *   template) running the unit's cell commands; the backup unit's Job comes from the backup CronJob.
 * - A roll unit is a component without objects that needs its workloads `ready`; each workload of
 *   the roll needs the units before the roll `completed`, so it is re-applied (new image) only then.
 * - A service's schema-sync Job (which would run the whole migration at once) and the Jobs that
 *   need it run again only after the service's last step (`jobsAfterSchemaSync`); its rolled
 *   workloads no longer wait for them, nor for a workload of theirs the recipe rolls later (the old
 *   pods serve meanwhile). Every other Job of an upgraded service waits for the backup;
 *   those of a service without a recipe run, as on install, before its pods.
 *
 * Pure. Throws {@link UpgradePlanError} naming the cloud and the fix when a template is missing or a
 * unit's name is taken by a component.
 */
export function upgradeRolloutGraph(graph: ComponentGraph, plan: UpgradePlan): ComponentGraph {
  const taken = plan.units.filter((u) => graph.components.some((c) => c.name === u.name));
  if (taken.length > 0) {
    throw new UpgradePlanError(
      taken.map(
        (u) =>
          `[${plan.cloud}] the upgrade unit ${u.name} has the name of a component of the manifests; rename the component (its construct id) so the upgrade can run`,
      ),
    );
  }
  const templates = new TemplateFinder(graph, plan.cloud);
  const unitComponents = plan.units.map((u) => unitComponent(u, plan, templates));
  templates.assertFound();

  const rollUnits = plan.units.filter((u) => u.phase === 'roll');
  const rolled = new Map(rollUnits.flatMap((u) => u.components.map((c) => [c, u] as const)));
  const rollOrder = new Map(rollUnits.flatMap((u, index) => u.components.map((c) => [c, index] as const)));
  const lastUnitOf = lastScheduleUnits(plan);
  const withRecipe = new Set(plan.units.filter((u) => u.phase === 'expand').map((u) => u.service));
  const upgraded = new Set(plan.serviceOrder);
  const firstRollNeeds = new Map<string, readonly string[]>();
  for (const u of plan.units) {
    if (u.phase === 'roll' && !firstRollNeeds.has(u.service)) firstRollNeeds.set(u.service, u.needs);
  }
  const afterSchemaSync = jobsAfterSchemaSync(graph, withRecipe);

  const components = graph.components.map((component): GraphComponent => {
    const roll = rolled.get(component.name);
    const synced = afterSchemaSync.get(component.name);
    let edges: Edge[] = [...component.edges];
    if (roll) {
      // Not its service's schema Jobs (they come after the service's last step), nor a workload the
      // recipe rolls later (Cinder's API after its backup service): its old pods serve meanwhile.
      const order = rollOrder.get(component.name) as number;
      edges = edges.filter(
        (e) => !afterSchemaSync.get(e.to)?.has(component.service) && !((rollOrder.get(e.to) ?? -1) > order),
      );
      edges.push(...completedEdges(component.name, roll.needs));
    } else if (synced) {
      edges.push(
        ...completedEdges(
          component.name,
          [...synced].map((s) => lastUnitOf.get(s) as string),
        ),
      );
    } else if (upgraded.has(component.service) && component.objects.some((o) => o.kind === 'Job')) {
      const after = withRecipe.has(component.service)
        ? [BACKUP_UNIT]
        : (firstRollNeeds.get(component.service) ?? []);
      edges.push(...completedEdges(component.name, after));
    }
    return { ...component, edges };
  });
  const all = [...components, ...unitComponents];
  return { components: all, bootstrap: graph.bootstrap, edges: all.flatMap((c) => c.edges) };
}

/** The template roles of a service's schema migrations: its own, and each further cell's. */
const SCHEMA_ROLES: ReadonlySet<string> = new Set<UpgradeTemplateRole>(['schema-sync', 'cell-schema-sync']);

function completedEdges(from: string, to: readonly string[]): Edge[] {
  return to.map((t) => ({ from, to: t, kind: 'completed' as const }));
}

/**
 * The Jobs that must not run before a service's last upgrade step, with the services they wait
 * for: each schema-sync (or cell-schema-sync) Job of a service with a recipe (it would run the
 * whole migration at once), and every Job that needs such a Job through a chain of Jobs (Nova's
 * cell mapping needs its API database synced). Other Jobs — credential generators, copies, registrations — are idempotent and
 * keep their place.
 */
function jobsAfterSchemaSync(
  graph: ComponentGraph,
  withRecipe: ReadonlySet<string>,
): Map<string, Set<string>> {
  const jobs = new Map(
    graph.components.filter((c) => c.objects.some((o) => o.kind === 'Job')).map((c) => [c.name, c] as const),
  );
  const after = new Map<string, Set<string>>();
  for (const job of jobs.values()) {
    const syncsSchema = job.objects.some((o) =>
      SCHEMA_ROLES.has(o.metadata.annotations?.[Annotations.UPGRADE_TEMPLATE] ?? ''),
    );
    if (syncsSchema && withRecipe.has(job.service)) after.set(job.name, new Set([job.service]));
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const job of jobs.values()) {
      for (const edge of job.edges) {
        const services = isGating(edge.kind) ? after.get(edge.to) : undefined;
        const own = after.get(job.name) ?? new Set<string>();
        const before = own.size;
        for (const service of services ?? []) own.add(service);
        if (own.size > before) {
          after.set(job.name, own);
          changed = true;
        }
      }
    }
  }
  return after;
}

/** The unit as a component: a Job for a command or backup unit, nothing but edges for a roll. */
function unitComponent(unit: UpgradeUnit, plan: UpgradePlan, templates: TemplateFinder): GraphComponent {
  const base = { name: unit.name, service: unit.service, cloud: plan.cloud };
  if (unit.phase === 'roll') {
    const edges = unit.components.map((c) => ({ from: unit.name, to: c, kind: 'ready' as const }));
    return {
      ...base,
      constructPath: `${plan.cloud}/${unit.service}/upgrade/${unit.name}`,
      edges,
      objects: [],
    };
  }
  const template =
    unit.name === BACKUP_UNIT ? templates.find('backup') : templates.find('schema-sync', unit.service);
  const job = template
    ? [
        upgradeJob({
          unit: unit.name,
          service: unit.service,
          release: plan.to,
          template,
          ...(unit.commands.length > 0 ? { script: judgedScript(unit.commands) } : {}),
        }),
      ]
    : [];
  const cellJobs =
    unit.cellCommands.length > 0
      ? templates.cells(unit.service).map(({ component, template: cell }) =>
          upgradeJob({
            unit: unit.name,
            // `nova-expand-cell2-db-sync`: the unit, then the cell's template without the service.
            nameBase: `${unit.name}-${component.slice(unit.service.length + 1)}`,
            service: unit.service,
            release: plan.to,
            template: cell,
            script: judgedScript(unit.cellCommands),
          }),
        )
      : [];
  return {
    ...base,
    constructPath: job[0]?.metadata.annotations?.[Annotations.CONSTRUCT_PATH] ?? `${plan.cloud}/${unit.name}`,
    edges: completedEdges(unit.name, unit.needs),
    objects: [...job, ...cellJobs],
  };
}

/**
 * Per service, the unit after which its Jobs may run again: the last of its expand, rolls and
 * contract (the service's last schema or pod step).
 */
function lastScheduleUnits(plan: UpgradePlan): Map<string, string> {
  const last = new Map<string, string>();
  for (const u of plan.units) {
    if (u.phase === 'expand' || u.phase === 'roll' || u.phase === 'contract') last.set(u.service, u.name);
  }
  return last;
}

/** Finds the templates the units need in the graph, remembering what it could not find. */
class TemplateFinder {
  private readonly missing = new Set<string>();

  constructor(
    private readonly graph: ComponentGraph,
    private readonly cloud: string,
  ) {}

  /** The first object (in graph order) with the role, of `service` when given. */
  find(role: UpgradeTemplateRole, service?: string): KubeObject | undefined {
    for (const component of this.graph.components) {
      if (service !== undefined && component.service !== service) continue;
      const found = component.objects.find(
        (o) => o.metadata.annotations?.[Annotations.UPGRADE_TEMPLATE] === role,
      );
      if (found) return found;
    }
    this.missing.add(
      role === 'backup'
        ? `the backup before the first schema step needs a CronJob annotated ${Annotations.UPGRADE_TEMPLATE}: backup (the MariaDB construct makes one)`
        : `${service}'s upgrade commands run in a Job made from its schema-sync Job, and none is annotated ${Annotations.UPGRADE_TEMPLATE}: schema-sync (ServiceDatabase makes one)`,
    );
    return undefined;
  }

  /** Every `cell-schema-sync` template of `service` (see {@link cellTemplates}). */
  cells(service: string): CellTemplate[] {
    return cellTemplates(this.graph, service);
  }

  /** Throws, naming the cloud and every missing template, when one was not found. */
  assertFound(): void {
    if (this.missing.size === 0) return;
    throw new UpgradePlanError(
      [...this.missing].map(
        (m) =>
          `[${this.cloud}] ${m}; synthesise the manifests with this version of Stackwright, or deploy the release the cluster runs`,
      ),
    );
  }
}
