import { componentLogicalName, componentOfLogicalName, objectLogicalName } from './logical-name';
import { DependencyPlan } from './dependency-plan';

/** How resources were named before a rename, so Pulumi moves them instead of replacing them. */
export interface AliasOptions {
  /**
   * Old logical names by new logical name, for objects or components, e.g.
   * `{ 'keystone-api:Deployment:openstack/keystone': ['keystone:Deployment:openstack/keystone'] }`.
   * An old object name also tells the old parent (its component segment), so an object that moved
   * between components, or out of the bootstrap objects, keeps its state too.
   * @default - no aliases
   */
  readonly aliases?: Readonly<Record<string, readonly string[]>>;
  /**
   * Old component names by new component name, e.g. `{ 'keystone-api': ['keystone'] }`: aliases the
   * component resource and every one of its objects (same kind, namespace and name, old component).
   * @default - no aliases
   */
  readonly componentAliases?: Readonly<Record<string, readonly string[]>>;
}

/** One former identity of a resource. */
export interface PlannedAlias {
  /** The former logical name. */
  readonly name: string;
  /**
   * For objects: the logical name of the former parent component, or undefined when the former
   * parent was the cloud (a bootstrap object). Never set for components (their parent is the cloud).
   */
  readonly parentComponent?: string;
}

/**
 * The aliases of every renamed resource, by its current logical name. Throws when an alias names a
 * resource the plan does not contain, so a typo is reported instead of silently replacing objects.
 */
export function aliasPlan(
  plan: DependencyPlan,
  options: AliasOptions,
  resourcePrefix?: string,
): Map<string, PlannedAlias[]> {
  const result = new Map<string, PlannedAlias[]>();
  const push = (name: string, alias: PlannedAlias) => result.set(name, [...(result.get(name) ?? []), alias]);
  const components = new Map(plan.components.map((c) => [c.name, c]));
  const componentNames = new Set(plan.components.map((c) => c.logicalName));
  const objects = new Map(plan.objects.map((o) => [o.logicalName, o]));

  for (const [current, formers] of Object.entries(options.componentAliases ?? {})) {
    const component = components.get(current);
    if (!component) throw new Error(`componentAliases: there is no component "${current}" in this cloud`);
    for (const former of formers) {
      push(component.logicalName, { name: componentLogicalName(former, resourcePrefix) });
      for (const o of plan.objects.filter((p) => p.component === current)) {
        push(o.logicalName, {
          name: objectLogicalName(o.object, former, resourcePrefix),
          parentComponent: componentLogicalName(former, resourcePrefix),
        });
      }
    }
  }

  for (const [current, formers] of Object.entries(options.aliases ?? {})) {
    if (componentNames.has(current)) {
      for (const former of formers) push(current, { name: former });
      continue;
    }
    if (!objects.has(current))
      throw new Error(`aliases: there is no object or component named "${current}" in this cloud`);
    for (const former of formers) {
      const formerComponent = componentOfLogicalName(former, resourcePrefix);
      push(
        current,
        formerComponent === undefined
          ? { name: former }
          : { name: former, parentComponent: componentLogicalName(formerComponent, resourcePrefix) },
      );
    }
  }
  return result;
}
