/**
 * Day 2 for real (issue 24): the real node's cloud (MariaDB/Galera ×3, RabbitMQ ×3, Memcached,
 * Keystone and Placement at two replicas, Glance at one: its image store is a ReadWriteOnce claim) deployed at 2024.2 with the locally built
 * 2024.2 images, then upgraded to 2025.1 by `stackwright deploy` of the 2025.1 manifests while a
 * pod sends a steady API load (support/api-load.py: new TCP connection per request, 10 s timeout,
 * no retries), and Keystone's Fernet keys rotate by its CronJob's Job while it runs. The upgrade and
 * the rotation must drop no request. Then the upgraded cloud shows what only running software can:
 * Galera and RabbitMQ clusters of three, an OpenStack client's token, catalog and image round trip,
 * a deleted Galera member rejoining without losing data, the credential keys rotated by their
 * CronJob with every credential re-encrypted first, Glance's and Placement's service users rotated
 * under the load in the minute after the upgrade without a failed request, and a second deploy
 * writing nothing. The calibration at the end shows the counter sees an outage when a roll is naive.
 *
 * The tests run in order on one cloud. Numbers go to stderr (`[e2e-upgrade]`) for the closing note.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { uniqueSuffix } from '../e2e/support/kube';
import {
  buildCli,
  deploy,
  DEPLOY_SUCCEEDED,
  DeployRun,
  deployVerdict,
  destroyUnlessKept,
  kubectl,
} from './support/cli';
import { ApiLoadClient, apiLoadClient, printLoadReport } from './support/api-load-client';
import { clientReport, galeraPods, galeraStatus, rabbitRunningNodes, sql } from './support/cloud-checks';
import { scaleCpuRequests } from './support/compute-cloud';
import { realCloud, RealCloud } from './support/real-cloud';
import {
  KEY_PROPAGATION_SECONDS,
  KEYS_ROTATED_AT_ANNOTATION,
} from '../../constructs/openstack/credential-rotation-script';
import { RequestLine, summariseLoad, unitWindows } from './support/load-report';
import {
  POD_USER_ANNOTATION,
  ROTATION_STATE_ANNOTATION,
} from '../../constructs/openstack-kit/service-user-rotation-program';

const FROM = '2024.2';
const TO = '2025.1';
const namespace = `sw-upgrade-${uniqueSuffix()}`;
let outOld: string;
let outNew: string;
let oldStack: RealCloud;
let load: ApiLoadClient;
let first: DeployRun;

const say = (line: string) => process.stderr.write(`[e2e-upgrade] ${line}\n`);
const sleepSeconds = (s: number) => execFileSync('sleep', [String(s)]);
/** Four loops in parallel: above 10 requests/s on two shared cores while Jobs run beside them. */
const LOAD = { LOAD_WORKERS: '4' };
/** A Fernet key rotation run by hand from the Keystone construct's CronJob, during the load. */
const ROTATION_JOB = `fernet-rotation-${uniqueSuffix()}`;

beforeAll(() => {
  outOld = mkdtempSync(path.join(tmpdir(), 'stackwright-upgrade-old-'));
  outNew = mkdtempSync(path.join(tmpdir(), 'stackwright-upgrade-new-'));
  oldStack = realCloud(outOld, namespace, { release: FROM, apiReplicas: 2 });
  oldStack.app.synth();
  load = apiLoadClient(oldStack.keystone, namespace);
  realCloud(outNew, namespace, { release: TO, apiReplicas: 2 }).app.synth();
  // Two cores, shared with the control plane, and a roll briefly runs one pod more per API.
  for (const dir of [outOld, outNew]) scaleCpuRequests(dir, 3);
  buildCli();
  const start = Date.now();
  first = deploy(outOld, '30m');
  say(`deploy at ${FROM}: ${((Date.now() - start) / 1000).toFixed(0)}s`);
}, 45 * 60_000);

afterAll(() => {
  if (!destroyUnlessKept(outNew, namespace, say)) return;
  rmSync(outOld, { recursive: true, force: true });
  rmSync(outNew, { recursive: true, force: true });
}, 25 * 60_000);

