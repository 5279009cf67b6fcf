import {
  Annotations,
  ComponentGraph,
  Edge,
  GraphComponent,
  KubeObject,
  UpgradeTemplateRole,
} from '../../graph';
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
 *   by their exit codes ({@link judgedScript}); the backup unit's Job comes from the backup CronJob.
 * - A roll unit is a component without objects that needs its workloads `ready`; each workload of
 *   the roll needs the units before the roll `completed`, so it is re-applied (new image) only then.
 * - A rolled workload of a service with a recipe no longer waits for its own service's Jobs: those
 *   (the schema sync among them, which would run the whole migration at once) run again after the
 *   service's last step. The Jobs of a service without a recipe run, as on install, before its
 *   pods, and after the backup.
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

  const rolled = new Map(
    plan.units.filter((u) => u.phase === 'roll').flatMap((u) => u.components.map((c) => [c, u] as const)),
  );
  const lastUnitOf = lastScheduleUnits(plan);
  const withRecipe = new Set(plan.units.filter((u) => u.phase === 'expand').map((u) => u.service));
  const upgraded = new Set(plan.serviceOrder);
  const firstRollNeeds = new Map<string, readonly string[]>();
  for (const u of plan.units) {
    if (u.phase === 'roll' && !firstRollNeeds.has(u.service)) firstRollNeeds.set(u.service, u.needs);
  }
  const isJob = (name: string) => jobComponents.has(name);
  const jobComponents = new Set(
    graph.components.filter((c) => c.objects.some((o) => o.kind === 'Job')).map((c) => c.name),
  );
  const serviceOf = new Map(graph.components.map((c) => [c.name, c.service]));

  const components = graph.components.map((component): GraphComponent => {
    const roll = rolled.get(component.name);
    let edges: Edge[] = [...component.edges];
    if (roll) {
      if (withRecipe.has(component.service)) {
        edges = edges.filter((e) => !(isJob(e.to) && serviceOf.get(e.to) === component.service));
      }
      edges.push(...completedEdges(component.name, roll.needs));
    } else if (isJob(component.name) && upgraded.has(component.service)) {
      const after = withRecipe.has(component.service)
        ? [lastUnitOf.get(component.service) as string]
        : (firstRollNeeds.get(component.service) ?? []);
      edges.push(...completedEdges(component.name, after));
    }
    return { ...component, edges };
  });
  const all = [...components, ...unitComponents];
  return { components: all, bootstrap: graph.bootstrap, edges: all.flatMap((c) => c.edges) };
}

function completedEdges(from: string, to: readonly string[]): Edge[] {
  return to.map((t) => ({ from, to: t, kind: 'completed' as const }));
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
  return {
    ...base,
    constructPath: job[0]?.metadata.annotations?.[Annotations.CONSTRUCT_PATH] ?? `${plan.cloud}/${unit.name}`,
    edges: completedEdges(unit.name, unit.needs),
    objects: job,
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
