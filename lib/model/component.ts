import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { EDGE_KINDS, EdgeKind, isEdgeKind, shown } from '../graph';
import { PodPlacement } from '../scheduling';
import { CLOUD_MARKER, closest, COMPONENT_MARKER, hasMarker, mark, SERVICE_MARKER } from './markers';
import { modelChanged } from './model-generation';
import {
  addCheck,
  assertNoProblems,
  dnsLabelProblems,
  propsProblems,
  PropsSpec,
  Rules,
  ValidationError,
  freeConstructId,
} from './validation';
import { placementRule } from './validation/placement';

export interface ComponentProps {
  /**
   * Where the component's pods run. Required for components that own pods; omit for components
   * that own only configuration (ConfigMaps, RBAC).
   * @default - no pods
   */
  readonly placement?: PodPlacement;
  /**
   * The component's name in the cloud: object names, graph nodes and CLI output use it.
   * @default `<service name>-<id>` (just the service name when id is `default`)
   */
  readonly name?: string;
  /**
   * A disabled component synthesises nothing; a gating dependency on it fails validation.
   * @default true
   */
  readonly enabled?: boolean;
}

const COMPONENT_PROPS: PropsSpec<ComponentProps> = {
  placement: placementRule,
  name: Rules.dnsLabel(),
  enabled: Rules.bool(),
};

/** One edge as declared: resolved to components at synthesis. */
interface DeclaredEdge {
  readonly target: IDependable;
  readonly kind: EdgeKind;
}

/** A resolved edge between components. */
export interface ComponentEdge {
  readonly target: Component;
  readonly kind: EdgeKind;
}

/**
 * Anything a component can depend on: a component, a service (its entry-point components), or an
 * external endpoint (nothing: it deploys nothing and gates nothing).
 */
export interface IDependable {
  /** The components that must satisfy the edge. Empty for external infrastructure. */
  readonly dependencyTargets: readonly Component[];
}

/**
 * True for anything with `dependencyTargets` (a component, a service, an external endpoint). The
 * targets are not read: a lookup resolved at synthesis (the generators of a Secret) stays lazy.
 */
export function isDependable(x: unknown): x is IDependable {
  return typeof x === 'object' && x !== null && 'dependencyTargets' in x;
}

/**
 * What a component reads of its cloud's synthesis plan (`Cloud.plan()`): declared here, structurally,
 * so the component does not import the cloud that is built from it.
 */
interface PlanningScope extends IConstruct {
  plan(): { has(component: Component): boolean; edgesOf(component: Component): readonly ComponentEdge[] };
}

/**
 * What a component reads of the service it belongs to. `Service` is one; declared here, beside the
 * component, so components do not depend on the service class that is built from them.
 */
export interface ServiceScope extends IConstruct {
  /** Component and object names start with it. */
  readonly serviceName: string;
  /** The `app.kubernetes.io/name` label of the service's objects. */
  readonly appName: string;
  /** A disabled service disables its components. */
  readonly enabled: boolean;
}

/**
 * One deployable unit (e.g. keystone-api, keystone-db-sync, nova-compute): it owns Kubernetes
 * objects (its construct children), a placement, and edges to the components it needs. The runtime
 * applies a component's objects together and verifies them before any dependant starts.
 *
 * @example
 * const api = new Component(keystone, 'api', { placement: placement(SchedulingKey.IDENTITY_API, SchedulingKey.ANY_API) });
 * api.dependsOn(dbSync, 'completed');
 */
export class Component extends Construct implements IDependable {
  /** True when `x` is a Component (works across package copies). */
  static isComponent(x: unknown): x is Component {
    return hasMarker(x, COMPONENT_MARKER);
  }

  /** The components in a construct subtree, in tree order. */
  static allIn(scope: IConstruct): Component[] {
    return scope.node.findAll().filter((c): c is Component => Component.isComponent(c));
  }

  readonly componentName: string;
  readonly placement?: PodPlacement;
  /** The service this component belongs to, when it is inside one. */
  readonly service?: ServiceScope;
  private _enabled: boolean;
  private readonly declaredEdges: DeclaredEdge[] = [];

  constructor(scope: Construct, id: string, props: ComponentProps = {}) {
    super(scope, freeConstructId(scope, id));
    // A subclass (JobComponent) checks its whole props, and these among them.
    assertNoProblems(
      this,
      propsProblems(props, COMPONENT_PROPS, { otherKeysAllowed: new.target !== Component }),
    );
    mark(this, COMPONENT_MARKER);
    modelChanged();
    this.service = closest(scope, SERVICE_MARKER) as ServiceScope | undefined;
    const prefix = this.service?.serviceName;
    this.componentName = props.name ?? (prefix ? (id === 'default' ? prefix : `${prefix}-${id}`) : id);
    assertNoProblems(this, dnsLabelProblems(this.componentName, 'component name'));
    this.placement = props.placement;
    this._enabled = props.enabled ?? true;
    addCheck(this, () => this.problems());
  }

