/**
 * Renders what the pods of a small stack's infrastructure StatefulSets would run, as plain files a
 * shell script can start without Kubernetes (see galera.sh, rabbitmq.sh): for each member its
 * command, environment (Secrets filled with random hex, as the generator Jobs would, the pod name
 * from the downward API), volume mounts and probe commands. Usage:
 *   node render.js OUT_DIR STATEFULSET...
 * Layout: OUT/<sts>/<ordinal>/{argv,env,startup,readiness,liveness} (NUL-separated), and
 * OUT/<sts>/<ordinal>/mounts (`mountPath<TAB>kind<TAB>source`, kind = config|secret|data|empty).
 */
import { randomBytes } from 'crypto';
import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { App } from 'cdk8s';
import { MariaDB, RabbitMQ } from '../../constructs/infra';
import { KubeObject } from '../../lib/graph';
import { Cloud } from '../../lib/model';
import { findObject, podSpecOf, synthObjects } from '../../lib/testing';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
}
interface Probe {
  exec?: { command: string[] };
}
interface Container {
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  volumeMounts?: { name: string; mountPath: string }[];
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
}
interface Volume {
  name: string;
  configMap?: { name: string };
  secret?: { secretName: string; items?: { key: string; path: string }[] };
  emptyDir?: object;
}

const secrets = new Map<string, string>();
/** The value a generator Job would have put in the Secret: one per Secret key, shared by all pods. */
function secretValue(name: string, key: string): string {
  const id = `${name}/${key}`;
  const value = secrets.get(id) ?? randomBytes(24).toString('hex');
  secrets.set(id, value);
  return value;
}

/** Expands `$(VAR)` references to variables defined earlier, as the kubelet does. */
function expand(value: string, env: Map<string, string>): string {
  return value.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string) => env.get(name) ?? whole);
}

function nul(parts: readonly string[]): string {
  return parts.map((p) => `${p}\0`).join('');
}

function renderMember(objects: KubeObject[], sts: KubeObject, ordinal: number, dir: string): void {
  const pod = podSpecOf(sts) as { containers: Container[]; volumes?: Volume[] };
  const container = pod.containers[0];
  const podName = `${sts.metadata.name}-${ordinal}`;
  mkdirSync(dir, { recursive: true });
  const env = new Map<string, string>([['HOSTNAME', podName]]);
  for (const v of container.env ?? []) {
    const secretRef = v.valueFrom?.secretKeyRef;
    const fieldPath = v.valueFrom?.fieldRef?.fieldPath;
    if (secretRef) env.set(v.name, secretValue(secretRef.name, secretRef.key));
    else if (fieldPath === 'metadata.name') env.set(v.name, podName);
    else if (v.value !== undefined) env.set(v.name, expand(v.value, env));
    else throw new Error(`${podName}: cannot render env ${v.name}`);
  }
  writeFileSync(join(dir, 'env'), nul([...env].map(([k, v]) => `${k}=${v}`)));
  writeFileSync(join(dir, 'argv'), nul([...(container.command ?? []), ...(container.args ?? [])]));
  for (const probe of ['startup', 'readiness', 'liveness'] as const) {
    const command = container[`${probe}Probe`]?.exec?.command;
    writeFileSync(join(dir, probe), command ? nul(command) : '');
  }
  const mounts: string[] = [];
  for (const m of container.volumeMounts ?? []) {
    const volume = pod.volumes?.find((v) => v.name === m.name);
    if (m.name === 'data' && !volume) {
      mounts.push(`${m.mountPath}\tdata\t`);
    } else if (volume?.emptyDir) {
      mounts.push(`${m.mountPath}\tempty\t${m.name}`);
    } else if (volume?.configMap) {
      const source = join(dir, 'volumes', m.name);
      mkdirSync(source, { recursive: true });
      const data = (
        findObject(objects, 'ConfigMap', volume.configMap.name) as { data?: Record<string, string> }
      ).data;
      for (const [file, content] of Object.entries(data ?? {})) writeFileSync(join(source, file), content);
      mounts.push(`${m.mountPath}\tconfig\t${source}`);
    } else if (volume?.secret) {
      const source = join(dir, 'volumes', m.name);
      mkdirSync(source, { recursive: true });
      for (const item of volume.secret.items ?? []) {
        writeFileSync(join(source, item.path), secretValue(volume.secret.secretName, item.key));
      }
      mounts.push(`${m.mountPath}\tsecret\t${source}`);
    } else {
      throw new Error(`${podName}: cannot render volume ${m.name}`);
    }
  }
  writeFileSync(join(dir, 'mounts'), mounts.map((l) => `${l}\n`).join(''));
}

const [outDir, ...statefulSets] = process.argv.slice(2);
if (!outDir || statefulSets.length === 0) {
  throw new Error('usage: node render.js OUT_DIR STATEFULSET...');
}
const cloud = new Cloud(new App(), 'local', { namespace: 'infra-local' });
new MariaDB(cloud, 'db', { replicas: 3 });
new MariaDB(cloud, 'single', { replicas: 1 });
new RabbitMQ(cloud, 'rabbitmq', { replicas: 3 });
const objects = synthObjects(cloud);
for (const name of statefulSets) {
  const sts = findObject(objects, 'StatefulSet', name);
  const replicas = (sts.spec as { replicas: number }).replicas;
  for (let i = 0; i < replicas; i++) renderMember(objects, sts, i, join(outDir, name, String(i)));
}
