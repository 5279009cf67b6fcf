/**
 * The programs of a service user's password rotation: one pod, five steps, each a container of
 * the openstackclient image run one after the other. The steps that change Keystone hold its
 * admin's password and no Kubernetes token; the steps that change Kubernetes hold a token that may
 * get and patch the user's Secret (and its copy in the agents' namespace) and the workloads that
 * read it, and no credential from a Secret. They meet in an emptyDir ({@link ROTATION_WORK_DIR}).
 *
 * A service alternates between two users (`glance`, `glance-alt`), so two credentials are valid
 * while its pods switch:
 *
 * 1. `read` (Kubernetes): the user the Secret names is the one in use, the other one is idle
 *    (disabled by the run before, or not created yet);
 * 2. `enable` (Keystone): gives the idle user a new random password, enables it with the service's
 *    roles, and checks that it authenticates;
 * 3. `switch` (Kubernetes): writes its name and password into the Secret by a compare-and-swap (the
 *    resourceVersion `read` saw), marked `switching`, and into the agents' copy; then rolls every
 *    workload that reads the Secret (a pod template annotation naming the user) through the
 *    workload's own rolling update (`maxUnavailable: 0`, the preStop drain, the disruption budget:
 *    nothing is dropped), waits until every one has rolled, and gives the replaced pods their grace
 *    period to stop;
 * 4. `disable` (Keystone): disables the user switched from, with a new random password no one
 *    learns;
 * 5. `complete` (Kubernetes): marks the Secret `complete`.
 *
 * A run that stops after 3 has written the Secret leaves it `switching`: the next run resumes (its
 * `read` sees the mark) with the roll and the disabling, rather than rotating again, so the user
 * still in use by pods not yet rolled is never taken as the idle one. Passwords are never printed
 * and never on an argv; the new one is in the emptyDir between steps 2 and 3 only.
 */

/** The Secret's annotation saying where the last rotation got: `switching` or `complete`. */
export const ROTATION_STATE_ANNOTATION = 'stackwright.io/service-user-rotation';
/** The Secret's annotation: when the last switch happened (seconds since the epoch). */
export const SWITCHED_AT_ANNOTATION = 'stackwright.io/service-user-switched-at';
/** The pod template annotation a roll sets: the user the pods authenticate as. */
export const POD_USER_ANNOTATION = 'stackwright.io/service-user';
/** Where the steps meet. */
export const ROTATION_WORK_DIR = '/work';

/** The steps, in order, and which side each is on. */
export const ROTATION_STEPS = [
  { name: 'read', side: 'kubernetes' },
  { name: 'enable', side: 'keystone' },
  { name: 'switch', side: 'kubernetes' },
  { name: 'disable', side: 'keystone' },
  { name: 'complete', side: 'kubernetes' },
] as const;

/** What both sides start with: the step from argv, messages, and the state `read` saves. */
const COMMON = `
import json, os, secrets, sys, time

STEP = sys.argv[1]
STATE = "${ROTATION_WORK_DIR}/state.json"
NEW_PASSWORD = "${ROTATION_WORK_DIR}/password"
os.umask(0o077)


def say(message):
    print("service user rotation: " + message, flush=True)


def fail(message):
    raise SystemExit("service user rotation: " + message)


def state():
    with open(STATE) as f:
        return json.load(f)
`;

/**
 * The Keystone side (`enable`, `disable`), run after the prelude of the Keystone admin programs
 * (keystone-admin-job.ts: `identity`, `ensure_service_user`), with the admin's environment.
 */
export const ROTATION_KEYSTONE_PROGRAM = `${COMMON}
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3


def authenticates(name, given):
    auth = v3.Password(auth_url=env["OS_AUTH_URL"], username=name, password=given,
                       user_domain_name="Default", project_name="service", project_domain_name="Default")
    for attempt in range(10):
        try:
            return bool(ks_session.Session(auth=auth).get_token())
        except Exception as error:  # the password is set, a cache may lag: try again
            last = error
            time.sleep(2)
    fail(f"user {name} does not authenticate with its new password ({type(last).__name__}); "
         "the Secret is left as it was")


run = state()
if STEP == "enable" and run["mode"] == "rotate":
    fresh = secrets.token_hex(24)
    ensure_service_user(run["switch_to"], fresh)
    authenticates(run["switch_to"], fresh)
    with open(NEW_PASSWORD, "w") as f:
        f.write(fresh)
    say(f"user {run['switch_to']} is enabled with a new password, checked")
elif STEP == "disable":
    user = identity.find_user(run["switch_from"], domain_id="default", ignore_missing=False)
    identity.update_user(user, is_enabled=False, password=secrets.token_hex(24))
    say(f"user {run['switch_from']} is disabled")
`;

/**
 * The Kubernetes side (`read`, `switch`, `complete`): the API's REST interface with the pod's
 * projected token. Parameters from the environment: `SECRET` and `NAMESPACE` (the Secret and its
 * namespace), `USERS` (the two user names, space-separated), `COPY_NAMESPACES` (where copies of
 * the Secret live, space-separated), `WORKLOADS` (JSON: `[{kind, namespace, name}]`),
 * `DRAIN_SECONDS` and `ROLL_TIMEOUT_SECONDS`.
 */
