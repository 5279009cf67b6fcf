/**
 * Per-node configuration, as Yaook's `extract_labeled_configs` / `transpose_config` do it: a node
 * agent (nova-compute, Neutron's L3/DHCP/BGP agents) takes a list of templates, each a node
 * selector with configuration options. A node gets the agent's base configuration with the options
 * of every template whose selector it matches merged over it.
 *
 * Yaook merges per node at run time, when it sees the node's labels. Stackwright synthesises
 * without a cluster, so it merges per *class* of nodes instead: every combination of templates
 * that can match one node together becomes its own DaemonSet and ConfigMap, restricted (with
 * `restrictedTo`) to the nodes that carry all of the combination's labels and excluded (with
 * `NotIn` expressions) from the nodes that also match another template, so each node runs exactly
 * one pod of the agent, with exactly its merged configuration.
 *
 * **Overlap rule.** Selectors are sets of `label = value` requirements. Two selectors can match
 * the same node unless some label is required by both with different values; a set of templates
 * can match one node together when every pair can. This is exact for the selectors alone and
 * approximate for a real cluster: it assumes any combination of labels may appear on a node, so
 * it reports overlaps that no node of yours may have. Two templates that can overlap and set one
 * option to different values are an error naming both templates and the option, since no merge
 * order would be obviously right (Yaook's CUE merge rejects the same conflict at run time).
 *
 * **Names.** A class's DaemonSet is named `<agent>` when the class needs no label beyond the
 * agent's own placement (no template applies, or only templates with an empty selector), and
 * `<agent>-<suffix>` otherwise, where the suffix is the first 6 hex digits of the SHA-256 of the
 * class's label selector (the union of its templates' selectors, keys sorted, as JSON). The name
 * depends only on selectors, not on the order of the templates or on the construct tree, so
 * reordering templates or editing their options never renames (and so never recreates) a
 * DaemonSet; changing a selector does.
 */
