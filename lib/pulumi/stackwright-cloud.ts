import * as pulumi from '@pulumi/pulumi';
import { ComponentGraph, graphFromManifests, ManifestSource, manifestsOf } from '../graph';
import { AliasOptions, aliasPlan, PlannedAlias } from './aliases';
import { Credentials, placeCredentials, withCredentialValues } from './credentials';
import { dependencyPlan, DependencyPlan, PlannedComponent } from './dependency-plan';
import { kubeResourceClass, KubeResourceArgs } from './kube-resource-classes';
import { overrideNamespace } from './namespace-override';

/** Pulumi type token of the cloud component. */
export const CLOUD_TYPE = 'stackwright:index:Cloud';
/** Pulumi type token of one Stackwright component (keystone-api, nova-compute, …). */
export const COMPONENT_TYPE = 'stackwright:index:Component';

/** Arguments of `StackwrightCloud`. */
export interface StackwrightCloudArgs extends AliasOptions {
  /**
   * The cloud: a Stackwright `Cloud` (any cdk8s Chart; its `toJson()` is used), synthesised objects,
   * or a path to a manifest file or directory (e.g. `dist/`).
   */
  readonly source: ManifestSource;
  /**
   * The Kubernetes provider for every object.
   * @default - the provider inherited from `opts` (`provider`/`providers`), else the default
   * provider (ambient kubeconfig)
   */
  readonly provider?: pulumi.ProviderResource;
  /**
   * Moves every namespaced object into this namespace (see `overrideNamespace` for what is
   * rewritten and when it refuses). Prefer giving the Cloud its namespace when you build it.
   * @default - the namespaces in the manifests
   */
  readonly namespace?: string;
  /**
   * Secret values, e.g. from `config.requireSecret(...)`, by Secret name or `namespace/name`. They
   * are registered as Pulumi secrets (encrypted in the state, masked in output).
   * @default - no credentials
   */
  readonly credentials?: Credentials;
  /**
   * Prepended to every logical name (`<prefix>:…`). Needed only for two clouds in one stack, since
   * Pulumi names must be unique per type within a stack.
   * @default - no prefix
   */
  readonly resourcePrefix?: string;
}

/**
 * One Stackwright component as a Pulumi component resource: the parent of the component's objects,
 * so `pulumi up` shows the cloud as a tree of components.
 */
export class StackwrightComponent extends pulumi.ComponentResource {
  /** The component's name in the cloud, e.g. `keystone-api`. */
  public readonly componentName: string;
  /** The service it belongs to, e.g. `keystone`. */
  public readonly service: string;

  constructor(component: PlannedComponent, opts: pulumi.ComponentResourceOptions) {
    super(COMPONENT_TYPE, component.logicalName, {}, opts);
    this.componentName = component.name;
    this.service = component.service;
    this.registerOutputs({
      service: component.service,
      constructPath: component.constructPath,
      objects: component.objects,
    });
  }
}

/**
 * Deploys a Stackwright cloud with Pulumi: one `stackwright:index:Component` per component and one
 * typed `@pulumi/kubernetes` resource per Kubernetes object (`kubernetes:apps/v1:Deployment`, …), so
 * the provider's own await logic decides when each object is ready (Deployments available, Jobs
 * complete, StatefulSets rolled out). Each object's `dependsOn` follows the component graph's gating
 * edges (see `dependencyPlan`), so `pulumi up` keeps the order `stackwright deploy` keeps.
 *
 * Logical names come from component, kind, namespace and name (never from construct paths), so
 * refactoring the construct tree does not replace live objects; renames are bridged with `aliases`
 * and `componentAliases`.
 *
 * @example
 * const config = new pulumi.Config('stackwright');
 * const app = new App();
 * const cloud = referenceCloud(app, 'openstack', { namespace: config.get('namespace') });
 * new StackwrightCloud('openstack', {
 *   source: cloud,
 *   credentials: { 'keystone-admin': { password: config.requireSecret('adminPassword') } },
 *   componentAliases: { 'keystone-api': ['keystone'] },   // after renaming a component
 * });
 */
export class StackwrightCloud extends pulumi.ComponentResource {
  /** The component graph the resources were built from. */
  public readonly graph: ComponentGraph;
  /** Names, parents, types and dependencies of everything registered. */
  public readonly plan: DependencyPlan;
  /** The component resources, by component name. */
  public readonly components: ReadonlyMap<string, StackwrightComponent>;
  /** The Kubernetes resources, by logical name. */
  public readonly resources: ReadonlyMap<string, pulumi.CustomResource>;

  constructor(name: string, args: StackwrightCloudArgs, opts: pulumi.ComponentResourceOptions = {}) {
    super(CLOUD_TYPE, name, {}, opts);
    const prefix = args.resourcePrefix;
    let objects = manifestsOf(args.source);
    if (args.namespace !== undefined) objects = overrideNamespace(objects, args.namespace);
    const credentials = args.credentials ?? {};
    const placed = placeCredentials(objects, Object.keys(credentials));
    objects = placed.objects;

    this.graph = graphFromManifests(objects);
    this.plan = dependencyPlan(this.graph, { resourcePrefix: prefix });
    const aliases = aliasPlan(this.plan, args, prefix);

    const components = new Map<string, StackwrightComponent>();
    for (const component of this.plan.components) {
      components.set(
        component.name,
        new StackwrightComponent(component, {
          parent: this,
          aliases: (aliases.get(component.logicalName) ?? []).map((a) => ({ name: a.name })),
        }),
      );
    }

    const credentialValues = new Map(
      placed.targets.map((t) => [`${t.namespace}/${t.name}`, credentials[t.key]]),
    );

    const resources = new Map<string, pulumi.CustomResource>();
    for (const planned of this.plan.objects) {
      const parent = planned.component === undefined ? this : components.get(planned.component);
      if (!parent) throw new Error(`${planned.ref}: its component ${planned.component} was not registered`);
      const dependsOn = planned.dependsOn.map((d) => {
        const resource = resources.get(d.name);
        // The plan orders every dependency first; a miss here is a bug in dependencyPlan.
        if (!resource)
          throw new Error(`${planned.logicalName} depends on ${d.name}, which is not registered yet`);
        return resource;
      });
      const { apiVersion, kind, metadata } = planned.object;
      const credential =
        apiVersion === 'v1' && kind === 'Secret'
          ? credentialValues.get(`${metadata.namespace}/${metadata.name}`)
          : undefined;
      const body: KubeResourceArgs = credential
        ? withCredentialValues(planned.object, credential, (v) => pulumi.secret(v))
        : { ...planned.object };
      const Resource = kubeResourceClass(planned.typeToken);
      resources.set(
        planned.logicalName,
        new Resource(planned.logicalName, body, {
          parent,
          dependsOn,
          provider: args.provider,
          aliases: (aliases.get(planned.logicalName) ?? []).map((a) => this.toAlias(a)),
        }),
      );
    }

    this.components = components;
    this.resources = resources;
    this.registerOutputs({
      components: this.plan.components.map((c) => c.name),
      objects: this.plan.objects.length,
    });
  }

  private toAlias(alias: PlannedAlias): pulumi.Alias {
    // Only the parent's type chain enters a URN, so the former parent component can be named by a
    // URN built from its former logical name; it need not exist any more.
    const parent =
      alias.parentComponent === undefined
        ? this
        : pulumi.createUrn(alias.parentComponent, COMPONENT_TYPE, this);
    return { name: alias.name, parent };
  }
}