/** The running pods of a service's API, printed by a kubectl jsonpath `template` (one line each). */
function apiPods(service: string, template: string): string[] {
  const out = kubectl(
    '-n',
    namespace,
    'get',
    'pods',
    '-l',
    `app.kubernetes.io/instance=${service},app.kubernetes.io/component=api`,
    '--field-selector=status.phase=Running',
    '-o',
    `jsonpath={range .items[*]}${template}{end}`,
  );
  return out.trim().split('\n').filter(Boolean);
}

/** The running pods of Keystone's API. */
function keystoneApiPods(): string[] {
  return apiPods('keystone', '{.metadata.name}{"\\n"}');
}

/** The images of the running pods of a service's API, one entry per pod and container. */
function apiImages(service: string): string[] {
  return apiPods(service, '{range .spec.containers[*]}{.image}{"\\n"}{end}');
}

/** The user each running pod of a service's API was rolled to authenticate as (its template's annotation). */
function apiPodUsers(service: string): string[] {
  return apiPods(service, `{.metadata.annotations.${POD_USER_ANNOTATION.replace(/\./g, '\\.')}}{"\\n"}`);
}

interface StoredCredential {
  readonly id: string;
  readonly blob: string;
}
interface Fixtures {
  readonly token: string;
  readonly image: string;
  readonly provider: string;
  readonly credential: StoredCredential;
}
let fixtures: Fixtures;
let upgrade: DeployRun;
let requests: RequestLine[];

/** Waits for a Job's condition; when it does not come, fails with its pods' logs (every container). */
function waitForJob(job: string, condition: 'Complete' | 'Failed', timeout = '300s'): void {
  try {
    kubectl('-n', namespace, 'wait', `job/${job}`, `--for=condition=${condition}`, `--timeout=${timeout}`);
  } catch (error) {
    const logs = kubectl('-n', namespace, 'logs', `job/${job}`, '--all-containers', '--tail=40');
    throw new Error(`Job ${job} is not ${condition}: ${String(error)}\n${logs}`);
  }
}

/** The services whose users rotate under the load: the APIs it calls, each validating tokens as its user. */
const ROTATED_SERVICES = ['glance', 'placement'];

/** The service user rotations run by hand from their CronJobs, and when they started and ended. */
interface ServiceUserRotationRun {
  readonly jobs: readonly string[];
  /** Epoch seconds, as the load's requests. */
  readonly startedAt: number;
  readonly doneAt: number;
}
/** The rotations after the upgrade, or why they could not run (reported by their own test). */
let userRotation: ServiceUserRotationRun | Error = new Error('the upgrade test did not reach the rotations');

/** Runs Glance's and Placement's service user rotations from their CronJobs, side by side, to their end. */
function rotateServiceUsers(): ServiceUserRotationRun {
  const startedAt = Date.now() / 1000;
  const jobs = ROTATED_SERVICES.map((service) => {
    const job = `${service}-user-rotation-${uniqueSuffix()}`;
    kubectl('-n', namespace, 'create', 'job', job, `--from=cronjob/${service}-ks-user-rotation`);
    return job;
  });
  for (const job of jobs) waitForJob(job, 'Complete', '900s');
  const doneAt = Date.now() / 1000;
  say(`service user rotations: ${(doneAt - startedAt).toFixed(0)}s`);
  return { jobs, startedAt, doneAt };
}

test(`the cloud deploys at ${FROM}`, () => {
  expect(deployVerdict(first)).toEqual(DEPLOY_SUCCEEDED);
  const images = apiImages('keystone');
  expect(images.length > 0 && images.every((i) => i.endsWith(`:${FROM}`))).toBe(true);
});

