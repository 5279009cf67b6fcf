"""The rendered configuration of Stackwright's clouds against the real OpenStack code.

Reads synthesised manifests (Kubernetes YAML), and for every container of an OpenStack image:
  1. loads each oslo.config file it mounts with the real oslo.config and the options the service
     really registers (the namespaces of services.json, plus its run-time options), and counts
     unknown options, values that fail their type, and deprecated names or options;
  2. checks every `OS_<SECTION>__<OPTION>` variable names a registered option (oslo.config's
     environment source ignores unknown names silently);
  3. for API containers, builds the WSGI application from the container's /etc layout: the
     package's own etc files (as an image keeps them) with the ConfigMap's files mounted over them
     exactly as the manifest mounts them, in a private mount namespace (`unshare`, needs root or
     user namespaces). No database is reached: building the app only reads configuration.

Usage: python check_configs.py MANIFEST.yaml... (run by check-configs.sh inside the venv).
Exit status 1 when any count that must be zero is not.
"""

import base64
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SERVICES = json.load(open(os.path.join(HERE, "services.json")))["schemas"]

# Where each service reads its main file, and the schema it is checked against.
OSLO_FILES = {
    "/etc/keystone/keystone.conf": "keystone",
    "/etc/glance/glance-api.conf": "glance-api",
    "/etc/placement/placement.conf": "placement",
    "/etc/nova/nova.conf": "nova",
    "/etc/neutron/neutron.conf": "neutron",
    "/etc/neutron/neutron.conf.d/metadata-agent.conf": "neutron-ovn-metadata-agent",
    "/etc/cinder/cinder.conf": "cinder",
    "/etc/barbican/barbican.conf": "barbican",
    "/etc/heat/heat.conf": "heat",
    "/etc/ironic/ironic.conf": "ironic",
    "/etc/gnocchi/gnocchi.conf": "gnocchi",
    "/etc/ceilometer/ceilometer.conf": "ceilometer",
}

# Options that may be deprecated in a rendered file: none. Add "schema:[section] option" with why.
ALLOWED_DEPRECATED = set()

# Seconds an app may take to build; one that waits for a live service is reported with where it waits.
APP_TIMEOUT = 120

# APIs that are not served by uwsgi: the module their package provides for WSGI servers, and the
# wsgi script of releases without that module (glance 29, 2024.2, has only glance-wsgi-api).
WSGI_MODULES = {"glance-api": "glance.wsgi.api", "neutron-server": "neutron.wsgi.api"}
WSGI_SCRIPTS = {"glance-api": "glance-wsgi-api"}

generator = importlib.util.spec_from_file_location("option_schemas", os.path.join(HERE, "option-schemas.py"))


# ----------------------------------------------------------------------------------------------
# Manifests


def workloads(paths):
    """(workload name, pod spec, config maps) of every pod-owning object, and the ConfigMaps."""
    docs = [d for p in paths for d in yaml.safe_load_all(open(p)) if d]
    config_maps = {d["metadata"]["name"]: d.get("data", {}) for d in docs if d["kind"] == "ConfigMap"}
    pods = []
    for d in docs:
        spec = d.get("spec", {})
        template = spec.get("template") or spec.get("jobTemplate", {}).get("spec", {}).get("template")
        if template:
            pods.append((f"{d['kind']}/{d['metadata']['name']}", d["kind"], template["spec"]))
    return pods, config_maps


def container_files(pod, container, config_maps):
    """{path: content} of the ConfigMap files a container sees, and its Secret mount points."""
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    files, secret_dirs = {}, []
    for mount in container.get("volumeMounts", []):
        volume = volumes.get(mount["name"], {})
        if "configMap" in volume:
            data = config_maps.get(volume["configMap"]["name"], {})
            if "subPath" in mount:
                files[mount["mountPath"]] = data[mount["subPath"]]
            else:
                for key, content in data.items():
                    files[f"{mount['mountPath']}/{key}"] = content
        elif "secret" in volume and mount["mountPath"].startswith("/etc/"):
            secret_dirs.append(mount["mountPath"])
    return files, secret_dirs