import { createHash } from 'crypto';
import { JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import {
  addCheck,
  Component,
  IDependable,
  propsProblems,
  PropsSpec,
  required,
  Rule,
  Rules,
} from '../../lib/model';
import { PodPlacement, podScheduling, reservedNodeLabelProblems, restrictedTo } from '../../lib/scheduling';
import { mergeOslo, OsloSchema, OsloValue, OsloValues, osloProblems, osloValuesRule } from './oslo-config';
import { shown } from '../../lib/graph';

/** Options for the nodes matching a selector. */
export interface NodeConfigTemplate {
  /**
   * Labels a node must carry, each with exactly this value. An empty selector matches every node
   * the agent runs on.
   */
  readonly nodeSelector: Readonly<Record<string, string>>;
  /** Options merged over the agent's configuration on matching nodes; validated like `config`. */
  readonly config: OsloValues;
}

/** Which of the agent's nodes a set of classes covers, beyond the agent's placement. */
export interface NodeScope {
  /** Labels every node must carry. @default - none */
  readonly required?: Readonly<Record<string, string>>;
  /** Label sets a node must not match (all labels equal): nodes served by another set of classes. @default - none */
  readonly excluded?: readonly Readonly<Record<string, string>>[];
}

/** One class of nodes: those matching exactly the templates in `templates`. */
export interface NodeConfigClass {
  /** Indexes of the templates that apply, ascending. */
  readonly templates: readonly number[];
  /** Labels every node of the class carries: the scope's and the templates' selectors. */
  readonly nodeSelector: Readonly<Record<string, string>>;
  /**
   * Label sets a node of the class must not match, reduced to the labels the class does not fix:
   * a node is excluded when it carries all of one set's labels with those values.
   */
  readonly exclusions: readonly Readonly<Record<string, string>>[];
  /** The templates' options merged in index order (without the agent's base configuration). */
  readonly config: OsloValues;
  /** `''` when the templates add no label, else the 6-hex-digit hash of their merged selector. */
  readonly suffix: string;
}

/** Templates beyond which synthesis refuses: each pair is compared, and they multiply into classes. */
export const MAX_NODE_CONFIG_TEMPLATES = 64;

const TEMPLATE: PropsSpec<NodeConfigTemplate> = {
  nodeSelector: required(Rules.labels(), "the labels of the nodes, e.g. { 'example.com/gpu': 'true' }"),
  config: required(
    osloValuesRule,
    'the options for those nodes, e.g. { DEFAULT: { cpu_allocation_ratio: 4 } }',
  ),
};

/**
 * The rule of a list of templates at the boundary: each `{ nodeSelector, config }` with valid
 * labels and options that render as written. The options against the schema, reserved labels and
 * conflicts between templates are checked at synthesis ({@link nodeConfigTemplateProblems}).
 */
export const nodeConfigTemplatesRule: Rule = Rules.list(
  Rules.given((value, name) => propsProblems(value, TEMPLATE, { what: name, prefix: `${name}.` })),
  { max: MAX_NODE_CONFIG_TEMPLATES },
);

/**
 * What a node agent configured per node takes (nova-compute, Neutron's OVN, L3, DHCP and BGP
 * agents): its options on every node, and templates of per-node options merged over them.
 */
export interface NodeConfiguredAgentOptions {
  /** Options of the agent's configuration on every node, merged over Stackwright's defaults. @default - none */
  readonly config?: OsloValues;
  /** Per-node options, one DaemonSet per class of nodes (see {@link NodeConfiguredAgent}). @default - none */
  readonly configTemplates?: readonly NodeConfigTemplate[];
}

/** The rules of {@link NodeConfiguredAgentOptions}, spread into the rules of an agent's options. */
export const NODE_CONFIGURED_AGENT_OPTIONS_RULES: PropsSpec<NodeConfiguredAgentOptions> = {
  config: osloValuesRule,
  configTemplates: nodeConfigTemplatesRule,
};

/** Classes beyond which synthesis refuses: more DaemonSets than anyone can operate. */
export const MAX_NODE_CONFIG_CLASSES = 64;

/** Node affinity terms one class may need (keys × exclusion alternatives). */
const MAX_TERMS = 128;

type Selector = Readonly<Record<string, string>>;

/** True when some node could carry both selectors' labels: no label is required with two values. */
export function selectorsCanOverlap(a: Selector, b: Selector): boolean {
  return Object.entries(a).every(([key, value]) => !(key in b) || b[key] === value);
}

/**
 * Every class of nodes the templates divide the scope into, in a stable order (fewer templates
 * first, then by template indexes). Templates listed in `ignore` (invalid ones) take no part.
 */
export function nodeConfigClasses(
  templates: readonly NodeConfigTemplate[],
  scope: NodeScope = {},
  ignore: ReadonlySet<number> = new Set(),
): NodeConfigClass[] {
  const candidates = templates.map((_, i) => i).filter((i) => !ignore.has(i));
  const required = scope.required ?? {};
  const classes: NodeConfigClass[] = [];

  // Depth-first over include/exclude decisions, never extending an impossible combination, so
  // disjoint selectors (one per rack, one per hardware type) cost linear time, not 2^n.
  const visit = (position: number, chosen: number[], selector: Record<string, string>) => {
    if (classes.length > MAX_NODE_CONFIG_CLASSES) return;
    if (position === candidates.length) {
      const found = classOf(chosen, selector);
      if (found) classes.push(found);
      return;
    }
    const index = candidates[position];
    const own = templates[index].nodeSelector;
    if (selectorsCanOverlap(selector, own)) visit(position + 1, [...chosen, index], { ...selector, ...own });
    visit(position + 1, chosen, selector);
  };

  const classOf = (chosen: number[], selector: Record<string, string>): NodeConfigClass | undefined => {
    const others = [
      ...candidates.filter((i) => !chosen.includes(i)).map((i) => templates[i].nodeSelector),
      ...(scope.excluded ?? []),
    ];
    const exclusions: Selector[] = [];
    for (const other of others) {
      if (!selectorsCanOverlap(selector, other)) continue; // no node of the class matches it
      const open = Object.fromEntries(Object.entries(other).filter(([key]) => !(key in selector)));
      if (Object.keys(open).length === 0) return undefined; // every node of the class matches it: not a class of its own
      exclusions.push(open);
    }
    // The scope's own labels are in the agent's id already (`cell2-compute`); only what the templates add counts.
    const ownLabels = Object.fromEntries(
      Object.entries(selector).filter(([key, value]) => required[key] !== value),
    );
    return {
      templates: chosen,
      nodeSelector: sortedRecord(selector),
      exclusions: minimal(exclusions.map(sortedRecord)),
      config: chosen.reduce<OsloValues>((merged, i) => mergeOslo(merged, templates[i].config), {}),
      suffix: Object.keys(ownLabels).length === 0 ? '' : selectorHash(ownLabels),
    };
  };

  visit(0, [], { ...required });
  return classes.sort(
    (a, b) =>
      a.templates.length - b.templates.length || a.templates.join(',').localeCompare(b.templates.join(',')),
  );
}

/**
 * Problems with a list of templates (empty when valid), each naming the template by index and
 * selector: options unknown to `schema` or given as plain-text credentials, reserved labels, and
 * options two overlapping templates set to different values (label syntax is checked at the
 * boundary, by {@link nodeConfigTemplatesRule}).
 */
export function nodeConfigTemplateProblems(
  templates: readonly NodeConfigTemplate[],
  schema: OsloSchema,
  file: string,
): string[] {
  const problems: string[] = [];
  templates.forEach((template, i) => {
    const name = describeTemplate(template, i);
    problems.push(...osloProblems(file, schema, template.config).map((p) => `${name}: ${p}`));
    problems.push(...reservedNodeLabelProblems(Object.keys(template.nodeSelector), `${name} nodeSelector`));
  });
  for (let i = 0; i < templates.length; i++) {
    for (let j = i + 1; j < templates.length; j++) {
      const [a, b] = [templates[i], templates[j]];
      if (!selectorsCanOverlap(a.nodeSelector, b.nodeSelector)) continue;
      for (const [section, options] of Object.entries(a.config)) {
        for (const [option, value] of Object.entries(options)) {
          const other = b.config[section]?.[option];
          if (other === undefined || sameValue(value, other)) continue;
          problems.push(
            `${describeTemplate(a, i)} and ${describeTemplate(b, j)} can match the same node but set [${section}] ${option} ` +
              `to different values (${shown(value)} and ${shown(other)}); make their nodeSelectors exclusive ` +
              '(require one label with a different value in each) or set the option in one template only',
          );
        }
      }
    }
  }
  return problems;
}

/** Indexes of templates that must not be synthesised (their selector uses a reserved label). */
export function unusableTemplates(templates: readonly NodeConfigTemplate[]): Set<number> {
  return new Set(
    templates
      .map((t, i) => (reservedNodeLabelProblems(Object.keys(t.nodeSelector), '').length > 0 ? i : -1))
      .filter((i) => i >= 0),
  );
}

/** A node selector requirement as the Kubernetes API spells it. */
export interface NodeRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

/**
 * The required node affinity terms of `placement` with `exclusions` added: since terms are ORed
 * and expressions ANDed, "not all of {a, b}" becomes one alternative per label (`a NotIn`, `b
 * NotIn`), multiplied out over the exclusions; single-label exclusions on the same key fold into
 * one `NotIn` with several values.
 */
export function excludingTerms(
  placement: PodPlacement,
  exclusions: readonly Selector[],
): NodeRequirement[][] {
  const base = podScheduling(
    placement,
  ).affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.map(
    (t) => [...t.matchExpressions] as NodeRequirement[],
  );
  const folded = new Map<string, string[]>();
  const alternatives: NodeRequirement[][] = [];
  for (const exclusion of exclusions) {
    const entries = Object.entries(exclusion);
    if (entries.length === 1) {
      const [key, value] = entries[0];
      folded.set(key, [...(folded.get(key) ?? []), value]);
    } else {
      alternatives.push(entries.map(([key, value]) => ({ key, operator: 'NotIn', values: [value] })));
    }
  }
  const always: NodeRequirement[] = [...folded.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, values]) => ({ key, operator: 'NotIn', values: [...new Set(values)].sort() }));
  let terms = base.map((t) => [...t, ...always]);
  for (const choice of alternatives)
    terms = terms.flatMap((t) => choice.map((requirement) => [...t, requirement]));
  return terms;
}

