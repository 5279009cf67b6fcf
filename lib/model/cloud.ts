import { ApiObject, Chart } from 'cdk8s';
import { k8s } from 'cdk8s-plus-33';
import { Construct, IConstruct } from 'constructs';
import {
  Annotations,
  DEFAULT_RELEASE,
  encodeDependsOn,
  findCycle,
  isClusterScoped,
  kindFacts,
  OpenStackRelease,
  topologicalOrder,
} from '../graph';
import { Component } from './component';
import { CLOUD_MARKER, closest, COMPONENT_MARKER, hasMarker, mark } from './markers';
import { commonLabelsProblems } from './common-labels';
import { JsonApiObject } from './json-api-object';
import { podSecurityLabels } from './pod-security';
import { strayObjectProblems } from './stray-objects';
import { reportUncaughtInputErrors } from './uncaught-errors';
import { releaseProblems } from './releases';
import {
  addCheck,
  assertNoProblems,
  dnsLabelProblems,
  propsProblems,
  PropsSpec,
  required,
  reservedNamespaceProblems,
  Rules,
  freeConstructId,
} from './validation';

export interface CloudProps {
  /**
   * The namespace of the control plane: every namespaced object of the cloud goes there, except
   * those of the node agents (see `agentNamespace`). Its Pod Security admission enforces
   * `restricted`.
   */
  readonly namespace: string;
  /**
   * The namespace of the node agents, the components whose pods need the host (its network, PID
   * namespace, devices or directories: nova-compute, libvirt, the OVN agent, ceilometer's compute
   * agent). Its Pod Security admission allows `privileged` pods, which `namespace` refuses. It is
   * created only when the cloud has a node agent.
   * @default `<namespace>-agents`
   */
  readonly agentNamespace?: string;
  /**
   * The OpenStack release: the option schemas the services' configuration is checked against and
   * the default image tag. One of {@link SUPPORTED_RELEASES}.
   * @default - the newest supported release ({@link DEFAULT_RELEASE})
   */
  readonly release?: OpenStackRelease;
  /**
   * Registry and path prefix of the OpenStack images.
   * @default 'registry.yaook.cloud/yaook'
   */
  readonly imageRegistry?: string;
  /**
   * The image used by Jobs that create credentials and other Kubernetes objects (needs `kubectl` and `openssl`).
   * @default 'docker.io/bitnami/kubectl:1.36'
   */
  readonly toolboxImage?: string;
  /**
   * Labels added to every object. The labels Stackwright sets itself (`app.kubernetes.io/name`,
   * `instance`, `component`, `part-of`, `managed-by`), the `stackwright.io` prefix and Yaook's
   * reserved `state.yaook.cloud/forced-downscale` are refused.
   * @default - none
   */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Whether the cloud synthesises its Namespace objects (with their Pod Security labels). Without
   * them, label the namespaces yourself (docs/security.md says how).
   * @default true
   */
  readonly createNamespace?: boolean;
  /**
   * Puts the cloud in a namespace Kubernetes uses itself (`default`, `kube-system`, …), where its
   * objects mix with the cluster's own; without it such a namespace is rejected.
   * @default false
   */
  readonly allowReservedNamespace?: boolean;
  /**
   * The cluster's DNS domain (the kubelet's `clusterDomain`). Clients that resolve names without
   * the pod's search list need fully qualified names ({@link Cloud.serviceFqdn}): Open vSwitch and
   * OVN (libunbound) and the Python `ovs` library reach the OVN databases by such names.
   * @default 'cluster.local'
   */
  readonly clusterDomain?: string;
}

const CLOUD_PROPS: PropsSpec<CloudProps> = {
  namespace: required(Rules.dnsLabel(), "the namespace of the cloud's objects, e.g. 'openstack'"),
  release: Rules.given(releaseProblems),
  imageRegistry: Rules.image(),
  toolboxImage: Rules.image(),
  labels: Rules.given(commonLabelsProblems),
  createNamespace: Rules.bool(),
  allowReservedNamespace: Rules.bool(),
  agentNamespace: Rules.dnsLabel(),
  clusterDomain: Rules.dnsSubdomain(),
};

