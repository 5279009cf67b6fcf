import { k8s } from 'cdk8s-plus-33';
import { Cloud, Component, IDependable, JsonApiObject, Service } from '../../lib/model';
import { SchedulingKey } from '../../lib/scheduling';
import { GeneratedSecret } from './generated-secret';
import { JobComponent } from './job-component';
import { addIfMissing, ifSecretExists, patchMissing } from './secret-key-fill';
import { secretsReadBy } from './secret-readers';

/**
 * A Secret of the control plane's namespace copied into the agents' namespace, where a node agent's
 * pods can mount it (a pod reads only Secrets of its own namespace). The copy is made in the
 * cluster, like the original, so no value reaches the synthesised YAML; it is created once and then
 * kept, like every generated credential (see {@link GeneratedSecret}): a later run adds only the
 * keys the original has and the copy lacks (a key a newer version generates), never changing a
 * value the copy holds (the service user's rotation switches both).
 *
 * The Job may read exactly the original and the copy (`resourceNames`), patch the copy, and create
 * Secrets in the agents' namespace only: it cannot read any other credential of either namespace.
 * It waits for the Job that generates the original, when the cloud has one.
 */
class AgentSecretCopy extends JobComponent {
  readonly secretName: string;
  private readonly readers: Component[] = [];

  constructor(scope: AgentSecrets, secretName: string) {
    const cloud = Cloud.of(scope);
    const from = cloud.namespace;
    const to = cloud.agentNamespace;
    const read = { apiGroups: [''], resources: ['secrets'], resourceNames: [secretName], verbs: ['get'] };
    super(scope, secretName, {
      operatorKey: SchedulingKey.OPERATOR_CONFIGURED_DAEMON_SET,
      image: cloud.toolboxImage,
      kubernetesAccess: [read],
      command: ['/bin/sh', '-ec', copyProgram(secretName, from, to)],
    });
    this.secretName = secretName;
    // The same identity, granted in the agents' namespace: read the copy, add keys to it, create it.
    const metadata = { name: this.componentName, namespace: to };
    new JsonApiObject(this, 'agent-role', k8s.KubeRole, {
      metadata,
      rules: [
        { ...read, verbs: ['get', 'patch'] },
        // RBAC cannot narrow `create` by name: see docs/security.md for what that leaves.
        { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
      ],
    });
    new JsonApiObject(this, 'agent-role-binding', k8s.KubeRoleBinding, {
      metadata,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: this.componentName },
      subjects: [{ kind: 'ServiceAccount', name: this.componentName, namespace: from }],
    });
    this.dependsOn(generatorsOf(cloud, secretName), 'completed');
  }

  /** Enabled while a node agent that reads the Secret is: a copy no one reads is not made. */
  override get enabled(): boolean {
    return super.enabled && this.readers.some((c) => c.enabled);
  }

  /** Makes `agent` wait for the copy. */
  readBy(agent: Component): void {
    this.readers.push(agent);
    agent.dependsOn(this, 'completed');
  }
}

/**
 * The copy's shell program. The values go from kubectl's stdout to the shell's builtin printf to
 * kubectl's stdin: never on a command line. Of the copy, only its key names are read.
 */
function copyProgram(secretName: string, from: string, to: string): string {
  const copy = `-n ${to} ${secretName}`;
  return [
    ifSecretExists(copy),
    "  patch=''",
    `  lines=$(kubectl get secret -n ${from} ${secretName} -o go-template='{{range $k, $v := .data}}{{$k}} {{$v}}{{"\\n"}}{{end}}')`,
    '  while read -r key value; do',
    '    [ -n "$key" ] || continue',
    `    ${addIfMissing('$key', '\\"$key\\":\\"$value\\"')}`,
    '  done <<EOF',
    '$lines',
    'EOF',
    `  ${patchMissing(copy, 'data')}`,
    '  exit 0',
    'fi',
    `data=$(kubectl get secret -n ${from} ${secretName} -o jsonpath='{.data}')`,
    `printf '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"${secretName}","namespace":"${to}"},"data":%s}' "$data" | kubectl create -f -`,
  ].join('\n');
}

/**
 * The service `agent-secrets` of a cloud: one {@link AgentSecretCopy} per Secret its node agents
 * read (component `agent-secrets-<secret>`), created on first use. Its Jobs run with the operator
 * key of Yaook's node-agent operator (`configured-daemon-set`).
 */
class AgentSecrets extends Service {
  /** The cloud's service, created on first use. */
  static of(cloud: Cloud): AgentSecrets {
    const existing = cloud.node.tryFindChild('agent-secrets');
    return existing instanceof AgentSecrets ? existing : new AgentSecrets(cloud, 'agent-secrets');
  }

  /** The copy of `secretName`, created on first use. */
  copy(secretName: string): AgentSecretCopy {
    const existing = this.node.tryFindChild(secretName);
    return existing instanceof AgentSecretCopy ? existing : new AgentSecretCopy(this, secretName);
  }

  protected get entryPoints(): readonly Component[] {
    return this.components;
  }
}

/**
 * Gives node agent `component` a copy, in the agents' namespace, of every Secret `pod` reads (env,
 * envFrom, volumes), and makes it wait for the copies. Nothing to do for a component of the
 * control plane.
 */
export function copySecretsForNodeAgent(component: Component, pod: k8s.PodTemplateSpec): void {
  const cloud = Cloud.of(component);
  if (!cloud.isNodeAgent(component)) return;
  for (const secretName of secretsReadBy(pod)) {
    AgentSecrets.of(cloud).copy(secretName).readBy(component);
  }
}

/**
 * The Jobs of `cloud` that generate `secretName`, read when the edges are (at synthesis), so a
 * generator declared after the agent counts. Empty for a Secret the user provides.
 */
function generatorsOf(cloud: Cloud, secretName: string): IDependable {
  return {
    get dependencyTargets(): readonly Component[] {
      return cloud.components.filter(
        (c): c is GeneratedSecret => c instanceof GeneratedSecret && c.secretName === secretName,
      );
    },
  };
}

/**
 * True when a node agent of `cloud` reads `secretName`, so its copy is made in the agents'
 * namespace. Decided at synthesis, once every agent exists.
 */
export function isCopiedForNodeAgents(cloud: Cloud, secretName: string): boolean {
  const secrets = cloud.node.tryFindChild('agent-secrets');
  const copy = secrets instanceof AgentSecrets ? secrets.node.tryFindChild(secretName) : undefined;
  return copy instanceof AgentSecretCopy && copy.enabled;
}