export interface NodeConfiguredAgentProps {
  /** The agent's placement (its scheduling key, group keys and required labels). */
  readonly placement: PodPlacement;
  /** @default - none: one DaemonSet with the base configuration */
  readonly templates?: readonly NodeConfigTemplate[];
  /** Narrows the agent to part of its nodes (a Nova cell). @default - all nodes of the placement */
  readonly nodes?: NodeScope;
  /** The schema and file name templates are validated against. */
  readonly schema: OsloSchema;
  readonly file: string;
  /**
   * Builds the component of one class: `id` is its construct id (and name suffix), `placement`
   * already restricted to the class's labels, `config` the class's template options (merge them
   * over the agent's own configuration).
   */
  readonly build: (
    scope: Construct,
    id: string,
    nodeClass: { placement: PodPlacement; config: OsloValues; classInfo: NodeConfigClass },
  ) => Component;
}

/**
 * A node agent configured per node: one component (DaemonSet + ConfigMap, built by `build`) per
 * class of nodes, see the module documentation. Depending on it depends on every class.
 */
export class NodeConfiguredAgent extends Construct implements IDependable {
  /** The components, one per class, in class order; the first is the unnamed one when it exists. */
  readonly components: readonly Component[];
  readonly classes: readonly NodeConfigClass[];