def container_env(container):
    """The container's environment as the pod sees it; Secret and field values are placeholders."""
    env = {}
    for var in container.get("env", []):
        value = var.get("value")
        if value is None:
            value = "10.0.0.10" if "fieldRef" in var.get("valueFrom", {}) else "placeholder-secret"
        env[var["name"]] = re.sub(r"\$\((\w+)\)", lambda m: env.get(m.group(1), m.group(0)), value)
    return env


def app_target(container):
    """How the container serves its API: ('script', name) for uwsgi, ('module', name), or None."""
    command = " ".join(container.get("command") or [])
    found = re.search(r'--wsgi-file "\$\(command -v ([\w.-]+)\)"', command)
    if found:
        return ("script", found.group(1))
    first = (container.get("command") or [""])[0]
    if first in WSGI_MODULES:
        if first in WSGI_SCRIPTS and not module_exists(WSGI_MODULES[first]):
            return ("script", WSGI_SCRIPTS[first])
        return ("module", WSGI_MODULES[first])
    return None


def module_exists(name):
    """Whether the installed packages provide module `name` (its parents are imported to tell)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


# ----------------------------------------------------------------------------------------------
# Step 1 and 2: oslo.config, one process per schema (projects register options globally)


def validate_schema(name, jobs):
    """Child process: jobs = [{file, content, env: [names]}] of one schema; prints the result."""
    from keystoneauth1 import loading as ks_loading
    from oslo_config import cfg

    gen = importlib.util.module_from_spec(generator)
    generator.loader.exec_module(gen)
    spec = SERVICES[name]
    results = []
    for job in jobs:
        conf = cfg.ConfigOpts()
        registry = {}

        def register(section, opts):
            for opt in opts:
                try:
                    conf.register_opt(opt, group=None if section == "DEFAULT" else section)
                except cfg.DuplicateOptError:
                    continue
                registry.setdefault(section, {})[opt.dest] = opt

        namespaces = [(s, o) for ns in spec["namespaces"] for s, o in gen.namespace_options(ns)]
        for section, opts in namespaces:
            register(section, opts)
        for section in spec.get("authSections", []):
            register(section, ks_loading.get_auth_plugin_conf_options("password"))
        for extra in spec.get("importedOptions", []):
            module = __import__(extra["module"], fromlist=[extra["attribute"]])
            register(extra["section"], getattr(module, extra["attribute"]))
        for section in spec.get("storeSections", []):
            register(section, gen.glance_store_options())

        with tempfile.NamedTemporaryFile("w", suffix=".conf", delete=False) as f:
            f.write(job["content"])
        parsed = {}
        cfg.ConfigParser(f.name, parsed).parse()
        if name == "cinder":
            # Volume driver options are registered under every enabled backend's name.
            backend_opts = [o for s, opts in namespaces if s in ("backend", "backend_defaults") for o in opts]
            for backend in ",".join(parsed.get("DEFAULT", {}).get("enabled_backends", [])).split(","):
                if backend.strip():
                    register(backend.strip(), backend_opts)
        aliases = {
            (d.group or section, (d.name or opt.dest).replace("-", "_")): (section, opt.dest)
            for section, opts in registry.items()
            for opt in opts.values()
            for d in opt.deprecated_opts
        }
        # Required options without a value in the file come from the pod's environment.
        conf._check_required_opts = lambda *args, **kwargs: None
        conf(args=[], default_config_files=[f.name], use_env=False)
        result = {"file": job["file"], "options": 0, "unknown": [], "type": [], "deprecated": [], "env": 0, "env_unknown": []}
        for section, keys in parsed.items():
            for key in keys:
                result["options"] += 1
                where = f"[{section}] {key}"
                opt = registry.get(section, {}).get(key)
                if opt is None:
                    if (section, key) in aliases:
                        result["deprecated"].append(f"{where} (now [{aliases[(section, key)][0]}] {aliases[(section, key)][1]})")
                    else:
                        result["unknown"].append(where)
                    continue
                try:
                    getattr(conf[section], key) if section != "DEFAULT" else conf[key]
                except Exception as error:  # ConfigFileValueError and friends: the value's type
                    result["type"].append(f"{where}: {error}")
                if opt.deprecated_for_removal and f"{name}:{where}" not in ALLOWED_DEPRECATED:
                    result["deprecated"].append(f"{where} (deprecated for removal)")
        for variable in job["env"]:
            section, _, key = variable[3:].partition("__")
            section = "DEFAULT" if section == "DEFAULT" else section.lower()
            result["env"] += 1
            if key.lower() not in registry.get(section, {}):
                result["env_unknown"].append(variable)
        os.unlink(f.name)
        results.append(result)
    print(json.dumps(results))


# ----------------------------------------------------------------------------------------------
# Step 3: the WSGI application from the container's /etc


STARTER = r"""
import faulthandler, json, os, runpy, sys, importlib, traceback
kind, target = sys.argv[1], sys.argv[2]
# An app that waits for a live service never returns: print where it waits, and stop.
faulthandler.dump_traceback_later(int(sys.argv[3]), exit=True)
# Under uwsgi the application sees no command-line arguments of its own.
sys.argv = [target]
try:
    if kind == "script":
        app = runpy.run_path(target, run_name="uwsgi_file_check")["application"]
    else:
        app = importlib.import_module(target).application
    print(json.dumps({"ok": True, "app": type(app).__name__}))