const MANAGED_BY = 'stackwright';

/**
 * The root of a cloud: a cdk8s Chart that holds services and validates the whole component graph at
 * synthesis (names, disabled or missing dependencies, cycles, duplicate objects) before anything is
 * written. Its output is deterministic: objects carry graph annotations and come in dependency
 * order, components tied by name, kinds in apply order.
 *
 * @example
 * const app = new App();
 * const cloud = new Cloud(app, 'prod', { namespace: 'openstack' });
 * new Memcached(cloud, 'cache');
 * app.synth();
 */
export class Cloud extends Chart {
  /** The cloud a construct belongs to; throws with the path when it is not inside one. */
  static of(scope: IConstruct): Cloud {
    const cloud = closest(scope, CLOUD_MARKER);
    if (!cloud)
      throw new Error(
        `[${scope.node.path}] is not inside a Cloud; create it with a Cloud (or its child) as scope`,
      );
    return cloud as Cloud;
  }

  readonly cloudName: string;
  /** The control plane's namespace (Pod Security `restricted`). */
  readonly namespace: string;
  /** The node agents' namespace (Pod Security `privileged`); see {@link Cloud.addNodeAgent}. */
  readonly agentNamespace: string;
  readonly release: OpenStackRelease;
  readonly imageRegistry: string;
  readonly toolboxImage: string;
  /** The cluster's DNS domain. */
  readonly clusterDomain: string;
  private readonly createNamespace: boolean;
  private readonly nodeAgents = new Set<Component>();

  constructor(scope: Construct, id: string, props: CloudProps) {
    super(scope, freeConstructId(scope, id), {
      namespace: props?.namespace,
      labels: props?.labels,
      disableResourceNameHashes: true,
    });
    mark(this, CLOUD_MARKER);
    reportUncaughtInputErrors();
    // The id names the inventory (`stackwright-inventory-<id>`) and is its label's value.
    assertNoProblems(this, [
      ...dnsLabelProblems(id, 'cloud id'),
      ...propsProblems(props, CLOUD_PROPS),
      ...reservedNamespaceProblems(props?.namespace, props?.allowReservedNamespace ?? false),
      ...agentNamespaceProblems(props),
    ]);
    this.cloudName = id;
    this.namespace = props.namespace;
    this.agentNamespace = props.agentNamespace ?? defaultAgentNamespace(props.namespace);
    this.release = props.release ?? DEFAULT_RELEASE;
    this.imageRegistry = props.imageRegistry ?? 'registry.yaook.cloud/yaook';
    this.toolboxImage = props.toolboxImage ?? 'docker.io/bitnami/kubectl:1.36';
    this.clusterDomain = props.clusterDomain ?? 'cluster.local';
    this.createNamespace = props.createNamespace ?? true;
    if (this.createNamespace) {
      new JsonApiObject(this, 'namespace', k8s.KubeNamespace, {
        metadata: { name: props.namespace, labels: podSecurityLabels('restricted') },
      });
    }
    addCheck(this, () => this.problems());
  }

  /**
   * Declares `component` a node agent: its pods need the host, which the control plane's namespace
   * refuses, so its namespaced objects go to {@link agentNamespace} (created with the first agent).
   * `podTemplate` calls it for every pod that needs the host: the decision follows from the pod,
   * never from a list of services. Whatever the agent's pods mount must be in that namespace too.
   */
  addNodeAgent(component: Component): void {
    if (Cloud.of(component) !== this)
      throw new Error(
        `[${component.node.path}] is not a component of cloud ${this.cloudName}; add it to its own cloud`,
      );
    if (this.nodeAgents.size === 0 && this.createNamespace) {
      new JsonApiObject(this, 'agent-namespace', k8s.KubeNamespace, {
        metadata: { name: this.agentNamespace, labels: podSecurityLabels('privileged') },
      });
    }
    this.nodeAgents.add(component);
  }

  /** True when `component` is a node agent (see {@link addNodeAgent}). */
  isNodeAgent(component: Component): boolean {
    return this.nodeAgents.has(component);
  }