  constructor(scope: Construct, id: string, props: NodeConfiguredAgentProps) {
    super(scope, id);
    const templates = props.templates ?? [];
    const ignored = unusableTemplates(templates);
    this.classes = nodeConfigClasses(templates, props.nodes, ignored);
    const classes = this.classes;
    addCheck(this, () => [
      ...nodeConfigTemplateProblems(templates, props.schema, props.file),
      ...(classes.length > MAX_NODE_CONFIG_CLASSES
        ? [
            `configTemplates give more than ${MAX_NODE_CONFIG_CLASSES} combinations that can meet on one node, each its own DaemonSet; ` +
              'make selectors exclusive (one label with different values) so fewer templates overlap',
          ]
        : []),
    ]);
    this.components = classes.slice(0, MAX_NODE_CONFIG_CLASSES).map((nodeClass) => {
      const componentId = nodeClass.suffix ? `${id}-${nodeClass.suffix}` : id;
      const classPlacement = restrictedTo(props.placement, nodeClass.nodeSelector);
      const component = props.build(this, componentId, {
        placement: classPlacement,
        config: nodeClass.config,
        classInfo: nodeClass,
      });
      if (nodeClass.exclusions.length > 0) excludeNodes(component, classPlacement, nodeClass, templates);
      return component;
    });
  }

  get dependencyTargets(): readonly Component[] {
    return this.components;
  }
}

const TERMS_PATH =
  '/spec/template/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms';

/** Writes the exclusions into the class's workloads (the shared placement model has no `NotIn`). */
function excludeNodes(
  component: Component,
  placement: PodPlacement,
  nodeClass: NodeConfigClass,
  templates: readonly NodeConfigTemplate[],
): void {
  const terms = excludingTerms(placement, nodeClass.exclusions);
  if (terms.length > MAX_TERMS) {
    addCheck(component, () => [
      `the class of configTemplates ${nodeClass.templates.map((i) => describeTemplate(templates[i], i)).join(', ') || '(none)'} ` +
        `needs ${terms.length} node affinity terms to keep off the nodes of overlapping templates; make selectors exclusive`,
    ]);
    return;
  }
  for (const object of component.apiObjects) {
    if (['DaemonSet', 'Deployment', 'StatefulSet'].includes(object.kind)) {
      object.addJsonPatch(
        JsonPatch.replace(
          TERMS_PATH,
          terms.map((matchExpressions) => ({ matchExpressions })),
        ),
      );
    }
  }
}

function describeTemplate(template: NodeConfigTemplate, index: number): string {
  return `configTemplates[${index}] (nodeSelector ${shown(sortedRecord(template.nodeSelector))})`;
}

function sameValue(a: OsloValue, b: OsloValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function sortedRecord(record: Selector): Record<string, string> {
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((k) => [k, record[k]]),
  );
}

function selectorHash(selector: Selector): string {
  return createHash('sha256')
    .update(JSON.stringify(sortedRecord(selector)))
    .digest('hex')
    .slice(0, 6);
}

/**
 * Drops duplicate exclusions and those implied by another: a node that does not match {a} does
 * not match {a, b} either, so {a, b} adds nothing but node affinity terms.
 */
function minimal(selectors: Record<string, string>[]): Record<string, string>[] {
  const contains = (big: Selector, small: Selector) => Object.entries(small).every(([k, v]) => big[k] === v);
  const keyOf = (s: Selector) => JSON.stringify(s);
  return selectors.filter(
    (s, i) =>
      selectors.findIndex((other) => keyOf(other) === keyOf(s)) === i &&
      !selectors.some((other) => keyOf(other) !== keyOf(s) && contains(s, other)),
  );
}