test(`deploying the ${TO} manifests upgrades the cloud under load and drops no request`, () => {
  // GIVEN fixtures made at 2024.2 and a load running for 60 s, during which the Fernet keys rotate
  fixtures = load.once<Fixtures>(['fixtures']);
  const loadPod = load.start(fixtures, LOAD);
  kubectl('-n', namespace, 'create', 'job', ROTATION_JOB, '--from=cronjob/keystone-fernet-rotation');
  sleepSeconds(60);

  // WHEN the 2025.1 manifests are deployed, and the load goes on for 60 s after at least: the
  // service users rotate then (their own test below reads the outcome), so the minute after the
  // upgrade is also the day-2 work that follows one
  const start = Date.now();
  upgrade = deploy(outNew, '40m');
  const upgradeDone = Date.now();
  if (upgrade.status === 0) {
    try {
      userRotation = rotateServiceUsers();
    } catch (error) {
      userRotation = error instanceof Error ? error : new Error(String(error));
    }
  }
  sleepSeconds(Math.max(20, 60 - (Date.now() - upgradeDone) / 1000));
  requests = load.stop(loadPod);

  // THEN the upgrade succeeded and not one request failed
  const windows = unitWindows(upgrade.output);
  const report = summariseLoad(requests, windows);
  say(`upgrade deploy: ${((upgradeDone - start) / 1000).toFixed(0)}s`);
  printLoadReport(report, windows, say);
  expect(deployVerdict(upgrade)).toEqual(DEPLOY_SUCCEEDED);
  expect(report.failures).toEqual([]);
  expect(report.total.requests).toBeGreaterThanOrEqual(3000);
  expect(report.total.perSecond).toBeGreaterThanOrEqual(10);
  // … and requests were served while old and new Keystone pods both ran
  expect(report.servedWhileRolling['keystone-api']).toBeGreaterThan(0);
});

test('the Fernet keys rotated under the load: the staged key is the primary on every Keystone pod, no token refused', () => {
  kubectl('-n', namespace, 'wait', `job/${ROTATION_JOB}`, '--for=condition=Complete', '--timeout=120s');
  const log = kubectl('-n', namespace, 'logs', `job/${ROTATION_JOB}`).trim();
  say(log);
  // Key 2 when this is the first rotation; the CronJob's own run may have come first (a CI run
  // crossed 00:41 UTC once): then a higher one, and nothing is dropped either way (5 keys kept).
  const match =
    /^fernet rotation: key (\d+) is the primary \(the staged key before\), a new staged key 0, dropped: none \(max_active_keys 5\)$/.exec(
      log,
    );
  expect(match).not.toBeNull();
  const primary = Number(match?.[1]);
  expect(primary).toBeGreaterThanOrEqual(2);
  const secret = JSON.parse(
    kubectl('-n', namespace, 'get', 'secret', 'keystone-fernet-keys', '-o', 'json'),
  ) as {
    data: Record<string, string>;
  };
  // (the Secret's keys: 0 to the newest primary, which a scheduled run after ours may have raised)
  const expected = Object.keys(secret.data).sort();
  const newest = Math.max(...expected.map(Number));
  expect(newest).toBeGreaterThanOrEqual(primary);
  expect(expected).toEqual(Array.from({ length: newest + 1 }, (_, i) => String(i)).sort());
  const pods = keystoneApiPods();
  for (const pod of pods) {
    const keys = kubectl('-n', namespace, 'exec', pod, '--', 'ls', '/etc/keystone/fernet-keys')
      .trim()
      .split('\n');
    expect({ pod, keys: keys.sort() }).toEqual({ pod, keys: expected });
  }
  // the token issued before the rotation (signed by key 1) and every one after validated throughout
  expect(requests.filter((r) => r.status === 401)).toEqual([]);
  expect(requests.filter((r) => r.op === 'token-validate-old' && r.ok).length).toBeGreaterThan(100);
});

test(`every pod of the OpenStack services runs the ${TO} image`, () => {
  for (const service of ['keystone', 'glance', 'placement']) {
    const images = apiImages(service);
    expect({ service, images }).toEqual({
      service,
      images: images.map(() => `stackwright.local/${service}:${TO}`),
    });
    expect(images.length).toBeGreaterThan(0);
  }
});

test('the fixtures made before the upgrade are intact: the image byte for byte, the project, the provider', () => {
  const verdict = load.once<{
    image_identical: boolean;
    project: number;
    provider: number;
    credential_identical: boolean;
  }>(['verify', JSON.stringify(fixtures)]);
  expect(verdict).toEqual({ image_identical: true, project: 200, provider: 200, credential_identical: true });
});

/** Runs the credential key rotation by hand from its CronJob; its Job's name. */
function startCredentialRotation(): string {
  const job = `credential-rotation-${uniqueSuffix()}`;
  kubectl('-n', namespace, 'create', 'job', job, '--from=cronjob/keystone-credential-rotation');
  return job;
}