  /** The namespace `component`'s namespaced objects go to: the agents' or the control plane's. */
  namespaceOf(component: Component): string {
    return this.nodeAgents.has(component) ? this.agentNamespace : this.namespace;
  }

  /**
   * The DNS name of a Service of the control plane (`keystone-api`), or of a member of one
   * (`memcached-0.memcached`): `<name>.<namespace>.svc`, which resolves from either of the cloud's
   * namespaces (a bare name resolves only in its own), so node agents reach the control plane by it.
   */
  serviceHost(name: string): string {
    return `${name}.${this.namespace}.svc`;
  }

  /**
   * The fully qualified DNS name of a Service of the control plane or of a member of one
   * (`ovsdb-sb-0.ovsdb-sb-peers.<namespace>.svc.<clusterDomain>`), for resolvers that do not apply
   * the pod's search list (libunbound in Open vSwitch and OVN).
   */
  serviceFqdn(name: string): string {
    return `${this.serviceHost(name)}.${this.clusterDomain}`;
  }

  /** `<registry>/<name>:<release>`, or the given tag. */
  image(name: string, tag: string = this.release): string {
    return `${this.imageRegistry}/${name}:${tag}`;
  }

  /** Every component of the cloud, enabled or not, in tree order. */
  get components(): Component[] {
    return Component.allIn(this);
  }

  /** The enabled components in deployment order (gating dependencies first, ties by name). */
  get orderedComponents(): Component[] {
    const enabled = this.components.filter((c) => c.enabled);
    const byName = new Map(enabled.map((c) => [c.componentName, c]));
    const order = topologicalOrder([...byName.keys()], this.edgesOf(enabled));
    return order.map((name) => byName.get(name) as Component);
  }

