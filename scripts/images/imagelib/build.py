"""Builds recipe layers into the cache and writes the docker-archive of every image.

Bottom layer: `mmdebstrap --variant=minbase` into a directory. Every other layer: an overlayfs
whose lower directories are the layers below it and whose upper directory becomes this layer;
packages are installed by running apt/pip/sh chrooted into the merged view. Each layer is built
in a fresh mount + PID namespace (`unshare`), so mounts and any daemon a package script starts
disappear with it, even when the build is interrupted.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .archive import ArchiveImage, ImageConfig, config_digest, config_json, write_docker_archive, write_layer
from .recipe import Recipe

CHROOT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
# Build-time leftovers removed from an upper directory before it becomes a layer. Removing them
# from the upper directory (not through the overlay) never creates whiteouts: whatever a lower
# layer holds at these paths stays as it was.
# Log directories a package creates (/var/log/rabbitmq) are kept: they are part of the package.
LEFTOVERS = [
    'tmp',
    'root/.cache',
    'etc/resolv.conf',
    'usr/sbin/policy-rc.d',
    'var/lib/apt/lists',
    'var/cache/apt',
    'var/cache/debconf/config.dat-old',
    'var/cache/debconf/templates.dat-old',
    'var/lib/dpkg/status-old',
    'var/log/apt',
    'var/log/dpkg.log',
    'var/log/alternatives.log',
]


def log(message: str) -> None:
    print(f'[images] {message}', file=sys.stderr, flush=True)


def host_mirror() -> str:
    """The Debian mirror the host's apt uses, so images build wherever the host's packages come from."""
    for sources in sorted(Path('/etc/apt/sources.list.d').glob('*.sources')):
        for line in sources.read_text().splitlines():
            if line.startswith('URIs:') and 'security' not in line:
                return line.split()[1]
    lists = Path('/etc/apt/sources.list')
    for line in lists.read_text().splitlines() if lists.exists() else []:
        if line.startswith('deb ') and 'security' not in line:
            return line.split()[1]
    return 'http://deb.debian.org/debian'


class Cache:
    def __init__(self, root: Path):
        self.root = root

    def layer_dir(self, recipe: Recipe) -> Path:
        """Named by the recipe file and the key: a release's layers differ in their keys."""
        return self.root / 'layers' / f'{recipe.stem}-{recipe.short_key}'

    def tree(self, recipe: Recipe) -> Path:
        return self.layer_dir(recipe) / 'tree'

    def diff_id(self, recipe: Recipe) -> str | None:
        marker = self.layer_dir(recipe) / 'diff-id'
        return marker.read_text().strip() if marker.exists() else None

    def archive(self, recipes: list[Recipe]) -> Path:
        """Keyed by the layers' digests (not the recipe keys), so a layer rebuilt under the same key
        still gets a new archive."""
        key = hashlib.sha256(
            json.dumps([[r.name, [self.diff_id(x) for x in r.chain], r.raw.get('image')] for r in recipes]).encode())
        return self.root / 'archives' / f'images-{key.hexdigest()[:16]}.tar'

    def record_time(self, what: str, seconds: float, size: int | None = None) -> None:
        with open(self.root / 'build-times.txt', 'a') as f:
            stamp = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())
            f.write(f'{stamp}\t{what}\t{seconds:.0f}s' + (f'\t{size / 2**20:.1f}MiB' if size is not None else '') + '\n')


def _run(cmd: list[str], **kwargs) -> None:
    subprocess.run(cmd, check=True, **kwargs)


def build_layer(recipe: Recipe, cache: Cache, repo: Path) -> None:
    """Build one layer (its parents must be built) in a fresh mount and PID namespace."""
    layer_dir = cache.layer_dir(recipe)
    if layer_dir.exists():
        _unmount_below(layer_dir)
        shutil.rmtree(layer_dir)
    layer_dir.mkdir(parents=True)
    start = time.time()
    log(f'building layer {recipe.name} ({recipe.short_key}) ...')
    _run(['unshare', '--mount', '--propagation', 'private', '--pid', '--fork', sys.executable, '-m', 'imagelib',
          '--repo', str(repo), '--cache', str(cache.root), 'layer', recipe.name],
         cwd=Path(__file__).resolve().parent.parent)
    tree = cache.tree(recipe)
    # The bottom layer is mmdebstrap's own clean result; leftovers are an upper-directory notion.
    for leftover in LEFTOVERS if recipe.parent else []:
        path = tree / leftover
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
    diff_id = write_layer(tree, layer_dir / 'layer.tar')
    shutil.rmtree(layer_dir / 'work', ignore_errors=True)
    (layer_dir / 'diff-id').write_text(diff_id + '\n')
    size = (layer_dir / 'layer.tar').stat().st_size
    cache.record_time(f'layer {recipe.name}', time.time() - start, size)
    log(f'built layer {recipe.name} in {time.time() - start:.0f}s, {size / 2**20:.1f} MiB')