/** The credential keys' Secret: its keys' sha1 (as Keystone's `key_hash`) by index, and its annotations. */
function credentialKeys(): { hashes: Record<string, string>; annotations: Record<string, string> } {
  const secret = JSON.parse(
    kubectl('-n', namespace, 'get', 'secret', 'keystone-credential-keys', '-o', 'json'),
  ) as { data: Record<string, string>; metadata: { annotations?: Record<string, string> } };
  const hashes = Object.fromEntries(
    Object.entries(secret.data).map(([k, v]) => [
      k,
      createHash('sha1').update(Buffer.from(v, 'base64')).digest('hex'),
    ]),
  );
  return { hashes, annotations: secret.metadata.annotations ?? {} };
}

/** The key hash of each stored credential, by id, from the database. */
function credentialKeyHashes(): Record<string, string> {
  const rows = sql(namespace, galeraPods(oldStack)[0], 'SELECT id, key_hash FROM keystone.credential');
  return Object.fromEntries(
    rows
      .trim()
      .split('\n')
      .map((row) => row.split('\t')),
  );
}

/**
 * Waits until every Keystone API pod's mounted credential keys are `indexes`. The kubelet rewrites
 * a Secret's volume when it syncs the pod: on its own that is its periodic resync (a minute and
 * more); an update of the pod makes it sync at once, so each pod is annotated first. Nothing of the
 * rotation depends on it: it shortens the test's wait, not the propagation the rotation allows for.
 */
function waitForMountedCredentialKeys(indexes: string[]): void {
  const pods = keystoneApiPods();
  for (const pod of pods)
    kubectl(
      '-n',
      namespace,
      'annotate',
      'pod',
      pod,
      '--overwrite',
      `stackwright.io/e2e-resync=${Date.now()}`,
    );
  const deadline = Date.now() + 300_000;
  for (const pod of pods) {
    for (;;) {
      const mounted = kubectl('-n', namespace, 'exec', pod, '--', 'ls', '/etc/keystone/credential-keys')
        .trim()
        .split('\n')
        .sort();
      if (JSON.stringify(mounted) === JSON.stringify([...indexes].sort())) break;
      if (Date.now() > deadline) expect({ pod, mounted }).toEqual({ pod, mounted: indexes });
      sleepSeconds(2);
    }
  }
}

test('the credential keys rotate by their CronJob: every credential re-encrypted first, none lost, a run too soon refused', () => {
  const log = (job: string) => kubectl('-n', namespace, 'logs', `job/${job}`, '-c', 'publish').trim();
  const initial = credentialKeys().hashes;
  expect(Object.keys(initial).sort()).toEqual(['0', '1']);

  // WHEN the rotation runs: the credential stored at 2024.2 (key 1) is migrated, key 0 promoted
  const first = startCredentialRotation();
  waitForJob(first, 'Complete');
  say(log(first));
  expect(log(first)).toBe(
    'credential key rotation: key 2 is the primary (the staged key before), a new staged key 0, dropped: none; every credential was encrypted with key 1 first (credential_migrate)',
  );
  const rotated = credentialKeys().hashes;
  expect(rotated['2']).toBe(initial['0']);
  expect(rotated['1']).toBe(initial['1']);
  expect(credentialKeyHashes()).toEqual({ [fixtures.credential.id]: initial['1'] });

  // AND again at once: refused, the keys untouched (pods may still hold the ones before); its
  // migrate, which every run does first, moved the credential to the new primary, key 2
  const tooSoon = startCredentialRotation();
  waitForJob(tooSoon, 'Failed');
  expect(log(tooSoon)).toMatch(
    /^credential key rotation: the keys of Secret keystone-credential-keys were rotated \d+ s ago: .*the keys are left as they are .*, run again after \d+ s$/,
  );
  expect(credentialKeys().hashes).toEqual(rotated);
  expect(credentialKeyHashes()).toEqual({ [fixtures.credential.id]: rotated['2'] });

  // WHEN every pod holds the new keys, a credential stored now is encrypted with key 2 as well
  waitForMountedCredentialKeys(['0', '1', '2']);
  const second = load.once<StoredCredential>(['credential', 'after the first rotation']);
  expect(credentialKeyHashes()).toEqual({
    [fixtures.credential.id]: rotated['2'],
    [second.id]: rotated['2'],
  });

  // AND, the propagation time later (backdated here), the next rotation drops key 1, on which nothing is left
  const rotatedAt = Number(credentialKeys().annotations[KEYS_ROTATED_AT_ANNOTATION]);
  kubectl(
    '-n',
    namespace,
    'annotate',
    'secret',
    'keystone-credential-keys',
    '--overwrite',
    `${KEYS_ROTATED_AT_ANNOTATION}=${rotatedAt - KEY_PROPAGATION_SECONDS}`,
  );
  const third = startCredentialRotation();
  waitForJob(third, 'Complete');
  say(log(third));
  expect(log(third)).toBe(
    'credential key rotation: key 3 is the primary (the staged key before), a new staged key 0, dropped: 1; every credential was encrypted with key 2 first (credential_migrate)',
  );

  // THEN both credentials are on key 2, which stays, and read back intact from every pod
  expect(Object.keys(credentialKeys().hashes).sort()).toEqual(['0', '2', '3']);
  expect(credentialKeyHashes()).toEqual({
    [fixtures.credential.id]: rotated['2'],
    [second.id]: rotated['2'],
  });
  waitForMountedCredentialKeys(['0', '2', '3']);
  const reads = load.once<{ reads: number; identical: number }>([
    'credentials-read',
    JSON.stringify([fixtures.credential, second]),
  ]);
  say(`credential keys rotated twice: ${JSON.stringify(reads)}`);
  expect(reads).toEqual({ reads: 12, identical: 12 });
});

