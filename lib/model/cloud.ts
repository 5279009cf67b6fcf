import { ApiObject, Chart } from 'cdk8s';
import { k8s } from 'cdk8s-plus-33';
import { Construct, IConstruct } from 'constructs';
import { Annotations, DEFAULT_RELEASE, findCycle, kindFacts, OpenStackRelease } from '../graph';
import { Component } from './component';
import { CLOUD_MARKER, closest, hasMarker, mark } from './markers';
import { modelChanged, modelGeneration } from './model-generation';
import { ComponentMetadata, PlannedObject, SynthesisPlan, walkCloud, WalkedCloud } from './synthesis-plan';
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
  private _plan?: SynthesisPlan;
  private _walked?: WalkedCloud & { readonly generation: number };

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
    modelChanged();
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
    return [...this.walked().components];
  }

  /** The enabled components in deployment order (gating dependencies first, ties by name). */
  get orderedComponents(): Component[] {
    return [...this.plan().ordered];
  }

  /**
   * What this synthesis reads of the cloud (components, resolved edges, consumers, placement,
   * object keys), computed once and built again only when the model changed since.
   */
  plan(): SynthesisPlan {
    const generation = modelGeneration();
    if (this._plan?.generation !== generation)
      this._plan = new SynthesisPlan(this, generation, this.walked());
    return this._plan;
  }

  /** The cloud's subtree walked once per model generation (the plan's input; `components` reads it). */
  private walked(): WalkedCloud {
    const generation = modelGeneration();
    if (this._walked?.generation !== generation) this._walked = { generation, ...walkCloud(this) };
    return this._walked;
  }

  /**
   * Every object created in the cloud's chart reads its labels (cdk8s' `ApiObject` constructor does):
   * the one place that sees an object being added, which changes what the synthesis plan holds.
   */
  override get labels(): Record<string, string> {
    modelChanged();
    return super.labels;
  }

  /**
   * Renders the cloud: validates this cloud's subtree, adds every object's component labels and
   * graph annotations, drops disabled components, and orders the result. `app.synth()` calls this
   * after validating the app. Rendering works on the rendered copies: the construct tree is left as
   * it was.
   *
   * cdk8s' own `Chart.toJson()` re-validates the whole App for every chart, which makes an App with
   * N clouds cost N+1 validations of everything (measured in bench/synth); validating only the
   * cloud's own subtree keeps synthesis linear and still fails `Testing.synth(cloud)` on bad input.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- cdk8s' own signature
  override toJson(): any[] {
    const subtree = this.node.findAll();
    // A construct added where no model change is seen (an object of a nested chart) shows in the count.
    if (this._plan && this._plan.constructCount !== subtree.length) this._plan = this._walked = undefined;
    const plan = this.plan();
    assertValid(subtree);
    const position = new Map(plan.ordered.map((c, i) => [c.componentName, i]));
    const rendered = plan.objects
      .filter(({ object, rendered }) => rendered && Chart.of(object) === this)
      .map(({ object, component, namespace }) => {
        const json = object.toJson() as RenderedObject;
        json.metadata = withMetadata(json.metadata, plan.metadataOf(component));
        return inNamespace(json, namespace);
      });
    return rendered
      .map((o, index) => ({ o, index }))
      .sort((a, b) => compareObjects(a.o, b.o, position) || a.index - b.index)
      .map(({ o }) => o);
  }

  private problems(): string[] {
    const plan = this.plan();
    const problems: string[] = [];
    const byName = new Map<string, Component[]>();
    for (const c of plan.components) byName.set(c.componentName, [...(byName.get(c.componentName) ?? []), c]);
    for (const [name, same] of byName) {
      if (same.length > 1) {
        problems.push(
          `duplicate component name "${name}" at ${same.map((c) => c.node.path).join(' and ')}; give one of them another id or a \`name\``,
        );
      }
    }
    for (const c of plan.components) {
      for (const e of plan.edgesOf(c)) {
        if (Cloud.of(e.target) !== this) {
          problems.push(
            `${c.node.path} depends on ${e.target.node.path}, which belongs to another cloud; pass an external endpoint instead`,
          );
        }
      }
    }
    const cycle = findCycle(
      plan.enabled.map((c) => c.componentName),
      plan.namedEdges(plan.enabled),
    );
    if (cycle) {
      const paths = cycle.map((name) => byName.get(name)?.[0]?.node.path ?? name);
      problems.push(
        `dependency cycle: ${cycle.join(' -> ')} (${paths.join(' -> ')}); remove one of these dependencies or make it a 'runtime' edge`,
      );
    }
    const rendered = plan.objects.filter((o) => o.rendered);
    problems.push(
      ...duplicateObjectProblems(rendered),
      ...this.sharedObjectProblems(rendered),
      ...strayObjectProblems(this, plan.objects),
    );
    return problems;
  }

  /**
   * Objects another cloud of the same scope renders too (same namespace, or cluster-scoped): the
   * two deploys would overwrite each other. Reported by the later cloud only. Reads one index of
   * the sibling clouds' objects per model generation, so the check is linear in the clouds.
   */
  private sharedObjectProblems(rendered: readonly PlannedObject[]): string[] {
    const scope = this.node.scope;
    if (!scope) return [];
    const index = siblingIndex(scope);
    const me = index.clouds.indexOf(this);
    const shared: { other: number; at: number; problem: string }[] = [];
    for (const { key, object: mine } of rendered) {
      for (const { cloud: other, at, object, namespace } of index.byKey.get(key) ?? []) {
        if (other >= me) break;
        const where = namespace === undefined ? '(cluster-scoped)' : `in namespace "${namespace}"`;
        shared.push({
          other,
          at,
          problem:
            `${object.kind} "${object.name}" ${where} is rendered by cloud ${index.clouds[other].cloudName} (${object.node.path}) and by this cloud ` +
            `(${mine.node.path}); the deploys would overwrite each other: give each cloud its own namespace` +
            (object.kind === 'Namespace'
              ? ', or pass createNamespace: false to the cloud that shares it'
              : ''),
        });
      }
    }
    return shared.sort((a, b) => a.other - b.other || a.at - b.at).map((s) => s.problem);
  }
}