def _unmount_below(path: Path) -> None:
    """A build killed mid-way in the host namespace cannot leave mounts (they live in the layer's
    own namespace), but be safe before deleting: never rmtree through a live bind mount."""
    mounts = [line.split()[1] for line in Path('/proc/self/mounts').read_text().splitlines()]
    for mount in sorted((m for m in mounts if m.startswith(str(path) + '/')), reverse=True):
        _run(['umount', '-l', mount])


class LayerBuild:
    """Runs inside the layer's namespaces (python3 -m imagelib layer NAME)."""

    def __init__(self, recipe: Recipe, cache: Cache):
        self.recipe = recipe
        self.cache = cache
        self.tree = cache.tree(recipe)
        self.root = cache.layer_dir(recipe) / 'merged' if recipe.parent else self.tree

    def run(self) -> None:
        if self.recipe.bootstrap:
            self._bootstrap()
        else:
            self._mount_overlay()
        self._mount_build_helpers()
        if self.recipe.debian and not self.recipe.bootstrap:
            self._apt_install()
        if self.recipe.pip_lock:
            self._pip_install()
        for f in self.recipe.files:
            target = self.root / f.dest.lstrip('/')
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f.src, target)
            os.chmod(target, f.mode)
            os.chown(target, 0, 0)
        for command in self.recipe.run:
            self.chroot(command)

    def chroot(self, script: str, extra_env: dict[str, str] | None = None) -> None:
        env = {'PATH': CHROOT_PATH, 'HOME': '/root', 'LANG': 'C.UTF-8', 'DEBIAN_FRONTEND': 'noninteractive',
               **(extra_env or {})}
        _run(['chroot', str(self.root), '/usr/bin/env', '-i', *[f'{k}={v}' for k, v in env.items()],
              '/bin/sh', '-ec', script])

    def _bootstrap(self) -> None:
        mirror = host_mirror()
        security = mirror.replace('/debian', '/debian-security') if mirror.endswith('/debian') else None
        suite = self.recipe.bootstrap
        sources = [f'deb {mirror} {suite} main', f'deb {mirror} {suite}-updates main']
        if security:
            sources.append(f'deb {security} {suite}-security main')
        include = ['--include=' + ','.join(self.recipe.debian)] if self.recipe.debian else []
        _run(['mmdebstrap', '--variant=minbase', '--mode=root', '--format=directory', '--quiet',
              '--aptopt=APT::Install-Recommends "false"', *include, suite, str(self.tree), *sources])
        # mmdebstrap copies the host's resolver config; every container gets its own from the runtime.
        (self.tree / 'etc/resolv.conf').write_text('')

    def _mount_overlay(self) -> None:
        lowers = [str(self.cache.tree(r)) for r in reversed(self.recipe.chain[:-1])]
        work = self.cache.layer_dir(self.recipe) / 'work'
        for d in (self.tree, work, self.root):
            d.mkdir(parents=True, exist_ok=True)
        # No redirect_dir/metacopy: the upper directory must hold whole files and plain whiteouts,
        # the only kinds of change a layer tarball can express.
        options = f'lowerdir={":".join(lowers)},upperdir={self.tree},workdir={work},redirect_dir=off,metacopy=off,index=off'
        _run(['mount', '-t', 'overlay', 'overlay', '-o', options, str(self.root)])

    def _mount_build_helpers(self) -> None:
        """proc, a tmpfs /tmp, the host's resolver and shared download caches: all gone at unmount,
        none of it lands in the layer."""
        _run(['mount', '-t', 'proc', 'proc', str(self.root / 'proc')])
        _run(['mount', '-t', 'tmpfs', 'tmpfs', str(self.root / 'tmp')])
        _run(['mount', '--bind', '/etc/resolv.conf', str(self.root / 'etc/resolv.conf')])
        for cache_dir, inside in (('apt/lists', 'var/lib/apt/lists'), ('apt/archives', 'var/cache/apt/archives')):
            host = self.cache.root / cache_dir
            (host / 'partial').mkdir(parents=True, exist_ok=True)
            _run(['mount', '--bind', str(host), str(self.root / inside)])

    def _apt_install(self) -> None:
        policy = self.root / 'usr/sbin/policy-rc.d'
        # Packages must not start their daemons in the build chroot (exit 101: action forbidden).
        policy.write_text('#!/bin/sh\nexit 101\n')
        policy.chmod(0o755)
        try:
            self.chroot('apt-get update -q')
            self.chroot('apt-get install -y -q --no-install-recommends ' + ' '.join(self.recipe.debian))
        finally:
            policy.unlink()

    def _pip_install(self) -> None:
        """Into Debian's python3 (/usr/local, the dist-packages uwsgi's python3 plugin also reads)."""
        pip_cache = self.cache.root / 'pip'
        pip_cache.mkdir(parents=True, exist_ok=True)
        (self.root / 'tmp/pip-cache').mkdir()
        _run(['mount', '--bind', str(pip_cache), str(self.root / 'tmp/pip-cache')])
        shutil.copyfile(self.recipe.pip_lock, self.root / 'tmp/constraints.lock')
        env = {'PIP_CACHE_DIR': '/tmp/pip-cache', 'PIP_DISABLE_PIP_VERSION_CHECK': '1', 'PIP_NO_INPUT': '1'}
        for name in ('PIP_INDEX_URL', 'PIP_EXTRA_INDEX_URL', 'PIP_DEFAULT_TIMEOUT'):
            if name in os.environ:
                env[name] = os.environ[name]
        host_ca = Path(os.environ.get('PIP_CERT', '/etc/ssl/certs/ca-certificates.crt'))
        if host_ca.is_file():
            # The host's trust store, in case its network reaches the index through an intercepting proxy.
            shutil.copyfile(host_ca, self.root / 'tmp/host-ca.crt')
            env['PIP_CERT'] = '/tmp/host-ca.crt'
        # The lock pins the whole closure; installing the named requirements under it as constraints
        # takes only what these images need, at exactly the locked versions.
        requirements = ' '.join(f"'{r}'" for r in self.recipe.pip_requirements)
        self.chroot('python3 -m pip install --break-system-packages --root-user-action=ignore --no-warn-script-location '
                    f'-c /tmp/constraints.lock {requirements}', env)


