import { apiGroupOf, ComponentGraph, dnsLabelProblems, dnsSubdomainProblems, KubeObject } from '../graph';
import { inventoryLocation } from './inventory/inventory';

/** One RBAC policy rule, as in a Role or ClusterRole. */
export interface PolicyRule {
  readonly apiGroups: string[];
  readonly resources: string[];
  readonly resourceNames?: string[];
  readonly verbs: string[];
}

/** What `stackwright plan`, `deploy`, `verify`, `status`, `prune` and `destroy` of one cloud need. */
export interface DeployerRbac {
  /** One Role per namespace the manifests (and the inventory) use. */
  readonly roles: KubeObject[];
  /** The cluster-scoped part: the cluster-scoped kinds of the manifests, and reading nodes. */
  readonly clusterRole: KubeObject;
}

/**
 * Everything an object is managed with: server-side apply is a PATCH that creates the object
 * when it does not exist (so `create` as well as `patch`), watches and lists follow it, and
 * destroy and prune delete it.
 */
const MANAGE = ['create', 'delete', 'get', 'list', 'patch', 'watch'];
const READ = ['get', 'list', 'watch'];

/**
 * What the stuck-state diagnosis reads in every namespace the deployer manages
 * (`diagnose/diagnose-component.ts`): the pods behind the workloads, the ReplicaSets the
 * Deployments own (their Events say why no pod was created: a quota, an admission webhook) and the
 * namespace's Events. Without them a least-privilege deployer loses the fast causes and waits out
 * the component timeout.
 */
const DIAGNOSIS_READS: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['pods'], verbs: READ },
  { apiGroups: [''], resources: ['events'], verbs: READ },
  { apiGroups: ['apps'], resources: ['replicasets'], verbs: READ },
];

/**
 * The least-privilege Roles and ClusterRole for the deployer of the cloud in `graph`, named
 * `<name>`, derived from the manifests:
 * - every kind of the manifests, in its namespace (or cluster-wide), with {@link MANAGE};
 * - ConfigMaps in the inventory's namespace (the inventory is one);
 * - Pods, Events and ReplicaSets (read) in every namespace and Nodes (read): the diagnosis and
 *   the preflight read them ({@link DIAGNOSIS_READS});
 * - every rule of every Role the manifests hold: Kubernetes lets a subject create a Role only
 *   when it holds what the Role grants (RBAC escalation prevention), e.g. the generator Jobs'
 *   `get` on their Secret by name and `create` on Secrets.
 */
export function deployerRbac(graph: ComponentGraph, name: string): DeployerRbac {
  const problems = deployerNameProblems(name);
  if (problems.length > 0) throw new Error(problems.join('; '));
  const objects = [...graph.bootstrap, ...graph.components.flatMap((c) => c.objects)];
  const byNamespace = new Map<string, RuleSet>();
  const cluster = new RuleSet();
  const inNamespace = (namespace: string) => {
    const existing = byNamespace.get(namespace);
    if (existing) return existing;
    const created = new RuleSet();
    DIAGNOSIS_READS.forEach((rule) => created.add(rule));
    byNamespace.set(namespace, created);
    return created;
  };
  for (const object of objects) {
    const rule = {
      apiGroups: [apiGroupOf(object.apiVersion)],
      resources: [resourceOf(object.kind)],
      verbs: MANAGE,
    };
    const namespace = object.metadata.namespace;
    if (namespace === undefined) cluster.add(rule);
    else inNamespace(namespace).add(rule);
    if (object.kind === 'Role' && namespace !== undefined) {
      for (const granted of (object as { rules?: PolicyRule[] }).rules ?? [])
        inNamespace(namespace).add(granted);
    }
  }
  inNamespace(inventoryLocation(graph).namespace).add({
    apiGroups: [''],
    resources: ['configmaps'],
    verbs: MANAGE,
  });
  cluster.add({ apiGroups: [''], resources: ['nodes'], verbs: READ });
  const metadata = { name, labels: { 'app.kubernetes.io/managed-by': 'stackwright' } };
  return {
    roles: [...byNamespace.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([namespace, rules]) => ({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { ...metadata, namespace },
        rules: rules.rules(),
      })),
    clusterRole: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata,
      rules: cluster.rules(),
    } as KubeObject,
  };
}

