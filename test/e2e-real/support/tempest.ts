/**
 * Tempest's smoke tests against the deployed cloud (issue 22), from a pod of the tempest image
 * (images/tempest.toml) in the cloud's namespace: the `tempest.conf` is the one the SDK generates
 * from the construct tree (`tempestConfig`), the admin password reaches Tempest from Keystone's
 * Secret through the environment, and the results are read from stestr's subunit stream and
 * counted per service (tempest-results.ts). docs/testing.md, "Tempest", says what runs, what is
 * skipped and why.
 */
import { tempestConfig } from '../../../constructs/tempest';
import { adminClientPod } from './admin-client-pod';
import { applyObject, copyInto, execIn, kubectl } from './cli';
import { RealCloud } from './real-cloud';
import { guestImage, LOCAL_IMAGES } from './images';
import { TempestCounts, tempestCounts, TempestTestResult } from './tempest-results';

/**
 * `tempest run --smoke`, narrowed to the services of issue 22 and the scenario that boots a
 * server: Tempest's `--smoke` selects the ids tagged `smoke`, and `--regex` cannot be combined
 * with it, so this one regex says both. 84 tests in Tempest 43.0.0 (identity 14, image 4, network
 * 48, compute 17, scenario 1).
 */
export const TEMPEST_SMOKE_REGEX =
  '^tempest\\.(api\\.(identity|image|network|compute)|scenario\\.test_server_basic_ops)\\..*\\bsmoke\\b';

/** Names of what the run creates in the cloud (and deletes again). */
const IMAGE_NAME = 'tempest-guest';
const FLAVOR_NAME = 'tempest.tiny';
/** The external network the run creates: flat, on {@link PUBLIC_PHYSNET}, a documentation range. */
const PUBLIC_NETWORK = 'tempest-public';
/** The provider network name the cloud's OVN agents map to a bridge (`[ovn] bridge_mappings`). */
export const PUBLIC_PHYSNET = 'physnet1';
const PUBLIC_CIDR = '198.51.100.0/24';

export interface TempestRunOptions {
  /** The pod's name. @default 'tempest' */
  readonly pod?: string;
  /** Tempest's workers (`--concurrency`): each boots its own servers. @default 2 */
  readonly concurrency?: number;
  /**
   * Seconds Tempest waits for a server, image or network (`build_timeout`). TCG guests on two
   * shared cores are slow to reach ACTIVE and to delete.
   * @default 600
   */
  readonly buildTimeoutSeconds?: number;
  /** How long the whole run may take. @default 60 min */
  readonly timeoutMs?: number;
  /** Where progress lines go. @default - stderr, prefixed `[tempest]` */
  readonly log?: (line: string) => void;
}

/** A run's counts, with the Tempest version that produced them and how long the run took. */
export interface TempestRun extends TempestCounts {
  readonly tempestVersion: string;
  readonly durationS: number;
}

/**
 * Uploads the test guest to Glance (`tempest-guest`, public) and creates a flavour for it
 * (`tempest.tiny`: 1 vCPU, 192 MiB, 1 GiB disk), or finds both from an earlier run; prints their
 * ids, the external network `tempest-public` (made once), and the aliases of the Networking API's
 * extensions as JSON.
 * Tempest's image tests make images of their own; this one is what its servers boot from.
 */
