import { UpgradePlan, UpgradeUnit } from './upgrade-plan';

/**
 * The plan as `stackwright plan` prints it before anything is written: the releases, the service
 * order, then one line per unit (phase, components or commands, what it waits for, its gate).
 */
export function renderUpgradePlan(plan: UpgradePlan): string[] {
  const lines = [
    `upgrade ${plan.cloud}: ${plan.from} -> ${plan.to}`,
    `service order: ${plan.serviceOrder.join(', ')}`,
  ];
  for (const u of plan.units) {
    const what =
      u.components.length > 0
        ? `roll ${u.components.join(', ')}`
        : u.commands.map((c) => c.command).join('; ') + cellsPart(u) || u.phase;
    const after = u.needs.length > 0 ? ` (after ${u.needs.join(', ')})` : '';
    lines.push(`  ${u.name}: ${what}${after}`, `      gate: ${u.gate}`);
  }
  return lines;
}

/** `; in each further cell: <commands>`, or nothing. */
function cellsPart(unit: UpgradeUnit): string {
  return unit.cellCommands.length > 0
    ? `; in each further cell: ${unit.cellCommands.map((c) => c.command).join('; ')}`
    : '';
}