test('the backup before the first schema step restored every service database into a scratch one, equal', () => {
  const jobs = JSON.parse(kubectl('-n', namespace, 'get', 'jobs', '-o', 'json')) as {
    items: { metadata: { name: string; annotations?: Record<string, string> } }[];
  };
  const backup = jobs.items.find(
    (j) => j.metadata.annotations?.['stackwright.io/component'] === 'upgrade-backup',
  );
  expect(backup).toBeDefined();
  const log = kubectl('-n', namespace, 'logs', `job/${backup?.metadata.name}`);
  for (const line of log.split('\n').filter((l) => l.startsWith('backup:'))) say(line);
  for (const db of ['keystone', 'glance', 'placement']) {
    expect(log).toMatch(
      new RegExp(`^backup: ${db} bytes=\\d+ restore_ms=\\d+ tables=\\d+ rows=\\d+ restore_identical$`, 'm'),
    );
  }
});

const SYNCED_PRIMARY_OF_3 = {
  wsrep_cluster_size: '3',
  wsrep_cluster_status: 'Primary',
  wsrep_local_state_comment: 'Synced',
};

test('Galera on the upgraded cloud: every member sees a primary cluster of 3 and is Synced', () => {
  const pods = galeraPods(oldStack);
  expect(pods.map((pod) => galeraStatus(namespace, pod))).toEqual(pods.map(() => SYNCED_PRIMARY_OF_3));
});

test('RabbitMQ on the upgraded cloud: the cluster lists 3 running nodes', () => {
  expect(rabbitRunningNodes(namespace, oldStack)).toHaveLength(3);
});

test('an OpenStack client in a pod: token, catalog, an image round trip through Glance, Placement', () => {
  const report = clientReport(namespace, oldStack);
  expect(report.token).toBe(true);
  expect(report.catalog).toEqual(['identity', 'image', 'placement']);
  expect(report.downloaded).toBe(report.uploaded);
  expect(report.placementStatus).toBe(200);
});

