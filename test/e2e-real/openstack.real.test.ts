/**
 * A cloud run for real: `stackwright deploy` of MariaDB/Galera (3), RabbitMQ (3), Memcached,
 * Keystone, Glance and Placement onto the test cluster's real node, with the locally built images.
 * Every component is verified by its real probes; then the suite checks what only running software
 * can show: Galera and RabbitMQ formed clusters of three, an OpenStack client in a pod gets a token,
 * sees the catalog, round-trips an image through Glance and reads Placement, a deleted Galera member
 * rejoins without losing data, and a second deploy writes nothing.
 *
 * The tests run in order on one cloud (each builds on the deploy of the first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { uniqueSuffix } from '../e2e/support/kube';
import {
  applyObject,
  buildCli,
  deploy,
  DEPLOY_SUCCEEDED,
  DeployRun,
  deployVerdict,
  destroyUnlessKept,
  execIn,
  kubectl,
} from './support/cli';
import { adminClientPod } from './support/admin-client-pod';
import { realCloud, RealCloud } from './support/real-cloud';

const namespace = `sw-real-${uniqueSuffix()}`;
let outdir: string;
let stack: RealCloud;
let first: DeployRun;

beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'stackwright-real-'));
  stack = realCloud(outdir, namespace);
  stack.app.synth();
  buildCli();
  const start = Date.now();
  first = deploy(outdir, '30m');
  process.stderr.write(`[e2e-real] first deploy: ${((Date.now() - start) / 1000).toFixed(0)}s\n`);
}, 45 * 60_000);

afterAll(() => {
  if (destroyUnlessKept(outdir, namespace, (line) => process.stderr.write(`[e2e-real] ${line}\n`)))
    rmSync(outdir, { recursive: true, force: true });
}, 25 * 60_000);

/** `name=value` lines of `SHOW GLOBAL STATUS` for the given variables, from one Galera member. */
function galeraStatus(pod: string): Record<string, string> {
  const out = execIn(
    namespace,
    pod,
    'mariadb',
    'mariadb --defaults-file=/run/mysqld/client.cnf -N -B -e "$1"',
    "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_cluster_size', 'wsrep_local_state_comment', 'wsrep_cluster_status')",
  );
  return Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((line) => line.split('\t') as [string, string]),
  );
}

function sql(pod: string, statement: string): string {
  return execIn(
    namespace,
    pod,
    'mariadb',
    'mariadb --defaults-file=/run/mysqld/client.cnf -N -B -e "$1"',
    statement,
  );
}

const dbPods = () => [0, 1, 2].map((i) => `${stack.database.server.componentName}-${i}`);

test('deploy verifies every component with its real probes', () => {
  // THEN
  expect(deployVerdict(first)).toEqual(DEPLOY_SUCCEEDED);
  expect(first.summary.counts).toMatchObject({ failed: 0, blocked: 0 });
});

test('Galera: every member sees a primary cluster of 3 and is Synced', () => {
  // WHEN
  const status = dbPods().map((pod) => galeraStatus(pod));
  // THEN
  expect(status).toEqual(
    dbPods().map(() => ({
      wsrep_cluster_size: '3',
      wsrep_cluster_status: 'Primary',
      wsrep_local_state_comment: 'Synced',
    })),
  );
});

test('RabbitMQ: the cluster lists 3 running nodes', () => {
  // WHEN
  const pod = `${stack.messaging.server.componentName}-0`;
  const status = JSON.parse(
    execIn(namespace, pod, 'rabbitmq', 'rabbitmqctl cluster_status --formatter json'),
  ) as { running_nodes: string[] };
  // THEN
  expect(status.running_nodes).toHaveLength(3);
});

/**
 * What the OpenStack client pod prints as its last line: openstacksdk, configured only by the OS_*
 * variables, through the cloud's Services.
 */
interface ClientReport {
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

function runClientPod(): ClientReport {
  const name = `os-client-${uniqueSuffix()}`;
  const pod = adminClientPod(stack.keystone, name, namespace, ['python3', '-c', CLIENT_SCRIPT]);
  applyObject(pod);
  kubectl(
    '-n',
    namespace,
    'wait',
    `pod/${name}`,
    '--for=jsonpath={.status.phase}=Succeeded',
    '--timeout=300s',
  );
  const lines = kubectl('-n', namespace, 'logs', name).trim().split('\n');
  kubectl('-n', namespace, 'delete', 'pod', name, '--wait=false');
  return JSON.parse(lines[lines.length - 1]) as ClientReport;
}

test('an OpenStack client in a pod: token, catalog, an image round trip through Glance, Placement', () => {
  // WHEN
  const report = runClientPod();
  // THEN
  expect(report.token).toBe(true);
  expect(report.catalog).toEqual(['identity', 'image', 'placement']);
  expect(report.downloaded).toBe(report.uploaded);
  expect(report.placementStatus).toBe(200);
});

test('a deleted Galera member rejoins the cluster and no data is lost', () => {
  // GIVEN a row written before
  const [db0, db1] = dbPods();
  sql(db1, 'CREATE DATABASE IF NOT EXISTS e2e');
  sql(db1, 'CREATE TABLE IF NOT EXISTS e2e.marks (id INT PRIMARY KEY, note VARCHAR(64))');
  sql(db1, "REPLACE INTO e2e.marks VALUES (1, 'written before the restart')");
  const before = kubectl('-n', namespace, 'get', 'pod', db0, '-o', 'jsonpath={.metadata.uid}');
  // WHEN
  kubectl('-n', namespace, 'delete', 'pod', db0, '--wait=true');
  kubectl('-n', namespace, 'wait', `pod/${db0}`, '--for=condition=Ready', '--timeout=600s');
  // THEN a new pod, back in a primary cluster of 3, with the row
  expect(kubectl('-n', namespace, 'get', 'pod', db0, '-o', 'jsonpath={.metadata.uid}')).not.toBe(before);
  expect(galeraStatus(db0)).toEqual({
    wsrep_cluster_size: '3',
    wsrep_cluster_status: 'Primary',
    wsrep_local_state_comment: 'Synced',
  });
  expect(sql(db0, 'SELECT note FROM e2e.marks WHERE id = 1').trim()).toBe('written before the restart');
});

test('deploying again writes nothing', () => {
  // WHEN
  const again = deploy(outdir, '10m');
  // THEN
  expect({ status: again.status, ok: again.summary.ok, writes: again.summary.requests?.writes }).toEqual({
    status: 0,
    ok: true,
    writes: 0,
  });
});