except BaseException as error:
    frames = traceback.extract_tb(error.__traceback__)
    where = f" (at {frames[-1].filename.split('site-packages/')[-1]}:{frames[-1].lineno})" if frames else ""
    message = (f"{type(error).__name__}: {error}".splitlines() or [""])[0][:400] + where
    # Placement, Nova and Barbican open the database while building the app: reaching it (and
    # failing, since no database runs here) means the configuration and the paste pipeline loaded.
    chain, seen = error, []
    while chain is not None and len(seen) < 10:
        seen.append(type(chain).__name__)
        chain = chain.__cause__ or chain.__context__
    reached = any(name in ("DBConnectionError", "OperationalError") for name in seen)
    print(json.dumps({"ok": reached, "app": "stopped at the database connection", "error": message}))
"""


def start_app(target, files, secret_dirs, env):
    """Builds the WSGI app with /etc as the container sees it; returns the starter's verdict."""
    work = tempfile.mkdtemp(prefix="stackwright-etc-")
    etc = os.path.join(work, "etc")
    shutil.copytree("/etc", etc, symlinks=True, ignore_dangling_symlinks=True)
    for service in {p.split("/")[2] for p in files}:
        packaged = os.path.join(sys.prefix, "etc", service)
        if os.path.isdir(packaged):  # the package's data_files, as the image keeps them
            shutil.copytree(packaged, os.path.join(etc, service), dirs_exist_ok=True)
    for path, content in files.items():
        os.makedirs(os.path.dirname(work + path), exist_ok=True)
        with open(work + path, "w") as f:
            f.write(content)
    for path in secret_dirs:  # generated key repositories: two valid Fernet keys stand in
        os.makedirs(work + path, exist_ok=True)
        for key in ("0", "1"):
            with open(os.path.join(work + path, key), "w") as f:
                f.write(base64.urlsafe_b64encode(os.urandom(32)).decode())
    home = os.path.join(work, "home")
    os.makedirs(home)
    script = shutil.which(target[1], path=os.path.join(sys.prefix, "bin")) if target[0] == "script" else target[1]
    if script is None:
        return {"ok": False, "error": f"{target[1]} is not installed by the service's package"}
    child_env = dict(env, HOME=home, PATH=f"{sys.prefix}/bin:/usr/bin:/bin", PYTHONDONTWRITEBYTECODE="1")
    # No database runs here: fail the first connection at once instead of oslo.db's ten retries.
    for section in ("DATABASE", "API_DATABASE", "PLACEMENT_DATABASE"):
        child_env[f"OS_{section}__MAX_RETRIES"] = "0"
    command = [
        "unshare", "--mount", "--propagation", "private", "sh", "-ec",
        'mount --bind "$1" /etc; shift; exec "$@"', "sh", etc,
        sys.executable, "-c", STARTER, target[0], script, str(APP_TIMEOUT),
    ]
    if os.getuid() != 0:
        command[1:1] = ["--user", "--map-root-user"]
    done = subprocess.run(command, env=child_env, capture_output=True, text=True)
    shutil.rmtree(work, ignore_errors=True)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        if "Timeout" in done.stderr:
            frames = [f.strip() for f in done.stderr.splitlines() if f.strip().startswith("File ")]
            where = " <- ".join(f.split("site-packages/")[-1] for f in frames[:3])
            # Neutron's ML2 type drivers sync their tables while the app is built: waiting in
            # oslo.db's retry loop means configuration, plugins and drivers all loaded.
            if "oslo_db" in where:
                return {"ok": True, "app": "stopped at the database connection (oslo.db retries)"}
            return {"ok": False, "error": f"not built after {APP_TIMEOUT}s, waiting in {where}"}
        return {"ok": False, "error": (done.stderr.strip().splitlines() or ["no output"])[-1][:400]}
    return json.loads(lines[-1])


