import { ComponentGraph } from '../../graph';
import { UpgradePlan } from './upgrade-plan';

/**
 * The plan as a component graph, so the runtime's scheduler runs its units like any other
 * components: a unit starts when the units it needs are verified (`completed` edges), a failed
 * unit blocks every unit after it and names itself as the cause, independent units run side by side.
 */
export function upgradeGraph(plan: UpgradePlan): ComponentGraph {
  const edges = plan.units.flatMap((u) =>
    u.needs.map((to) => ({ from: u.name, to, kind: 'completed' as const })),
  );
  return {
    components: plan.units.map((u) => ({
      name: u.name,
      service: u.service,
      cloud: plan.cloud,
      constructPath: `${plan.cloud}/${u.service}`,
      edges: edges.filter((e) => e.from === u.name),
      objects: [],
    })),
    bootstrap: [],
    edges,
  };
}
