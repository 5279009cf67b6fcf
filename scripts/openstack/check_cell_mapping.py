"""Runs the synthesised nova-cell-mapping Jobs with the real nova-manage of the release.

For every `nova-cell-mapping` Job in the manifests given: the API database (SQLite here, each
MySQL URL of the Job becoming a SQLite file of the same database name) is migrated, the Job's own
script runs twice (the second run takes the update path, with a changed transport password),
and then the test checks with `nova-manage cell_v2 list_cells --verbose` that cell0 and every cell
are mapped to exactly the URLs the Job composed, and that no password ever reached a nova-manage
command line (a shim in front of nova-manage records every argv).

    check_cell_mapping.py VENV MANIFEST...
"""

import os
import re
import subprocess
import sys
import tempfile

import yaml

MYSQL = re.compile(r"^mysql\+pymysql://[^/]+/(?P<db>[A-Za-z0-9_]+)\?charset=utf8$")
K8S_VARIABLE = re.compile(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)")


def is_cell_mapping(job):
    """By its component, not its name: a Job's name carries the release and a content hash."""
    component = (job["metadata"].get("annotations") or {}).get("stackwright.io/component", "")
    return component.endswith("cell-mapping")


def cell_mapping_jobs(paths):
    """Each distinct Job once (two clouds with the same Nova render the same Job)."""
    seen = set()
    for path in paths:
        with open(path) as f:
            for doc in yaml.safe_load_all(f):
                if doc and doc.get("kind") == "Job" and is_cell_mapping(doc):
                    container = doc["spec"]["template"]["spec"]["containers"][0]
                    key = yaml.safe_dump([container["command"], container.get("env")])
                    if key not in seen:
                        seen.add(key)
                        yield path, doc


def job_environment(container, workdir, round_):
    """The container's environment as the kubelet would build it, with stand-in secrets and SQLite."""
    env, secrets = {}, {}
    for var in container.get("env", []):
        if "valueFrom" in var:
            value = f"secret-{var['name'].lower()}-{round_}"
            secrets[var["name"]] = value
        else:
            value = K8S_VARIABLE.sub(lambda m: env.get(m.group(1), m.group(0)), var["value"])
            database = MYSQL.match(var["value"])
            if database:
                value = f"sqlite:///{workdir}/{database.group('db')}"
        env[var["name"]] = value
    return env, secrets


def nova_manage_shim(venv, workdir):
    """A nova-manage first on PATH that appends its argv to a log, then runs the real one."""
    shim_dir = os.path.join(workdir, "shim")
    os.makedirs(shim_dir, exist_ok=True)
    shim = os.path.join(shim_dir, "nova-manage")
    with open(shim, "w") as f:
        f.write(f'#!/bin/sh\nprintf "%s\\n" "$*" >> {workdir}/argv.log\nexec {venv}/bin/nova-manage "$@"\n')
    os.chmod(shim, 0o755)
    return shim_dir


def mapped_cells(venv, env):
    out = subprocess.run(
        [f"{venv}/bin/nova-manage", "cell_v2", "list_cells", "--verbose"],
        env=env, capture_output=True, text=True, check=True,
    ).stdout
    cells = {}
    for line in out.splitlines():
        fields = [f.strip() for f in line.split("|")[1:-1]]
        if len(fields) == 5 and fields[0] != "Name":
            cells[fields[0]] = {"transport": fields[2], "database": fields[3]}
    return cells


def check_job(venv, path, job):
    container = job["spec"]["template"]["spec"]["containers"][0]
    script = container["command"][-1]
    problems = []
    with tempfile.TemporaryDirectory() as workdir:
        shim_dir = nova_manage_shim(venv, workdir)
        base = {"PATH": f"{shim_dir}:{venv}/bin:/usr/bin:/bin", "HOME": workdir}
        seen_secrets = set()
        for round_ in (1, 2):
            env, secrets = job_environment(container, workdir, round_)
            seen_secrets.update(secrets.values())
            run_env = dict(base, **env)
            if round_ == 1:
                subprocess.run([f"{venv}/bin/nova-manage", "api_db", "sync"], env=run_env, capture_output=True, check=True)
            done = subprocess.run(["/bin/sh", "-ec", script], env=run_env, capture_output=True, text=True)
            if done.returncode != 0:
                problems.append(f"round {round_}: the script failed ({done.returncode}): {done.stdout[-800:]}{done.stderr[-800:]}")
                break
            cells = mapped_cells(venv, run_env)
            cell0_db = env["CELL0_DERIVED_FROM"] + "_cell0"
            expected = {"cell0": {"transport": "none:///", "database": cell0_db}}
            for name in sorted(set(re.findall(r"--name (\w+)", script))):
                upper = name.upper()
                expected[name] = {"transport": env[f"{upper}_TRANSPORT"], "database": env[f"{upper}_DATABASE"]}
            if cells != expected:
                problems.append(f"round {round_}: mapped {cells}, expected {expected}")
        with open(os.path.join(workdir, "argv.log")) as f:
            argvs = f.read().splitlines()
        for argv in argvs:
            for secret in seen_secrets:
                if secret in argv:
                    problems.append(f"a password reached nova-manage's command line: nova-manage {argv}")
    name = job["metadata"]["name"]
    cells = len(sorted(set(re.findall(r"--name (\w+)", script))))
    print(f"{os.path.basename(path)}: Job/{name}: {cells} cell(s) + cell0, {len(argvs)} nova-manage runs: "
          + ("OK" if not problems else "FAILED"))
    for problem in problems:
        print(f"  {problem}")
    return not problems


def main():
    venv, paths = sys.argv[1], sys.argv[2:]
    results = [check_job(venv, path, job) for path, job in cell_mapping_jobs(paths)]
    if not results:
        print("no nova-cell-mapping Job found")
        sys.exit(1)
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