  /**
   * Renders the cloud: validates this cloud's subtree, annotates every object with its component and
   * edges, drops disabled components, and orders the result. `app.synth()` calls this after
   * validating the app.
   *
   * cdk8s' own `Chart.toJson()` re-validates the whole App for every chart, which makes an App with
   * N clouds cost N+1 validations of everything (measured in bench/synth); validating only the
   * cloud's own subtree keeps synthesis linear and still fails `Testing.synth(cloud)` on bad input.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- cdk8s' own signature
  override toJson(): any[] {
    // One walk of the subtree serves validation, annotation and rendering (each used to walk it
    // again, several times per component; bench/synth shows where the time went).
    const subtree = this.node.findAll();
    assertValid(subtree);
    const objects = subtree.filter((c): c is ApiObject => c instanceof ApiObject);
    this.annotate(objects);
    const position = new Map(this.orderedComponents.map((c, i) => [c.componentName, i]));
    const rendered = this.placedObjects(objects.filter((o) => Chart.of(o) === this)).map(
      ({ object, namespace }) => inNamespace(object.toJson() as RenderedObject, namespace),
    );
    return rendered
      .map((o, index) => ({ o, index }))
      .sort((a, b) => compareObjects(a.o, b.o, position) || a.index - b.index)
      .map(({ o }) => o);
  }

  private annotate(objects: readonly ApiObject[]): void {
    for (const object of objects) {
      object.metadata.addLabel('app.kubernetes.io/managed-by', MANAGED_BY);
      object.metadata.addAnnotation(Annotations.CLOUD, this.cloudName);
    }
    for (const component of this.components) {
      // Computed once per component and shared by its objects: the same string instances, not
      // one copy per object kept alive as long as the App.
      const labels = Object.entries({
        'app.kubernetes.io/name': component.service?.appName ?? component.componentName,
        'app.kubernetes.io/part-of': 'openstack',
        ...component.selectorLabels,
      });
      const dependsOn = encodeDependsOn(
        component.edges.map((e) => ({ to: e.target.componentName, kind: e.kind })),
      );
      const annotations: [string, string][] = [
        [Annotations.COMPONENT, component.componentName],
        [Annotations.SERVICE, component.serviceName],
        [Annotations.CONSTRUCT_PATH, component.node.path],
        ...(dependsOn ? [[Annotations.DEPENDS_ON, dependsOn] as [string, string]] : []),
      ];
      for (const object of component.apiObjects) {
        for (const [key, value] of labels) object.metadata.addLabel(key, value);
        for (const [key, value] of annotations) object.metadata.addAnnotation(key, value);
      }
    }
  }

  private edgesOf(components: readonly Component[]) {
    return components.flatMap((c) =>
      c.edges.map((e) => ({ from: c.componentName, to: e.target.componentName, kind: e.kind })),
    );
  }

  private problems(): string[] {
    const problems: string[] = [];
    const components = this.components;
    const byName = new Map<string, Component[]>();
    for (const c of components) byName.set(c.componentName, [...(byName.get(c.componentName) ?? []), c]);
    for (const [name, same] of byName) {
      if (same.length > 1) {
        problems.push(
          `duplicate component name "${name}" at ${same.map((c) => c.node.path).join(' and ')}; give one of them another id or a \`name\``,
        );
      }
    }
    for (const c of components) {
      for (const e of c.edges) {
        if (Cloud.of(e.target) !== this) {
          problems.push(
            `${c.node.path} depends on ${e.target.node.path}, which belongs to another cloud; pass an external endpoint instead`,
          );
        }
      }
    }
    const enabled = components.filter((c) => c.enabled);
    const cycle = findCycle(
      enabled.map((c) => c.componentName),
      this.edgesOf(enabled),
    );
    if (cycle) {
      const paths = cycle.map((name) => byName.get(name)?.[0]?.node.path ?? name);
      problems.push(
        `dependency cycle: ${cycle.join(' -> ')} (${paths.join(' -> ')}); remove one of these dependencies or make it a 'runtime' edge`,
      );
    }
    const rendered = this.renderedObjects();
    problems.push(
      ...this.duplicateObjectProblems(rendered),
      ...this.sharedObjectProblems(rendered),
      ...strayObjectProblems(this),
    );
    return problems;
  }

  /**
   * The objects rendered of `objects`, each with the namespace it goes to (undefined when
   * cluster-scoped): a disabled component's are left out, a node agent's go to the agents'
   * namespace, and when no enabled component is a node agent, nothing goes to that namespace
   * (not even the Namespace itself: the cloud does not create a privileged namespace it does not use).
   */
  private placedObjects(objects: readonly ApiObject[]): { object: ApiObject; namespace?: string }[] {
    const agents = [...this.nodeAgents].some((c) => c.enabled);
    const placed: { object: ApiObject; namespace?: string }[] = [];
    for (const object of objects) {
      const component = closest(object, COMPONENT_MARKER) as Component | undefined;
      if (component && !component.enabled) continue;
      if (isClusterScoped(object)) {
        if (object.kind === 'Namespace' && object.name === this.agentNamespace && !agents) continue;
        placed.push({ object });
        continue;
      }
      const namespace =
        component && this.nodeAgents.has(component)
          ? this.agentNamespace
          : (object.metadata.namespace ?? this.namespace);
      if (namespace === this.agentNamespace && !agents) continue;
      placed.push({ object, namespace });
    }
    return placed;
  }

  /** The enabled objects of this cloud, each with the key that identifies it in a cluster. */
  private renderedObjects(): RenderedKey[] {
    const objects = this.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject);
    return this.placedObjects(objects).map(({ object, namespace }) => ({
      object,
      namespace,
      key: [object.apiVersion.split('/')[0], object.kind, namespace ?? '', object.name].join('/'),
    }));
  }

  private duplicateObjectProblems(rendered: readonly RenderedKey[]): string[] {
    const seen = new Map<string, string>();
    const problems: string[] = [];
    for (const { key, object } of rendered) {
      const previous = seen.get(key);
      if (previous) {
        problems.push(
          `${object.kind} "${object.name}" is defined twice, at ${previous} and ${object.node.path}; rename one`,
        );
      } else seen.set(key, object.node.path);
    }
    return problems;
  }

  /**
   * Objects another cloud of the same App renders too (same namespace, or cluster-scoped): the
   * two deploys would overwrite each other. Reported by the later cloud only.
   */
  private sharedObjectProblems(rendered: readonly RenderedKey[]): string[] {
    const siblings = this.node.scope?.node.children ?? [];
    const earlier = siblings
      .slice(0, siblings.indexOf(this))
      .filter((c): c is Cloud => hasMarker(c, CLOUD_MARKER));
    if (earlier.length === 0) return [];
    const mine = new Map(rendered.map(({ key, object }) => [key, object]));
    return earlier.flatMap((other) =>
      other
        .renderedObjects()
        .filter(({ key }) => mine.has(key))
        .map(({ key, object, namespace }) => {
          const where = namespace === undefined ? '(cluster-scoped)' : `in namespace "${namespace}"`;
          return (
            `${object.kind} "${object.name}" ${where} is rendered by cloud ${other.cloudName} (${object.node.path}) and by this cloud ` +
            `(${mine.get(key)?.node.path}); the deploys would overwrite each other: give each cloud its own namespace` +
            (object.kind === 'Namespace'
              ? ', or pass createNamespace: false to the cloud that shares it'
              : '')
          );
        }),
    );
  }
}