/**
 * The resource (plural, lower case) of a kind: `NetworkPolicy` -> `networkpolicies`,
 * `PriorityClass` -> `priorityclasses`. Right for every kind the SDK synthesises; a custom kind
 * with an irregular plural needs its rule added by hand.
 */
export function resourceOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  if (/(s|x|ch|sh)$/.test(lower)) return `${lower}es`;
  return `${lower}s`;
}

/** Rules merged by (group, resource, names): one rule per key with the union of the verbs. */
class RuleSet {
  private readonly verbs = new Map<string, Set<string>>();

  add(rule: PolicyRule): void {
    for (const group of rule.apiGroups) {
      for (const resource of rule.resources) {
        const key = JSON.stringify([group, resource, [...(rule.resourceNames ?? [])].sort()]);
        const verbs = this.verbs.get(key) ?? new Set<string>();
        rule.verbs.forEach((v) => verbs.add(v));
        this.verbs.set(key, verbs);
      }
    }
  }

  /** The rules, sorted; named rules that differ only in their names merged into one. */
  rules(): PolicyRule[] {
    const merged = new Map<string, PolicyRule>();
    for (const [key, verbs] of this.verbs) {
      const [group, resource, names] = JSON.parse(key) as [string, string, string[]];
      const sortedVerbs = [...verbs].sort();
      const mergeKey = JSON.stringify([group, resource, names.length > 0, sortedVerbs]);
      const previous = merged.get(mergeKey);
      const allNames = [...(previous?.resourceNames ?? []), ...names].sort();
      merged.set(mergeKey, {
        apiGroups: [group],
        resources: [resource],
        ...(allNames.length > 0 ? { resourceNames: allNames } : {}),
        verbs: sortedVerbs,
      });
    }
    return [...merged.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, rule]) => rule);
  }
}

/**
 * Problems with `name` as the name of the deployer's Roles, ClusterRole and bindings (empty when
 * valid): a DNS-1123 subdomain, as `kubectl create role` asks, so the API server accepts every one.
 */
export function deployerNameProblems(name: string): string[] {
  return dnsSubdomainProblems(name, 'the deployer name').map(
    (problem) => `${problem} (the name of its Roles, ClusterRole and bindings; e.g. team-deployer)`,
  );
}

/** Problems with a ServiceAccount given as `NAMESPACE/NAME` (empty when valid). */
export function deployerSubjectProblems(subject: DeployerSubject): string[] {
  return [
    ...dnsLabelProblems(subject.namespace, "the ServiceAccount's namespace"),
    ...dnsSubdomainProblems(subject.serviceAccount, "the ServiceAccount's name"),
  ];
}

/** The subject the deployer's permissions are bound to. */
export interface DeployerSubject {
  readonly namespace: string;
  readonly serviceAccount: string;
}

/**
 * The ClusterRoleBinding and one RoleBinding per Role that give {@link deployerRbac}'s permissions,
 * all named `name`, to a ServiceAccount.
 */
export function deployerBindings(rbac: DeployerRbac, name: string, subject: DeployerSubject): KubeObject[] {
  const problems = [...deployerNameProblems(name), ...deployerSubjectProblems(subject)];
  if (problems.length > 0) throw new Error(problems.join('; '));
  const subjects = [{ kind: 'ServiceAccount', namespace: subject.namespace, name: subject.serviceAccount }];
  const roleRef = (kind: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: roleRef('ClusterRole'),
      subjects,
    } as KubeObject,
    ...rbac.roles.map(
      (role) =>
        ({
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name, namespace: role.metadata.namespace },
          roleRef: roleRef('Role'),
          subjects,
        }) as KubeObject,
    ),
  ];
}
