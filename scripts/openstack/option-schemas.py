"""Option schemas of the OpenStack services, generated from their own option definitions.

For every schema in services.json this loads the options the service registers, through the same
`oslo.config.opts` entry points oslo-config-generator reads (one namespace each), plus the options
registered at run time that services.json lists, and writes what Stackwright validates and renders
with: per section and option its type, choices, bounds, multi-value flag, secret flag, deprecated
names and removal, and the first paragraph of its help. Run by schemas.sh inside the venv.

Two files per schema: NAME.json (what validation and rendering read at every synthesis) and
NAME.help.json (oslo.config's type name and the help of each option, read only to explain a refused
value): the texts are three quarters of the bytes, and parsing them cost every synthesis.

Usage: python option-schemas.py SERVICES_JSON RELEASE OUT_DIR [SCHEMA...]
Each schema is generated in a process of its own: projects register options on the global
cfg.CONF when imported, and two of them in one process collide.
"""

import importlib
import importlib.metadata
import json
import re
import subprocess
import sys

from keystoneauth1 import loading as ks_loading
from oslo_config import cfg, types

HELP_LIMIT = 300


def namespace_options(namespace):
    """[(section, [opt])] of one namespace, as oslo-config-generator loads it."""
    points = [ep for ep in importlib.metadata.entry_points(group="oslo.config.opts") if ep.name == namespace]
    if not points:
        raise SystemExit(f"namespace {namespace!r} is not registered by any installed package")
    listed = points[0].load()()
    return [(section.name if isinstance(section, cfg.OptGroup) else (section or "DEFAULT"), list(opts)) for section, opts in listed]


def kind_of(opt):
    """Stackwright's type name (oslo-config.ts OsloOptionType) of an option."""
    if getattr(opt, "multi", False):
        return "multi"
    kind = opt.type
    if isinstance(kind, types.Boolean):
        return "bool"
    if isinstance(kind, types.Integer):  # Port is an Integer
        return "int"
    if isinstance(kind, types.Float):
        return "float"
    if isinstance(kind, types.List):
        return "list"
    if isinstance(kind, types.Dict):
        return "dict"
    return "string"


def first_paragraph(text):
    paragraph = re.split(r"\n\s*\n", (text or "").strip())[0]
    paragraph = " ".join(paragraph.split())
    return paragraph if len(paragraph) <= HELP_LIMIT else paragraph[: HELP_LIMIT - 1].rstrip() + "…"


def spec_of(opt, section):
    kind = opt.type
    spec = {"type": kind_of(opt), "osloType": getattr(kind, "type_name", "string value")}
    if getattr(opt, "multi", False):
        spec["osloType"] = "multi valued"
    helptext = first_paragraph(opt.help)
    if helptext:
        spec["help"] = helptext
    choices = getattr(kind, "choices", None)
    if choices:
        spec["choices"] = list(choices.keys() if isinstance(choices, dict) else choices)
    for bound in ("min", "max"):
        value = getattr(kind, bound, None)
        if value is not None:
            spec[bound] = value
    if opt.secret:
        spec["secret"] = True
    if isinstance(kind, types.List) and getattr(kind, "bounds", False):
        spec["bracketed"] = True
    # A deprecated name without a group was read from the option's own section.
    old = [{"section": d.group or section, "name": (d.name or opt.name).replace("-", "_")} for d in opt.deprecated_opts]
    if old:
        spec["deprecatedNames"] = old
    if opt.deprecated_for_removal:
        spec["deprecatedForRemoval"] = first_paragraph(opt.deprecated_reason) or True
    return spec


def add(sections, section, opts):
    target = sections.setdefault(section, {})
    for opt in opts:
        # Files and the environment name an option by its dest (keystoneauth's `auth-url` is `auth_url`).
        target.setdefault(opt.dest, spec_of(opt, section))


def glance_store_options():
    """Options of the file store, which glance_store registers under every file store's section."""
    from glance_store._drivers import filesystem

    return filesystem._FILESYSTEM_CONFIGS


def schema(name, spec):
    sections = {}
    for namespace in spec["namespaces"]:
        for section, opts in namespace_options(namespace):
            add(sections, section, opts)
    for section in spec.get("authSections", []):
        # keystoneauth's password plugin: registered when the section's auth_type is read.
        add(sections, section, ks_loading.get_auth_plugin_conf_options("password"))
    for extra in spec.get("importedOptions", []):
        add(sections, extra["section"], getattr(importlib.import_module(extra["module"]), extra["attribute"]))
    for section in spec.get("storeSections", []):
        add(sections, section, glance_store_options())
    versions = {
        dist: importlib.metadata.version(dist)
        for dist in sorted({spec["package"], "oslo.config", "oslo.messaging", "keystonemiddleware", "keystoneauth1"})
    }
    return {
        "versions": versions,
        "namespaces": spec["namespaces"],
        "sections": {s: dict(sorted(o.items())) for s, o in sorted(sections.items())},
    }


# The keys of an option's spec that only explain it: they go to NAME.help.json.
TEXT_KEYS = ("osloType", "help")


def split_texts(sections):
    """The sections without the options' texts, and the texts alone (same sections and options)."""
    specs, texts = {}, {}
    for section, options in sections.items():
        specs[section] = {o: {k: v for k, v in s.items() if k not in TEXT_KEYS} for o, s in options.items()}
        texts[section] = {o: {k: v for k, v in s.items() if k in TEXT_KEYS} for o, s in options.items()}
    return specs, texts


def write_json(path, data):
    with open(path, "w") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")


def main():
    services_json, release, out_dir, *names = sys.argv[1:]
    with open(services_json) as f:
        services = json.load(f)["schemas"]
    if not names:
        for name in services:
            subprocess.run([sys.executable, __file__, services_json, release, out_dir, name], check=True)
        return
    for name in names:
        data = {"schema": name, "release": release, **schema(name, services[name])}
        specs, texts = split_texts(data["sections"])
        write_json(f"{out_dir}/{name}.json", {**data, "sections": specs})
        write_json(f"{out_dir}/{name}.help.json", {"schema": name, "release": release, "sections": texts})
        options = sum(len(o) for o in data["sections"].values())
        print(f"{name}: {options} options in {len(data['sections'])} sections", flush=True)


if __name__ == "__main__":
    main()