export const ROTATION_KUBERNETES_PROGRAM = `${COMMON}
import base64, ssl, urllib.error, urllib.request

env = os.environ
SA = "/var/run/secrets/kubernetes.io/serviceaccount"
API = "https://%s:%s" % (env["KUBERNETES_SERVICE_HOST"], env["KUBERNETES_SERVICE_PORT"])
TLS = ssl.create_default_context(cafile=SA + "/ca.crt")
SECRET, NAMESPACE = env["SECRET"], env["NAMESPACE"]
PLURALS = {"Deployment": "deployments", "StatefulSet": "statefulsets", "DaemonSet": "daemonsets"}


def kube(method, path, body=None):
    with open(SA + "/token") as f:  # read each time: the kubelet refreshes the projected token
        token = f.read().strip()
    request = urllib.request.Request(
        API + path, method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": "Bearer " + token, "Accept": "application/json",
                 "Content-Type": "application/merge-patch+json"})
    try:
        with urllib.request.urlopen(request, context=TLS, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        if error.code == 404 and method == "GET":
            return None
        if error.code == 409:
            fail(f"Secret {SECRET} changed since this run read it (another rotation?): this run stops; "
                 "the next one starts from what the Secret holds then")
        fail(f"{method} {path}: HTTP {error.code} {error.read().decode(errors='replace')[:300]}")


def secret_path(namespace):
    return f"/api/v1/namespaces/{namespace}/secrets/{SECRET}"


def workload_path(w):
    return f"/apis/apps/v1/namespaces/{w['namespace']}/{PLURALS[w['kind']]}/{w['name']}"


def rolled(w, found):
    status, spec, metadata = found.get("status", {}), found["spec"], found["metadata"]
    if status.get("observedGeneration", 0) < metadata.get("generation", 0):
        return False
    if w["kind"] == "DaemonSet":
        desired = status.get("desiredNumberScheduled", 0)
        return status.get("updatedNumberScheduled", 0) == desired and status.get("numberAvailable", 0) == desired
    want = spec.get("replicas", 1)
    done = status.get("updatedReplicas", 0) == want and status.get("replicas", 0) == want
    if w["kind"] == "Deployment":
        return done and status.get("availableReplicas", 0) == want
    return done and status.get("readyReplicas", 0) == want and status.get("currentRevision") == status.get("updateRevision")


def roll(user):
    workloads = json.loads(env["WORKLOADS"])
    patch = {"spec": {"template": {"metadata": {"annotations": {"${POD_USER_ANNOTATION}": user}}}}}
    for w in workloads:
        kube("PATCH", workload_path(w), patch)
    waiting = {w["namespace"] + "/" + w["name"]: w for w in workloads}
    deadline = time.time() + int(env["ROLL_TIMEOUT_SECONDS"])
    while waiting:
        for key, w in list(waiting.items()):
            found = kube("GET", workload_path(w))
            if found is None or rolled(w, found):
                del waiting[key]
        if waiting and time.time() > deadline:
            fail(f"{', '.join(sorted(waiting))} did not roll in {env['ROLL_TIMEOUT_SECONDS']} s; Secret {SECRET} "
                 "stays 'switching' and both users stay enabled: find why with 'stackwright status' or "
                 "'kubectl rollout status', then run the rotation again to finish the switch")
        if waiting:
            time.sleep(5)
    say(f"{len(workloads)} workloads rolled: {', '.join(w['kind'] + '/' + w['name'] for w in workloads)}")
    # the replaced pods are told to stop when the roll is done: they may serve until their grace period ends
    time.sleep(int(env["DRAIN_SECONDS"]))


def encoded(value):
    return base64.b64encode(value.encode()).decode()


if STEP == "read":
    secret = kube("GET", secret_path(NAMESPACE)) or fail(f"Secret {SECRET} not found in {NAMESPACE}: deploy the cloud first")
    users = env["USERS"].split()
    current = base64.b64decode(secret["data"]["username"]).decode()
    if current not in users:
        fail(f"Secret {SECRET} names user {current!r}, not one of {users}: set its key 'username' to {users[0]!r}")
    other = users[1 - users.index(current)]
    switching = (secret["metadata"].get("annotations") or {}).get("${ROTATION_STATE_ANNOTATION}") == "switching"
    run = {"mode": "resume", "switch_to": current, "switch_from": other} if switching else \\
        {"mode": "rotate", "switch_to": other, "switch_from": current}
    with open(STATE, "w") as f:
        json.dump({**run, "resourceVersion": secret["metadata"]["resourceVersion"]}, f)
    if switching:
        say(f"a run before switched to {current} and did not finish: rolling again, then disabling {other}")
elif STEP == "switch":
    run = state()
    if run["mode"] == "rotate":
        with open(NEW_PASSWORD) as f:
            credential = {"username": encoded(run["switch_to"]), "password": encoded(f.read())}
        os.remove(NEW_PASSWORD)
        kube("PATCH", secret_path(NAMESPACE), {
            "metadata": {"resourceVersion": run["resourceVersion"],
                         "annotations": {"${ROTATION_STATE_ANNOTATION}": "switching",
                                         "${SWITCHED_AT_ANNOTATION}": str(int(time.time()))}},
            "data": credential})
        say(f"Secret {SECRET} names {run['switch_to']} now; {run['switch_from']} stays valid until every pod has switched")
    else:
        secret = kube("GET", secret_path(NAMESPACE))
        credential = {key: secret["data"][key] for key in ("username", "password")}
    for namespace in env["COPY_NAMESPACES"].split():  # the node agents' copies, before their pods roll
        kube("PATCH", secret_path(namespace), {"data": credential})
    roll(run["switch_to"])
elif STEP == "complete":
    run = state()
    kube("PATCH", secret_path(NAMESPACE), {"metadata": {"annotations": {"${ROTATION_STATE_ANNOTATION}": "complete"}}})
    say(f"every pod authenticates as {run['switch_to']}; {run['switch_from']} is disabled")
`;
