"""Recipes (images/*.toml): one layer each, optionally tagged as an image, and their cache keys.

A recipe's key hashes everything its layer is made from: its own fields, the content of every
file it copies in, the lock file it installs from, its parent's key and the builder's version. A
changed input therefore rebuilds that layer and every layer above it, and nothing else.
"""

import hashlib
import json
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

# Bump when the way a layer is produced changes (mount options, clean-up, tar format), so cached
# layers built the old way are not reused.
BUILDER_VERSION = 1

REGISTRY = 'stackwright.local'
LAYER_KEYS = {'from', 'bootstrap', 'debian', 'pip', 'files', 'run', 'image'}
IMAGE_KEYS = {'name', 'tags', 'user', 'env', 'workdir'}
PIP_KEYS = {'lock', 'requirements'}
FILE_KEYS = {'src', 'mode'}
_NAME = re.compile(r'^[a-z0-9][a-z0-9-]*$')
_ENV_REF = re.compile(r'\$\{([A-Z_][A-Z0-9_]*)\}')


class RecipeError(Exception):
    pass


@dataclass(frozen=True)
class FileSpec:
    dest: str
    src: Path
    mode: int


@dataclass(frozen=True)
class ImageSpec:
    name: str
    tags: tuple[str, ...]
    user: str
    env: tuple[str, ...]
    workdir: str

    @property
    def refs(self) -> list[str]:
        return [f'{REGISTRY}/{self.name}:{tag}' for tag in self.tags]


@dataclass
class Recipe:
    name: str
    path: Path
    raw: dict
    parent: str | None
    bootstrap: str | None
    debian: tuple[str, ...]
    pip_lock: Path | None
    pip_requirements: tuple[str, ...]
    files: tuple[FileSpec, ...]
    run: tuple[str, ...]
    image: ImageSpec | None
    parent_recipe: 'Recipe | None' = None
    _key: str = ''

    @property
    def chain(self) -> list['Recipe']:
        """This layer and the ones below it, bottom first."""
        return (self.parent_recipe.chain if self.parent_recipe else []) + [self]

    @property
    def key(self) -> str:
        """Computed on first use: a layer whose input file is still being built elsewhere (kubectl)
        can be listed before it can be keyed."""
        if not self._key:
            inputs = {'parent': self.parent_recipe.key if self.parent_recipe else None, **_layer_inputs(self)}
            self._key = hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()
        return self._key

    @property
    def short_key(self) -> str:
        return self.key[:16]

    def missing_inputs(self) -> list[Path]:
        """Input files of this layer or a layer below it that do not exist (yet)."""
        return [f.src for r in self.chain for f in r.files if not f.src.is_file()]


def _fail(path: Path, message: str) -> RecipeError:
    return RecipeError(f'[{path.name}] {message}')