# ----------------------------------------------------------------------------------------------


def main():
    if sys.argv[1] == "--validate":
        validate_schema(sys.argv[2], json.load(sys.stdin))
        return
    pods, config_maps = workloads(sys.argv[1:])
    jobs, apps = {}, {}
    for workload, kind, pod in pods:
        for container in pod.get("containers", []):
            files, secret_dirs = container_files(pod, container, config_maps)
            oslo = {p: c for p, c in files.items() if p in OSLO_FILES}
            if not oslo:
                continue
            env = container_env(container)
            for path, content in oslo.items():
                schema = OSLO_FILES[path]
                key = (schema, content)
                job = jobs.setdefault(schema, {}).setdefault(key, {"file": path, "content": content, "env": set(), "users": []})
                job["env"].update(v for v in env if v.startswith("OS_") and "__" in v)
                job["users"].append(f"{workload}/{container['name']}")
            target = app_target(container)
            if target and kind == "Deployment":
                apps[f"{workload}/{container['name']}"] = (target, files, secret_dirs, env)

    failed = False
    print(f"{'schema':28} {'files':>5} {'options':>7} {'unknown':>7} {'type':>4} {'deprecated':>10} {'env':>4} {'env unknown':>11}")
    for schema, by_content in sorted(jobs.items()):
        payload = [dict(j, env=sorted(j["env"]), users=None) for j in by_content.values()]
        done = subprocess.run(
            [sys.executable, __file__, "--validate", schema], input=json.dumps(payload), capture_output=True, text=True
        )
        if done.returncode != 0:
            print(f"{schema}: validation crashed\n{done.stderr[-2000:]}")
            failed = True
            continue
        results = json.loads(done.stdout.strip().splitlines()[-1])
        total = {k: sum(r[k] if isinstance(r[k], int) else len(r[k]) for r in results) for k in results[0] if k != "file"}
        print(
            f"{schema:28} {len(results):>5} {total['options']:>7} {total['unknown']:>7} {total['type']:>4} "
            f"{total['deprecated']:>10} {total['env']:>4} {total['env_unknown']:>11}"
        )
        for result, job in zip(results, by_content.values()):
            for kind in ("unknown", "type", "deprecated", "env_unknown"):
                for item in result[kind]:
                    failed = True
                    print(f"  {kind}: {item} in {result['file']} of {', '.join(sorted(set(job['users']))[:3])}")

    print(f"\n{'API container':55} result")
    for name, (target, files, secret_dirs, env) in sorted(apps.items()):
        verdict = start_app(target, files, secret_dirs, env)
        failed |= not verdict["ok"]
        print(f"{name:55} {'app built: ' + verdict['app'] if verdict['ok'] else 'FAILED: ' + verdict['error']}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