test('a deleted Galera member rejoins the cluster and no data is lost', () => {
  // GIVEN a row written before
  const [db0, db1] = galeraPods(oldStack);
  sql(namespace, db1, 'CREATE DATABASE IF NOT EXISTS e2e');
  sql(namespace, db1, 'CREATE TABLE IF NOT EXISTS e2e.marks (id INT PRIMARY KEY, note VARCHAR(64))');
  sql(namespace, db1, "REPLACE INTO e2e.marks VALUES (1, 'written before the restart')");
  const before = kubectl('-n', namespace, 'get', 'pod', db0, '-o', 'jsonpath={.metadata.uid}');
  // WHEN
  kubectl('-n', namespace, 'delete', 'pod', db0, '--wait=true');
  kubectl('-n', namespace, 'wait', `pod/${db0}`, '--for=condition=Ready', '--timeout=600s');
  // THEN a new pod, back in a primary cluster of 3, with the row
  expect(kubectl('-n', namespace, 'get', 'pod', db0, '-o', 'jsonpath={.metadata.uid}')).not.toBe(before);
  expect(galeraStatus(namespace, db0)).toEqual(SYNCED_PRIMARY_OF_3);
  expect(sql(namespace, db0, 'SELECT note FROM e2e.marks WHERE id = 1').trim()).toBe(
    'written before the restart',
  );
});

test("the service users' passwords rotate under load: two valid credentials while the pods switch, no request dropped, the old users disabled", () => {
  // GIVEN the rotations that ran under the load after the upgrade (the test above)
  if (userRotation instanceof Error) throw userRotation;
  const { jobs, startedAt, doneAt } = userRotation;
  for (const job of jobs)
    for (const line of kubectl('-n', namespace, 'logs', `job/${job}`, '--all-containers').trim().split('\n'))
      say(`${job}: ${line}`);
  const report = summariseLoad(
    requests.filter((r) => r.t >= startedAt && r.t <= doneAt),
    [],
  );
  say(`load during the rotations: ${JSON.stringify(report.total)}`);
  // THEN not one request failed while they ran
  expect(report.failures).toEqual([]);
  expect(report.total.requests).toBeGreaterThan(0);
  for (const service of ROTATED_SERVICES) {
    // … each Secret names the other user, the switch complete …
    const secret = JSON.parse(
      kubectl('-n', namespace, 'get', 'secret', `${service}-keystone-user`, '-o', 'json'),
    ) as { data: Record<string, string>; metadata: { annotations: Record<string, string> } };
    expect(Buffer.from(secret.data.username, 'base64').toString()).toBe(`${service}-alt`);
    expect(secret.metadata.annotations[ROTATION_STATE_ANNOTATION]).toBe('complete');
    // … and every pod of its API started with it
    const podUsers = apiPodUsers(service);
    expect(podUsers.length).toBeGreaterThan(0);
    expect(podUsers.filter((user) => user !== `${service}-alt`)).toEqual([]);
  }
  // … and the users switched from are disabled
  const users = ROTATED_SERVICES.flatMap((s) => [s, `${s}-alt`]);
  expect(load.once<Record<string, boolean>>(['users', JSON.stringify(users)])).toEqual(
    Object.fromEntries(
      ROTATED_SERVICES.flatMap((s) => [
        [s, false],
        [`${s}-alt`, true],
      ]),
    ),
  );
});

test('deploying the upgraded cloud again writes nothing (a member replaced since included)', () => {
  const again = deploy(outNew, '10m');
  expect({ status: again.status, ok: again.summary.ok, writes: again.summary.requests?.writes }).toEqual({
    status: 0,
    ok: true,
    writes: 0,
  });
});

test('calibration: the same load sees failures when Keystone is rolled naively (all pods at once, no drain)', () => {
  // GIVEN the load running
  const loadPod = load.start(fixtures, LOAD);
  sleepSeconds(10);
  // WHEN Keystone's pods are replaced all at once, without the preStop drain
  kubectl(
    '-n',
    namespace,
    'patch',
    'deployment',
    'keystone-api',
    '--type=json',
    '-p',
    JSON.stringify([
      { op: 'replace', path: '/spec/strategy', value: { type: 'Recreate' } },
      { op: 'remove', path: '/spec/template/spec/containers/0/lifecycle' },
    ]),
  );
  kubectl('-n', namespace, 'rollout', 'status', 'deployment/keystone-api', '--timeout=600s');
  sleepSeconds(10);
  const calibration = summariseLoad(load.stop(loadPod), []);
  say(`calibration: ${JSON.stringify(calibration.total)}`);
  // THEN the counter records the outage
  expect(calibration.total.failed).toBeGreaterThan(0);
});
