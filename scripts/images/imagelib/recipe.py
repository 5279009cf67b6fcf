"""Recipes (images/*.toml): one layer each, optionally tagged as an image, and their cache keys.

A recipe with `releases` (OpenStack releases) is one layer per release: `${RELEASE}` in its
strings (the lock path, the tags, ...) is replaced by the release, a `[release."<release>"]` table
adds to that release's fields (Debian packages one lock needs and the other does not), and `from`
a recipe with releases takes that release's parent. Such a layer is named `<recipe>@<release>`.

A layer's key hashes everything it is made from: its own fields as resolved for its release (so
`releases` itself is not part of it), the content of every file it copies in, the lock file it
installs from, its parent's key and the builder's version. A changed input therefore rebuilds
that layer and every layer above it, and nothing else; layers without releases below the
OpenStack ones (minbase) have one key for every release.
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
LAYER_KEYS = {'from', 'bootstrap', 'releases', 'release', 'debian', 'pip', 'files', 'run', 'image'}
# What a [release."<release>"] table may add to that release's layer (appended to the recipe's list).
RELEASE_ADDITIONS = {'debian'}
IMAGE_KEYS = {'name', 'tags', 'user', 'env', 'workdir'}
PIP_KEYS = {'lock', 'requirements'}
FILE_KEYS = {'src', 'mode'}
_NAME = re.compile(r'^[a-z0-9][a-z0-9-]*$')
_ENV_REF = re.compile(r'\$\{([A-Z_][A-Z0-9_]*)\}')
_RELEASE = re.compile(r'^[0-9]{4}\.[0-9]+$')
RELEASE_REF = '${RELEASE}'


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
    name: str  # the recipe's file name, `@<release>` appended for a recipe with releases
    stem: str  # the recipe's file name (images/<stem>.toml)
    release: str | None
    path: Path
    raw: dict  # the recipe's fields, `${RELEASE}` resolved
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


def _resolve(value, release: str):
    """`value` with `${RELEASE}` replaced in every string it holds (keys included)."""
    if isinstance(value, str):
        return value.replace(RELEASE_REF, release)
    if isinstance(value, list):
        return [_resolve(v, release) for v in value]
    if isinstance(value, dict):
        return {_resolve(k, release): _resolve(v, release) for k, v in value.items()}
    return value


def _uses_release(value) -> bool:
    if isinstance(value, str):
        return RELEASE_REF in value
    if isinstance(value, list):
        return any(_uses_release(v) for v in value)
    if isinstance(value, dict):
        return any(_uses_release(k) or _uses_release(v) for k, v in value.items())
    return False


def release_order(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split('.'))


def _load(path: Path, repo: Path, env: dict[str, str]) -> list['Recipe']:
    """The layers of one recipe file: one, or one per release."""
    if not _NAME.match(path.stem):
        raise _fail(path, f'recipe names are lower-case kebab-case, got {path.stem!r}; rename the file')
    with open(path, 'rb') as f:
        raw = tomllib.load(f)
    unknown = set(raw) - LAYER_KEYS
    if unknown:
        raise _fail(path, f'unknown keys {sorted(unknown)}; allowed: {sorted(LAYER_KEYS)}')
    if 'releases' not in raw:
        if _uses_release(raw) or 'release' in raw:
            raise _fail(path, f'uses {RELEASE_REF} or [release."..."] but has no `releases`; add releases = ["2025.1", ...]')
        return [_parse(path, path.stem, None, raw, repo, env)]
    releases = _strings(path, raw['releases'], 'releases')
    if not releases or not all(_RELEASE.match(r) for r in releases) or len(set(releases)) != len(releases):
        raise _fail(path, f'releases must be distinct OpenStack release numbers like "2025.1", got {list(releases)!r}')
    additions = raw.get('release', {})
    if not isinstance(additions, dict) or set(additions) - set(releases):
        raise _fail(path, f'[release."..."] tables must be named by one of the releases {list(releases)!r}, got {sorted(additions)!r}')
    for release, extra in additions.items():
        if not isinstance(extra, dict) or set(extra) - RELEASE_ADDITIONS:
            raise _fail(path, f'[release."{release}"] may only add {sorted(RELEASE_ADDITIONS)}, got {sorted(extra)!r}')
    layers = []
    for release in sorted(releases, key=release_order):
        # Without `releases` and `release`: a release's fields are what its layer is made of.
        fields = {k: v for k, v in raw.items() if k not in ('releases', 'release')}
        for key, extra in additions.get(release, {}).items():
            fields[key] = list(fields.get(key, [])) + list(_strings(path, extra, f'release."{release}".{key}'))
        layers.append(_parse(path, f'{path.stem}@{release}', release, _resolve(fields, release), repo, env))
    return layers


def _parse(path: Path, name: str, release: str | None, raw: dict, repo: Path, env: dict[str, str]) -> Recipe:
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
        stem=path.stem,
        release=release,
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
    """What the layer is made of; [image] is left out, it changes the config, not the layer. The
    fields are the resolved ones, without `releases`: the 2025.1 layer of a recipe with releases
    has the key it would have as a recipe naming 2025.1's lock itself, and a release added to the
    list rebuilds nothing that exists."""
    fields = {k: v for k, v in recipe.raw.items() if k != 'image'}
    return {
        'builder': BUILDER_VERSION,
        'recipe': fields,
        'files': {f.dest: [_file_hash(f.src, recipe.path), f.mode] for f in recipe.files},
        'lock': _file_hash(recipe.pip_lock, recipe.path) if recipe.pip_lock else None,
    }


def load_recipes(recipes_dir: Path, repo: Path, env: dict[str, str] | None = None) -> dict[str, Recipe]:
    """Every layer the recipes in recipes_dir describe, parents before children (keys are computed
    on first use), by name: `<recipe>`, or `<recipe>@<release>` for a recipe with releases."""
    env = dict(os.environ if env is None else env)
    recipes = {r.name: r for p in sorted(recipes_dir.glob('*.toml')) for r in _load(p, repo, env)}
    by_stem: dict[str, list[Recipe]] = {}
    for recipe in recipes.values():
        by_stem.setdefault(recipe.stem, []).append(recipe)
    ordered: dict[str, Recipe] = {}

    def parent_of(recipe: Recipe) -> Recipe:
        wanted = recipe.parent
        assert wanted is not None
        if wanted in recipes:
            return recipes[wanted]
        stem, _, pinned = wanted.partition('@')
        if not pinned and recipe.release and f'{stem}@{recipe.release}' in recipes:
            return recipes[f'{stem}@{recipe.release}']
        if stem not in by_stem:
            raise _fail(recipe.path, f'from = "{wanted}" names no recipe; add images/{stem}.toml')
        built_for = [r.release for r in by_stem[stem]]
        if pinned:
            raise _fail(recipe.path, f'from = "{wanted}": {stem}.toml is built for {", ".join(map(str, built_for))}, not {pinned}')
        if recipe.release is None:
            raise _fail(recipe.path, f'from = "{wanted}" is built for {", ".join(map(str, built_for))}: name one '
                                     f'(from = "{stem}@{built_for[-1]}") or give this recipe `releases`')
        raise _fail(recipe.path, f'is built for {recipe.release}, but {stem}.toml is not; add "{recipe.release}" to its releases')

    def visit(recipe: Recipe, seen: tuple[str, ...]) -> None:
        if recipe.name in ordered:
            return
        if recipe.name in seen:
            raise _fail(recipe.path, f'`from` forms a cycle: {" -> ".join(seen + (recipe.name,))}')
        if recipe.parent is not None:
            recipe.parent_recipe = parent_of(recipe)
            visit(recipe.parent_recipe, seen + (recipe.name,))
        ordered[recipe.name] = recipe

    for recipe in recipes.values():
        visit(recipe, ())
    refs: dict[str, str] = {}
    for recipe in ordered.values():
        for ref in recipe.image.refs if recipe.image else []:
            if ref in refs:
                raise _fail(recipe.path, f'{ref} is also produced by {refs[ref]}; give one of them another tag'
                                         + (f' (tags = ["{RELEASE_REF}"])' if recipe.release else ''))
            refs[ref] = f'{recipe.stem}.toml' + (f' ({recipe.release})' if recipe.release else '')
    return ordered


def select(recipes: dict[str, Recipe], name: str) -> list[Recipe]:
    """The layers a name given on a command line means: `keystone@2024.2` that one, `keystone`
    every release of it (newest last), `ovn` the one there is."""
    if name in recipes:
        return [recipes[name]]
    return sorted((r for r in recipes.values() if r.stem == name and r.release),
                  key=lambda r: release_order(r.release or '0'))
