/**
 * What only running software can show about the real node's cloud, read from inside it: Galera's
 * and RabbitMQ's view of their clusters, SQL on one member, and an OpenStack client's report.
 */
import { uniqueSuffix } from '../../e2e/support/kube';
import { applyObject, execIn, kubectl, succeededPodLog } from './cli';
import { adminClientPod } from './admin-client-pod';
import { RealCloud } from './real-cloud';

/** The pods of the cloud's Galera members (StatefulSet ordinals 0..replicas-1). */
export function galeraPods(stack: RealCloud, replicas = 3): string[] {
  return Array.from({ length: replicas }, (_, i) => `${stack.database.server.componentName}-${i}`);
}

/** One statement through a Galera member's client config; its tab-separated rows, no header. */
export function sql(namespace: string, pod: string, statement: string): string {
  return execIn(
    namespace,
    pod,
    'mariadb',
    'mariadb --defaults-file=/run/mysqld/client.cnf -N -B -e "$1"',
    statement,
  );
}

/** What a Galera member says of its cluster: size, status (Primary) and its own state (Synced). */
export function galeraStatus(namespace: string, pod: string): Record<string, string> {
  const out = sql(
    namespace,
    pod,
    "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_cluster_size', 'wsrep_local_state_comment', 'wsrep_cluster_status')",
  );
  return Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((line) => line.split('\t') as [string, string]),
  );
}

/** The nodes RabbitMQ's first member lists as running. */
export function rabbitRunningNodes(namespace: string, stack: RealCloud): string[] {
  const pod = `${stack.messaging.server.componentName}-0`;
  const status = JSON.parse(
    execIn(namespace, pod, 'rabbitmq', 'rabbitmqctl cluster_status --formatter json'),
  ) as { running_nodes: string[] };
  return status.running_nodes;
}

/**
 * What the OpenStack client pod prints as its last line: openstacksdk, configured only by the OS_*
 * variables, through the cloud's Services.
 */
export interface ClientReport {
  readonly token: boolean;
  readonly catalog: string[];
  readonly uploaded: string;
  readonly downloaded: string;
  readonly placementStatus: number;
}

const CLIENT_SCRIPT = `
import hashlib, json, os, openstack
conn = openstack.connect()
access = conn.session.auth.get_access(conn.session)
data = os.urandom(1024 * 1024)
image = conn.image.create_image(name="e2e-roundtrip", data=data, disk_format="raw",
                                container_format="bare", allow_duplicates=True, wait=True, timeout=120)
conn.image.download_image(image, output="/tmp/downloaded")
with open("/tmp/downloaded", "rb") as f:
    downloaded = hashlib.sha256(f.read()).hexdigest()
conn.image.delete_image(image)
placement = conn.placement.get("/resource_providers")
print(json.dumps({
    "token": bool(access.auth_token),
    "catalog": sorted(service["type"] for service in access.service_catalog.catalog),
    "uploaded": hashlib.sha256(data).hexdigest(),
    "downloaded": downloaded,
    "placementStatus": placement.status_code,
}))
`;

/** A token, the catalog, a 1 MiB image up and down through Glance, and Placement's providers. */
export function clientReport(namespace: string, stack: RealCloud): ClientReport {
  const name = `os-client-${uniqueSuffix()}`;
  applyObject(adminClientPod(stack.keystone, name, namespace, ['python3', '-c', CLIENT_SCRIPT]));
  const lines = succeededPodLog(namespace, name);
  kubectl('-n', namespace, 'delete', 'pod', name, '--wait=false');
  return JSON.parse(lines[lines.length - 1]) as ClientReport;
}