const PREPARE_SCRIPT = `
import json, openstack
conn = openstack.connect()
image = conn.image.find_image("${IMAGE_NAME}")
if image is None:
    # public: Tempest's servers boot it in the projects its dynamic credentials create
    image = conn.image.create_image(name="${IMAGE_NAME}", filename="/tmp/guest.qcow2", disk_format="qcow2",
                                    container_format="bare", visibility="public", wait=True, timeout=300)
elif image.visibility != "public":
    image = conn.image.update_image(image, visibility="public")
flavor = conn.compute.find_flavor("${FLAVOR_NAME}")
if flavor is None:
    flavor = conn.compute.create_flavor(name="${FLAVOR_NAME}", ram=192, vcpus=1, disk=1)
public = conn.network.find_network("${PUBLIC_NETWORK}")
if public is None:
    # flat on the provider network the OVN agents map to a bridge; no uplink: routers' gateways and
    # floating IPs are exercised through the API and OVN's logical topology, not reached from outside
    public = conn.network.create_network(name="${PUBLIC_NETWORK}", is_router_external=True,
                                         provider_network_type="flat",
                                         provider_physical_network="${PUBLIC_PHYSNET}")
    conn.network.create_subnet(network_id=public.id, name="${PUBLIC_NETWORK}-subnet", ip_version=4,
                               cidr="${PUBLIC_CIDR}", is_dhcp_enabled=False)
extensions = sorted(e.alias for e in conn.network.extensions())
print(json.dumps({"image": image.id, "flavor": flavor.id, "publicNetwork": public.id,
                  "networkExtensions": extensions}))
`;

/**
 * A Tempest workspace with the generated file, then the run, detached from the exec that starts
 * it (setsid): Tempest outlives the `kubectl exec` session, and the suite polls for `tempest.rc`.
 * $1: the selection regex, $2: the concurrency.
 */
const RUN_SCRIPT = `
cd /tmp && rm -rf ws tempest.rc && tempest init ws >/dev/null && cp /tmp/tempest.conf ws/etc/tempest.conf
cd ws && setsid sh -c 'tempest run --regex "$1" --concurrency "$2" >/tmp/tempest.out 2>&1; echo $? >/tmp/tempest.rc' sh "$1" "$2" </dev/null >/dev/null 2>&1 &
`;

/** Every test of the last run from stestr's subunit stream, with skip reasons and the end of each traceback, as JSON. */
const RESULTS_SCRIPT = `
import io, json, subprocess, subunit, testtools
stream = subprocess.run(["stestr", "last", "--subunit"], cwd="/tmp/ws", capture_output=True).stdout
tests = []
def record(test):
    reason, traceback = test["details"].get("reason"), test["details"].get("traceback")
    tests.append({"id": test["id"], "status": test["status"],
                  **({"reason": reason.as_text()[:300]} if reason is not None else {}),
                  **({"traceback": traceback.as_text()[-1500:]} if traceback is not None else {})})
result = testtools.StreamToDict(record)
result.startTestRun()
subunit.ByteStreamToStreamResult(io.BytesIO(stream), non_subunit_name="stdout").run(result)
result.stopTestRun()
print(json.dumps(tests))
`;

/**
 * Runs Tempest's smoke tests for identity, image, network and compute, plus
 * `tempest.scenario.test_server_basic_ops` ({@link TEMPEST_SMOKE_REGEX}), against the running
 * cloud of `stack` in `namespace`, and returns the counts per service. It throws only when Tempest
 * could not run (pod, preparation, time-out, no results); failed tests are in the counts, for the
 * caller to judge.
 *
 * What it needs: the cloud deployed and verified, with Nova's hypervisor registered (call it after
 * the boot test), and the images imported (the tempest image, and the test guest built by
 * scripts/images/build.sh). What it does itself: a pod `tempest` (the admin's environment of
 * adminClientPod, plus `OS_AUTH__ADMIN_PASSWORD` from Keystone's Secret), the guest image
 * `tempest-guest` and flavour `tempest.tiny` (kept for a second run; destroying the cloud removes
 * them), the `tempest.conf` of `tempestConfig(stack.cloud, ...)`. No network is needed beforehand:
 * Tempest's dynamic credentials give each test class its own project, network, subnet and router.
 * The pod is deleted at the end.
 *
 * @example
 * const counts = runTempestSmoke(stack, namespace);
 * expect(counts.failures).toEqual([]);
 */