  get enabled(): boolean {
    return this._enabled && (this.service?.enabled ?? true);
  }

  get dependencyTargets(): readonly Component[] {
    return [this];
  }

  /** The name of the service this component reports under (itself when it has no service). */
  get serviceName(): string {
    return this.service?.serviceName ?? this.componentName;
  }

  /** The component's short role inside its service (`api`, `db-sync`; `server` for a service's only component), used as a label. */
  get role(): string {
    return this.node.id === 'default' ? 'server' : this.node.id;
  }

  /** Turns the component off: it synthesises nothing, and gating dependencies on it fail validation. */
  disable(): void {
    this._enabled = false;
    modelChanged();
  }

  /**
   * Declares that this component needs `target` (a component, a service, or external infrastructure).
   * @param kind `ready` (default), `completed` (a Job that must succeed), `same-node`, or `runtime` (soft).
   */
  dependsOn(target: IDependable, kind: EdgeKind = 'ready'): this {
    const problems = this.edgeProblems(target, kind);
    if (problems.length > 0) throw new ValidationError(this.node.path, problems);
    this.declaredEdges.push({ target, kind });
    modelChanged();
    return this;
  }

  /** Why `dependsOn(target, kind)` cannot be declared: not a dependable, an unknown kind, itself. */
  private edgeProblems(target: unknown, kind: unknown): string[] {
    if (!isDependable(target)) {
      return [
        `dependsOn(${describe(target)}): the target is not a component, a service or an external endpoint; pass one of those`,
      ];
    }
    const problems: string[] = [];
    if (typeof kind !== 'string' || !isEdgeKind(kind))
      problems.push(`dependsOn: unknown edge kind ${shown(kind)}; use one of ${EDGE_KINDS.join(', ')}`);
    // A construct's targets are at hand; a lookup's are read at synthesis (which skips this component).
    if (Construct.isConstruct(target) && target.dependencyTargets.includes(this))
      problems.push(
        `dependsOn: ${this.componentName} cannot depend on itself${target === this ? '' : ` (through ${(target as Partial<IConstruct>).node?.path ?? 'its target'})`}; remove the dependency`,
      );
    return problems;
  }

  /**
   * The edges, resolved to components, without duplicates (the strongest declaration wins): read
   * from the cloud's synthesis plan, which resolves every component's edges once.
   */
  get edges(): ComponentEdge[] {
    const cloud = closest(this, CLOUD_MARKER) as PlanningScope | undefined;
    const plan = cloud?.plan();
    return plan?.has(this) ? [...plan.edgesOf(this)] : this._resolveEdges();
  }

  /**
   * Resolves the declared edges to components (the synthesis plan calls it once per component).
   * @internal
   */
  _resolveEdges(): ComponentEdge[] {
    const byTarget = new Map<Component, EdgeKind>();
    for (const { target, kind } of this.declaredEdges) {
      const targets = target.dependencyTargets;
      if (!Array.isArray(targets))
        throw new ValidationError(this.node.path, [
          `dependsOn: the target's dependencyTargets is ${shown(targets)}, not a list of components; return an array (empty for external infrastructure)`,
        ]);
      for (const component of targets) {
        if (component === this) continue;
        const previous = byTarget.get(component);
        if (previous === undefined || previous === 'runtime') byTarget.set(component, kind);
      }
    }
    return [...byTarget.entries()].map(([target, kind]) => ({ target, kind }));
  }

  /** The Kubernetes objects this component owns (its subtree, excluding nested components). */
  get apiObjects(): ApiObject[] {
    const objects: ApiObject[] = [];
    const walk = (scope: IConstruct) => {
      for (const child of scope.node.children) {
        if (Component.isComponent(child)) continue;
        if (child instanceof ApiObject) objects.push(child);
        walk(child);
      }
    };
    walk(this);
    return objects;
  }

  /** Labels that select this component's pods; stable across releases. */
  get selectorLabels(): Record<string, string> {
    return {
      'app.kubernetes.io/instance': this.serviceName,
      'app.kubernetes.io/component': this.role,
    };
  }

  private problems(): string[] {
    const problems: string[] = [];
    for (const edge of this.edges) {
      if (!edge.target.enabled && edge.kind !== 'runtime') {
        problems.push(
          `depends on ${edge.target.componentName} (${edge.kind}), which is disabled; enable ${edge.target.node.path} or remove the dependency`,
        );
      }
    }
    return problems;
  }
}

function describe(value: unknown): string {
  if (typeof value === 'object' && value !== null) return value.constructor?.name ?? 'object';
  return JSON.stringify(value) ?? String(value);
}