/** The objects of the clouds under one scope by key, each with its cloud's position among them. */
interface SiblingIndex {
  readonly generation: number;
  readonly clouds: readonly Cloud[];
  readonly byKey: ReadonlyMap<
    string,
    readonly { cloud: number; at: number; object: ApiObject; namespace?: string }[]
  >;
}

const siblingIndexes = new WeakMap<IConstruct, SiblingIndex>();

/** One index per scope and model generation of the rendered objects of the clouds directly under it. */
function siblingIndex(scope: IConstruct): SiblingIndex {
  const generation = modelGeneration();
  const cached = siblingIndexes.get(scope);
  if (cached?.generation === generation) return cached;
  const clouds = scope.node.children.filter((c): c is Cloud => hasMarker(c, CLOUD_MARKER));
  const byKey = new Map<string, { cloud: number; at: number; object: ApiObject; namespace?: string }[]>();
  clouds.forEach((cloud, position) => {
    const seen = new Set<string>();
    cloud
      .plan()
      .objects.filter((o) => o.rendered)
      .forEach(({ key, object, namespace }, at) => {
        // A key twice in one cloud is the duplicate check's to report; the index keeps the first.
        if (seen.has(key)) return;
        seen.add(key);
        const list = byKey.get(key);
        const entry = { cloud: position, at, object, namespace };
        if (list) list.push(entry);
        else byKey.set(key, [entry]);
      });
  });
  const index = { generation, clouds, byKey };
  siblingIndexes.set(scope, index);
  return index;
}

function duplicateObjectProblems(rendered: readonly PlannedObject[]): string[] {
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
 * `metadata` with the labels and annotations rendering adds (over what the object has under the
 * same keys), each map and the metadata itself with their keys sorted as cdk8s renders them.
 */
function withMetadata(
  metadata: RenderedObject['metadata'],
  added: ComponentMetadata,
): RenderedObject['metadata'] {
  return sortedKeys({
    ...metadata,
    labels: merged(metadata.labels, added.labels),
    annotations: merged(metadata.annotations, added.annotations),
  });
}

/**
 * `rendered` (keys sorted, as cdk8s renders them) with `added` (sorted by key) merged in, `added`
 * winning: one pass over both, the result's keys sorted.
 */
function merged(
  rendered: Record<string, string> | undefined,
  added: readonly (readonly [string, string])[],
): Record<string, string> {
  const keys = rendered ? Object.keys(rendered) : [];
  if (!isSorted(keys)) return sortedKeys({ ...rendered, ...Object.fromEntries(added) });
  const result: Record<string, string> = {};
  let i = 0;
  for (const [key, value] of added) {
    while (i < keys.length && keys[i] < key)
      result[keys[i]] = (rendered as Record<string, string>)[keys[i++]];
    if (keys[i] === key) i++;
    result[key] = value;
  }
  for (; i < keys.length; i++) result[keys[i]] = (rendered as Record<string, string>)[keys[i]];
  return result;
}

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) return false;
  return true;
}

function sortedKeys<T extends object>(object: T): T {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(object).sort()) sorted[key] = (object as Record<string, unknown>)[key];
  return sorted as T;
}

interface RenderedObject {
  readonly apiVersion: string;
  readonly kind: string;
  metadata: {
    readonly name: string;
    namespace?: string;
    readonly labels?: Record<string, string>;
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