export function runTempestSmoke(
  stack: RealCloud,
  namespace: string,
  options: TempestRunOptions = {},
): TempestRun {
  const pod = options.pod ?? 'tempest';
  const log = options.log ?? ((line: string) => process.stderr.write(`[tempest] ${line}\n`));
  const buildTimeoutSeconds = options.buildTimeoutSeconds ?? 600;
  // Generated before anything runs: a cloud the generator refuses fails here, not after an upload.
  const secretEnv = tempestConfig(stack.cloud, { imageRef: 'unset', flavorRef: 'unset' }).secretEnv;
  applyObject(
    adminClientPod(stack.keystone, pod, namespace, ['sleep', 'infinity'], {
      image: LOCAL_IMAGES.tempest,
      secretEnv,
    }),
  );
  try {
    kubectl('-n', namespace, 'wait', `pod/${pod}`, '--for=condition=Ready', '--timeout=300s');
    copyInto(namespace, pod, 'client', '/tmp/guest.qcow2', guestImage());
    const ids = lastJson<{
      image: string;
      flavor: string;
      publicNetwork: string;
      networkExtensions: string[];
    }>(kubectl('-n', namespace, 'exec', pod, '-c', 'client', '--', 'python3', '-c', PREPARE_SCRIPT));
    const config = tempestConfig(stack.cloud, {
      imageRef: ids.image,
      flavorRef: ids.flavor,
      publicNetworkId: ids.publicNetwork,
      networkExtensions: ids.networkExtensions,
      buildTimeoutSeconds,
    });
    const installed = execIn(namespace, pod, 'client', 'tempest --version').trim();
    if (installed !== `tempest ${config.tempestVersion}`)
      throw new Error(
        `${LOCAL_IMAGES.tempest} has ${installed}, the file is written for ${config.tempestVersion}; rebuild the images`,
      );
    copyInto(namespace, pod, 'client', '/tmp/tempest.conf', Buffer.from(config.file));
    const start = Date.now();
    execIn(namespace, pod, 'client', RUN_SCRIPT, TEMPEST_SMOKE_REGEX, String(options.concurrency ?? 2));
    log(`${installed}: running ${TEMPEST_SMOKE_REGEX}`);
    const rc = waitForExit(namespace, pod, start + (options.timeoutMs ?? 60 * 60_000), log);
    const durationS = Math.round((Date.now() - start) / 1000);
    const results = lastJson<TempestTestResult[]>(
      kubectl('-n', namespace, 'exec', pod, '-c', 'client', '--', 'python3', '-c', RESULTS_SCRIPT),
    );
    if (results.length === 0)
      throw new Error(`tempest run (exit ${rc}) reported no test:\n${tail(namespace, pod, 60)}`);
    const counts = tempestCounts(results);
    log(`exit ${rc} after ${durationS}s: ${JSON.stringify(counts.byService)}`);
    if (counts.failures.length > 0) log(`failed:\n${tail(namespace, pod, 200)}`);
    return { ...counts, tempestVersion: config.tempestVersion, durationS };
  } finally {
    kubectl('-n', namespace, 'delete', 'pod', pod, '--grace-period=1', '--ignore-not-found');
  }
}

/** Polls the pod until the run wrote its exit code; logs Tempest's progress every few minutes. */
function waitForExit(namespace: string, pod: string, deadline: number, log: (line: string) => void): number {
  let lastLog = Date.now();
  for (;;) {
    const rc = execIn(namespace, pod, 'client', 'cat /tmp/tempest.rc 2>/dev/null || true').trim();
    if (rc !== '') return Number(rc);
    if (Date.now() > deadline)
      throw new Error(`tempest run did not finish in time; its output ends:\n${tail(namespace, pod, 60)}`);
    if (Date.now() - lastLog > 180_000) {
      lastLog = Date.now();
      log(
        execIn(
          namespace,
          pod,
          'client',
          "grep -Ec '\\.\\.\\. (ok|FAILED|SKIPPED)' /tmp/tempest.out || true",
        ).trim() + ' tests done',
      );
    }
    sleepSync(15_000);
  }
}

function tail(namespace: string, pod: string, lines: number): string {
  return execIn(namespace, pod, 'client', `tail -n ${lines} /tmp/tempest.out 2>/dev/null || true`);
}

/** The last line of a script's output, which is its JSON result. */
function lastJson<T>(output: string): T {
  const lines = output.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]) as T;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