def _strings(path: Path, value, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(path, f'{what} must be a list of strings, got {value!r}')
    return tuple(value)


def _expand(path: Path, value: str, env: dict[str, str]) -> str:
    def sub(m: re.Match) -> str:
        if m.group(1) not in env:
            raise _fail(path, f'"{value}" uses ${{{m.group(1)}}}, which is not set; scripts/images/build.sh sets it')
        return env[m.group(1)]

    return _ENV_REF.sub(sub, value)


def _parse(path: Path, repo: Path, env: dict[str, str]) -> Recipe:
    name = path.stem
    if not _NAME.match(name):
        raise _fail(path, f'recipe names are lower-case kebab-case, got {name!r}; rename the file')
    with open(path, 'rb') as f:
        raw = tomllib.load(f)
    unknown = set(raw) - LAYER_KEYS
    if unknown:
        raise _fail(path, f'unknown keys {sorted(unknown)}; allowed: {sorted(LAYER_KEYS)}')
    parent, bootstrap = raw.get('from'), raw.get('bootstrap')
    if (parent is None) == (bootstrap is None):
        raise _fail(path, 'needs exactly one of `from` (a parent recipe) or `bootstrap` (a Debian suite)')
    pip = raw.get('pip', {})
    if set(pip) - PIP_KEYS:
        raise _fail(path, f'unknown pip keys {sorted(set(pip) - PIP_KEYS)}; allowed: {sorted(PIP_KEYS)}')
    if pip and ('lock' not in pip or not pip.get('requirements')):
        raise _fail(path, 'pip needs `lock` (the committed lock file, used as constraints) and `requirements` (what to install)')
    files = []
    for dest, spec in sorted(raw.get('files', {}).items()):
        if not dest.startswith('/') or not isinstance(spec, dict) or set(spec) - FILE_KEYS or 'src' not in spec:
            raise _fail(path, f'files."{dest}" must be an absolute path mapped to {{ src = "...", mode = "0644" }}')
        src = Path(_expand(path, spec['src'], env))
        files.append(FileSpec(dest, src if src.is_absolute() else path.parent / src, int(spec.get('mode', '0644'), 8)))
    image = None
    if 'image' in raw:
        img = raw['image']
        if set(img) - IMAGE_KEYS or 'name' not in img or 'tags' not in img:
            raise _fail(path, f'[image] needs name and tags and allows only {sorted(IMAGE_KEYS)}')
        image = ImageSpec(
            name=img['name'],
            tags=_strings(path, img['tags'], 'image.tags'),
            user=img.get('user', ''),
            env=_strings(path, img.get('env', []), 'image.env'),
            workdir=img.get('workdir', ''),
        )
    return Recipe(
        name=name,
        path=path,
        raw=raw,
        parent=parent,
        bootstrap=bootstrap,
        debian=_strings(path, raw.get('debian', []), 'debian'),
        pip_lock=(repo / pip['lock']) if pip else None,
        pip_requirements=_strings(path, pip.get('requirements', []), 'pip.requirements'),
        files=tuple(files),
        run=_strings(path, raw.get('run', []), 'run'),
        image=image,
    )


def _file_hash(path: Path, recipe: Path) -> str:
    if not path.is_file():
        raise _fail(recipe, f'{path} does not exist')
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            h.update(chunk)
    return h.hexdigest()


def _layer_inputs(recipe: Recipe) -> dict:
    """What the layer is made of; [image] is left out, it changes the config, not the layer."""
    fields = {k: v for k, v in recipe.raw.items() if k != 'image'}
    return {
        'builder': BUILDER_VERSION,
        'recipe': fields,
        'files': {f.dest: [_file_hash(f.src, recipe.path), f.mode] for f in recipe.files},
        'lock': _file_hash(recipe.pip_lock, recipe.path) if recipe.pip_lock else None,
    }


def load_recipes(recipes_dir: Path, repo: Path, env: dict[str, str] | None = None) -> dict[str, Recipe]:
    """Every recipe in recipes_dir, parents before children (keys are computed on first use)."""
    env = dict(os.environ if env is None else env)
    recipes = {p.stem: _parse(p, repo, env) for p in sorted(recipes_dir.glob('*.toml'))}
    ordered: dict[str, Recipe] = {}

    def visit(recipe: Recipe, seen: tuple[str, ...]) -> None:
        if recipe.name in ordered:
            return
        if recipe.name in seen:
            raise _fail(recipe.path, f'`from` forms a cycle: {" -> ".join(seen + (recipe.name,))}')
        if recipe.parent is not None:
            if recipe.parent not in recipes:
                raise _fail(recipe.path, f'from = "{recipe.parent}" names no recipe; add images/{recipe.parent}.toml')
            recipe.parent_recipe = recipes[recipe.parent]
            visit(recipe.parent_recipe, seen + (recipe.name,))
        ordered[recipe.name] = recipe

    for recipe in recipes.values():
        visit(recipe, ())
    refs: dict[str, str] = {}
    for recipe in ordered.values():
        for ref in recipe.image.refs if recipe.image else []:
            if ref in refs:
                raise _fail(recipe.path, f'{ref} is also produced by {refs[ref]}.toml; give one of them another tag')
            refs[ref] = recipe.name
    return ordered