def build_all(recipes: dict[str, Recipe], cache: Cache, repo: Path, *, only_ready: bool) -> Path | None:
    """Build every missing layer; write the archive once every image can be built.

    only_ready: skip (instead of failing on) layers whose input files do not exist yet."""
    pending = []
    for recipe in recipes.values():
        missing = recipe.missing_inputs()
        if missing:
            if not only_ready:
                raise SystemExit(f'[images] {recipe.name}: input files missing: {", ".join(map(str, missing))}')
            log(f'skipping {recipe.name} for now: waiting for {", ".join(map(str, missing))}')
            pending.append(recipe)
            continue
        if cache.diff_id(recipe):
            continue
        build_layer(recipe, cache, repo)
    if pending:
        return None
    archive = write_archive(recipes, cache)
    prune(recipes, cache, archive)
    return archive


def prune(recipes: dict[str, Recipe], cache: Cache, archive: Path) -> None:
    """Delete layers and archives the current recipes no longer use (a ~1 GiB archive per recipe
    change would otherwise pile up). Going back to an older recipe rebuilds what it needs."""
    keep_layers = {cache.layer_dir(r).name for r in recipes.values()}
    for layer_dir in (cache.root / 'layers').iterdir():
        if layer_dir.name not in keep_layers:
            _unmount_below(layer_dir)
            shutil.rmtree(layer_dir)
            log(f'pruned layer {layer_dir.name}')
    for old in (cache.root / 'archives').iterdir():
        if old.stem != archive.stem:
            old.unlink()
            log(f'pruned {old.name}')


def write_archive(recipes: dict[str, Recipe], cache: Cache) -> Path:
    images = [r for r in recipes.values() if r.image]
    out = cache.archive(images)
    index = out.with_suffix('.json')
    if out.exists() and index.exists():
        log(f'archive up to date: {out}')
        return out
    start = time.time()
    entries, manifest = [], {}
    for recipe in images:
        assert recipe.image
        layers = [(cache.diff_id(r), cache.layer_dir(r) / 'layer.tar') for r in recipe.chain]
        config = config_json([d for d, _ in layers],
                             ImageConfig(user=recipe.image.user, env=recipe.image.env, workdir=recipe.image.workdir),
                             [f'stackwright images/{r.stem}.toml {r.short_key}' for r in recipe.chain])
        entries.append(ArchiveImage(refs=recipe.image.refs, config=config, layers=layers))
        for ref in recipe.image.refs:
            manifest[ref] = config_digest(config)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_docker_archive(out, entries)
    index.write_text(json.dumps(manifest, indent=1, sort_keys=True) + '\n')
    cache.record_time('archive', time.time() - start, out.stat().st_size)
    log(f'wrote {out} ({out.stat().st_size / 2**20:.0f} MiB, {len(manifest)} image references)')
    return out
