"""Runs the synthesised credential key rotation with the real keystone-manage of the release.

For every Keystone `credential-rotation` CronJob in the manifests given: a Keystone database (SQLite
here) is migrated and a credential key repository set up, a credential is stored, and then three
rotations run, each the CronJob's own first-half script (migrate, then rotate a scratch copy) with
the scratch copy put where the pods mount the keys afterwards (what the second half publishes; its
script is tested in test/constructs/openstack/credential-rotation-script.test.ts). A credential is
stored after each. The check: every credential decrypts after every rotation, all are encrypted with
the primary key before each rotation drops a key, and the repository ends with three keys.

    check_credential_rotation.py VENV MANIFEST...
"""

import hashlib
import os
import subprocess
import sys
import tempfile

import yaml

MOUNTED = "/etc/keystone/credential-keys"
WORK = "/work/"

CREDENTIALS = """
import sys
import keystone.conf
from keystone.common import driver_hints, sql
from keystone.server import backends

CONF = keystone.conf.CONF
keystone.conf.configure()
CONF(["--config-file", sys.argv[1]], project="keystone")
sql.initialize()
api = backends.load_backends()["credential_api"]
if sys.argv[2] == "store":
    api.create_credential(sys.argv[3], {"id": sys.argv[3], "user_id": "u", "type": "ec2", "blob": sys.argv[4]})
else:
    for c in api.driver.list_credentials(driver_hints.Hints()):
        print(c["id"], c["key_hash"], api.get_credential(c["id"])["blob"])
"""


def rotation_cron_jobs(paths):
    """Each distinct CronJob once (two clouds with the same Keystone render the same one)."""
    seen = set()
    for path in paths:
        with open(path) as f:
            for doc in yaml.safe_load_all(f):
                component = ((doc or {}).get("metadata", {}).get("annotations") or {}).get(
                    "stackwright.io/component", ""
                )
                if doc and doc.get("kind") == "CronJob" and component.endswith("credential-rotation"):
                    init = doc["spec"]["jobTemplate"]["spec"]["template"]["spec"]["initContainers"][0]
                    script = init["command"][2]
                    if script not in seen:
                        seen.add(script)
                        yield path, doc["metadata"]["name"], script


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed (exit {result.returncode}):\n{result.stdout}{result.stderr}")
    return result.stdout


def key_hashes(directory):
    return {
        name: hashlib.sha1(open(os.path.join(directory, name), "rb").read()).hexdigest()
        for name in os.listdir(directory)
    }


def check(venv, name, script):
    with tempfile.TemporaryDirectory() as tmp:
        mounted, fernet, work, shims = (os.path.join(tmp, d) for d in ("mounted", "fernet", "work", "bin"))
        for d in (mounted, fernet, shims):
            os.makedirs(d, mode=0o700)
        conf = os.path.join(tmp, "keystone.conf")
        with open(conf, "w") as f:
            f.write(
                f"[database]\nconnection = sqlite:///{tmp}/keystone.db\n"
                f"[credential]\nkey_repository = {mounted}\nprovider = fernet\n"
                f"[fernet_tokens]\nkey_repository = {fernet}\n"
            )
        # keystone-manage as the pod runs it, but reading this keystone.conf
        shim = os.path.join(shims, "keystone-manage")
        with open(shim, "w") as f:
            f.write(f'#!/bin/sh\nexec "{venv}/bin/keystone-manage" --config-file "{conf}" "$@"\n')
        os.chmod(shim, 0o755)
        owner = ["--keystone-user", str(os.getuid()), "--keystone-group", str(os.getgid())]
        manage = os.path.join(venv, "bin", "keystone-manage")
        run([manage, "--config-file", conf, "db_sync"])
        run([manage, "--config-file", conf, "credential_setup", *owner])
        run([manage, "--config-file", conf, "fernet_setup", *owner])
        python = os.path.join(venv, "bin", "python")
        stored = {}

        def store(label):
            cid = hashlib.sha1(label.encode()).hexdigest()
            stored[cid] = f'{{"access": "a", "secret": "{label}"}}'
            run([python, "-c", CREDENTIALS, conf, "store", cid, stored[cid]])

        def listed():
            rows = run([python, "-c", CREDENTIALS, conf, "list"]).splitlines()
            return {cid: (key_hash, blob) for cid, key_hash, blob in (r.split(" ", 2) for r in rows)}

        store("before any rotation")
        env = {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}"}
        for rotation in (1, 2, 3):
            before = key_hashes(mounted)
            primary_before = before[max(before, key=int)]
            subprocess.run(["rm", "-rf", work], check=True)
            text = script.replace(WORK, f"{work}/").replace(MOUNTED, mounted)
            run(["sh", "-c", text], env=env)
            # every credential was re-encrypted with the primary before the rotation dropped a key
            hashes = {key_hash for key_hash, _ in listed().values()}
            if hashes != {primary_before}:
                sys.exit(f"{name}: rotation {rotation}: credentials on keys {hashes}, not the primary {primary_before}")
            rotated = os.path.join(work, "keys")
            for f in os.listdir(mounted):
                os.remove(os.path.join(mounted, f))
            for f in os.listdir(rotated):
                os.rename(os.path.join(rotated, f), os.path.join(mounted, f))
            after = sorted(os.listdir(mounted), key=int)
            expected = min(len(before) + 1, 3)
            if len(after) != expected or key_hashes(mounted)[str(int(max(before, key=int)) + 1)] != before["0"]:
                sys.exit(f"{name}: rotation {rotation}: keys {before} -> {after}: the staged key is not the new primary")
            got = {cid: blob for cid, (_, blob) in listed().items()}
            if got != stored:
                sys.exit(f"{name}: rotation {rotation}: credentials read back {got}, stored {stored}")
            store(f"after rotation {rotation}")
            print(f"{name}: rotation {rotation}: keys {sorted(before, key=int)} -> {after}, {len(got)} credential(s) intact")


def main():
    venv, manifests = sys.argv[1], sys.argv[2:]
    jobs = list(rotation_cron_jobs(manifests))
    if not jobs:
        sys.exit("no credential-rotation CronJob in the manifests: nothing was checked")
    for _, name, script in jobs:
        check(venv, name, script)
    print(f"credential key rotation: {len(jobs)} CronJob script(s) rotated three times with the real keystone-manage")


if __name__ == "__main__":
    main()
