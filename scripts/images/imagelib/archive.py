"""Layer tarballs and docker-archive files, with the standard library only.

A layer is written from a directory tree. Trees built as overlayfs upper directories carry the
kernel's deletion markers (a 0/0 character device for a removed file, the `trusted.overlay.opaque`
xattr for a replaced directory); they become the `.wh.` entries that image layers use instead.
"""

import hashlib
import io
import json
import os
import stat
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterable, Sequence

WHITEOUT_PREFIX = '.wh.'
OPAQUE_MARKER = '.wh..wh..opq'
OPAQUE_XATTR = 'trusted.overlay.opaque'
DEFAULT_PATH = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'


class _HashingWriter(io.RawIOBase):
    """Write-through file wrapper that hashes what passes, so a layer's diff ID costs no second read."""

    def __init__(self, target: BinaryIO):
        self._target = target
        self.digest = hashlib.sha256()

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:  # type: ignore[override]
        self.digest.update(data)
        return self._target.write(data)


def _is_whiteout(st: os.stat_result) -> bool:
    return stat.S_ISCHR(st.st_mode) and st.st_rdev == 0


def _is_opaque(path: str) -> bool:
    try:
        return os.getxattr(path, OPAQUE_XATTR, follow_symlinks=False) == b'y'
    except OSError:
        return False


def _empty_member(name: str, like: tarfile.TarInfo | None = None) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.mode = 0o644
    info.mtime = like.mtime if like else 0
    return info


def _walk(root: str) -> Iterable[tuple[str, str]]:
    """(absolute path, layer path) of every entry below root, parents first, names sorted."""
    for current, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(dirs + files):
            path = os.path.join(current, name)
            yield path, os.path.relpath(path, root)


def write_layer(tree: Path, out: Path) -> str:
    """Write `tree` as an uncompressed layer tarball at `out`; return its diff ID (`sha256:<hex>`).

    Device nodes other than overlay whiteouts are left out (a container gets its own /dev), and so
    are sockets, which a tarball cannot hold. Owners are numeric only, as the image will see them.
    """
    tmp = out.with_name(out.name + '.tmp')
    with open(tmp, 'wb') as raw:
        hashing = _HashingWriter(raw)
        with tarfile.open(fileobj=hashing, mode='w|', format=tarfile.PAX_FORMAT) as tar:
            for path, name in _walk(str(tree)):
                st = os.lstat(path)
                if _is_whiteout(st):
                    parent, base = os.path.split(name)
                    tar.addfile(_empty_member(os.path.join(parent, WHITEOUT_PREFIX + base)))
                    continue
                if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) or stat.S_ISSOCK(st.st_mode):
                    continue
                info = tar.gettarinfo(path, arcname=name)
                info.uname = info.gname = ''
                if info.isreg():
                    with open(path, 'rb') as f:
                        tar.addfile(info, f)
                else:
                    tar.addfile(info)
                if info.isdir() and _is_opaque(path):
                    tar.addfile(_empty_member(os.path.join(name, OPAQUE_MARKER), info))
        raw.flush()
        os.fsync(raw.fileno())
    os.replace(tmp, out)
    return 'sha256:' + hashing.digest.hexdigest()


@dataclass(frozen=True)
class ImageConfig:
    """The runtime part of an image config: no entrypoint or command, the manifests state those."""

    user: str = ''
    env: Sequence[str] = ()
    workdir: str = ''
    labels: dict[str, str] | None = None


def config_json(diff_ids: Sequence[str], config: ImageConfig, history: Sequence[str]) -> bytes:
    """The image config blob. No `created` date: equal inputs give an equal digest, so an import
    can tell an image it already holds from a new one."""
    runtime: dict = {'Env': [DEFAULT_PATH, *config.env]}
    if config.user:
        runtime['User'] = config.user
    if config.workdir:
        runtime['WorkingDir'] = config.workdir
    if config.labels:
        runtime['Labels'] = dict(sorted(config.labels.items()))
    blob = {
        'architecture': 'amd64',
        'os': 'linux',
        'config': runtime,
        'rootfs': {'type': 'layers', 'diff_ids': list(diff_ids)},
        'history': [{'created_by': h} for h in history],
    }
    return json.dumps(blob, sort_keys=True, separators=(',', ':')).encode()


@dataclass(frozen=True)
class ArchiveImage:
    refs: Sequence[str]
    config: bytes
    layers: Sequence[tuple[str, Path]]  # (diff ID, layer tarball), bottom first


def config_digest(config: bytes) -> str:
    return 'sha256:' + hashlib.sha256(config).hexdigest()


def write_docker_archive(out: Path, images: Sequence[ArchiveImage]) -> None:
    """One docker-archive holding every image; a layer shared by several images is stored once."""
    manifest = []
    tmp = out.with_name(out.name + '.tmp')
    with tarfile.open(tmp, 'w', format=tarfile.PAX_FORMAT) as tar:
        written: set[str] = set()

        def add_bytes(name: str, data: bytes) -> None:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))

        for image in images:
            config_name = config_digest(image.config).split(':', 1)[1] + '.json'
            if config_name not in written:
                add_bytes(config_name, image.config)
                written.add(config_name)
            layer_names = []
            for diff_id, path in image.layers:
                name = diff_id.split(':', 1)[1] + '/layer.tar'
                if name not in written:
                    tar.add(str(path), arcname=name, recursive=False)
                    written.add(name)
                layer_names.append(name)
            manifest.append({'Config': config_name, 'RepoTags': list(image.refs), 'Layers': layer_names})
        add_bytes('manifest.json', json.dumps(manifest, indent=1).encode())
    os.replace(tmp, out)