/** An object of a cloud, the namespace it goes to, and the key that identifies it in a cluster (`group/Kind/namespace/name`). */
interface RenderedKey {
  readonly key: string;
  readonly object: ApiObject;
  readonly namespace?: string;
}

interface RenderedObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    namespace?: string;
    readonly annotations?: Record<string, string>;
  };
}

/**
 * The chart's namespace lands on every object cdk8s renders; the object goes to `namespace` instead
 * (a node agent's to the agents' namespace), and a cluster-scoped one carries none (the API server
 * rejects it on some kinds). Set on the rendered copy, so rendering leaves the construct tree as it was.
 */
function inNamespace(object: RenderedObject, namespace: string | undefined): RenderedObject {
  if (namespace === undefined) delete object.metadata.namespace;
  else object.metadata.namespace = namespace;
  return object;
}

/** The agents' namespace when none is given: `<namespace>-agents`. */
function defaultAgentNamespace(namespace: string): string {
  return `${namespace}-agents`;
}

/** The agents' namespace must be a namespace of its own, valid, and not one Kubernetes uses itself. */
function agentNamespaceProblems(props: CloudProps | undefined): string[] {
  if (typeof props?.namespace !== 'string') return [];
  if (props.agentNamespace === undefined) {
    const name = defaultAgentNamespace(props.namespace);
    return dnsLabelProblems(name, 'agentNamespace').length === 0
      ? []
      : [
          `the default agentNamespace "${name}" is longer than 63 characters; pass a shorter agentNamespace (or a shorter namespace)`,
        ];
  }
  if (typeof props.agentNamespace !== 'string') return [];
  if (props.agentNamespace === props.namespace)
    return [
      `agentNamespace "${props.agentNamespace}" is the control plane's namespace; node agents need a namespace of their own (Pod Security 'privileged' there, 'restricted' in namespace): pass another name, e.g. '${defaultAgentNamespace(props.namespace)}'`,
    ];
  return reservedNamespaceProblems(props.agentNamespace, props.allowReservedNamespace ?? false).map((p) =>
    p.replace(/^namespace/, 'agentNamespace'),
  );
}

/** Runs the validations of every construct of a subtree, reporting like cdk8s: `[path] message`. */
function assertValid(subtree: readonly IConstruct[]): void {
  const errors = subtree.flatMap((c) => c.node.validate().map((message) => `[${c.node.path}] ${message}`));
  if (errors.length > 0)
    throw new Error(`Validation failed with the following errors:\n  ${errors.join('\n  ')}`);
}

function compareObjects(a: RenderedObject, b: RenderedObject, position: Map<string, number>): number {
  const pa = position.get(a.metadata.annotations?.[Annotations.COMPONENT] ?? '') ?? -1;
  const pb = position.get(b.metadata.annotations?.[Annotations.COMPONENT] ?? '') ?? -1;
  return pa - pb || kindFacts(a).rank - kindFacts(b).rank || byName.compare(a.metadata.name, b.metadata.name);
}

/** `localeCompare`'s order (same default locale and options) without its per-call set-up cost. */
const byName = new Intl.Collator();
