"""Unit tests of the layer and docker-archive writer (python3 -m unittest, see docs/images.md)."""

import hashlib
import json
import os
import stat
import tarfile
import tempfile
import unittest
from pathlib import Path

from imagelib.archive import ArchiveImage, ImageConfig, config_digest, config_json, write_docker_archive, write_layer


def sha256_of(path: Path) -> str:
    return 'sha256:' + hashlib.sha256(path.read_bytes()).hexdigest()


class WriteLayerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp())
        self.tree = self.tmp / 'tree'
        (self.tree / 'etc/app').mkdir(parents=True)
        (self.tree / 'etc/app/app.conf').write_text('x = 1\n')
        os.chmod(self.tree / 'etc/app/app.conf', 0o640)
        os.chown(self.tree / 'etc/app/app.conf', 42424, 42424)
        os.link(self.tree / 'etc/app/app.conf', self.tree / 'etc/app/hard.conf')
        os.symlink('app.conf', self.tree / 'etc/app/link.conf')

    def members(self, layer: Path) -> dict[str, tarfile.TarInfo]:
        with tarfile.open(layer) as tar:
            return {m.name: m for m in tar.getmembers()}

    def test_files_keep_mode_numeric_owner_links_and_the_diff_id_is_the_tarballs_digest(self):
        # GIVEN a tree with a file owned by 42424, a hard link and a symlink
        # WHEN it is written as a layer
        out = self.tmp / 'layer.tar'
        diff_id = write_layer(self.tree, out)
        # THEN the diff ID is the digest of the uncompressed tarball, parents come before children,
        # and owner, mode and both kinds of link survive without host user names
        self.assertEqual(diff_id, sha256_of(out))
        members = self.members(out)
        self.assertEqual(list(members), ['etc', 'etc/app', 'etc/app/app.conf', 'etc/app/hard.conf', 'etc/app/link.conf'])
        conf = members['etc/app/app.conf']
        self.assertEqual((conf.uid, conf.gid, conf.mode, conf.uname), (42424, 42424, 0o640, ''))
        self.assertTrue(members['etc/app/hard.conf'].islnk())
        self.assertEqual(members['etc/app/hard.conf'].linkname, 'etc/app/app.conf')
        self.assertEqual(members['etc/app/link.conf'].linkname, 'app.conf')

    @unittest.skipUnless(os.geteuid() == 0, 'overlayfs markers (device nodes, trusted.* xattrs) need root')
    def test_overlay_markers_become_whiteouts_and_other_devices_are_left_out(self):
        # GIVEN an overlayfs upper directory: a deleted file (0/0 char device), a replaced
        # directory (opaque xattr) and an ordinary device node
        os.mknod(self.tree / 'etc/removed.conf', stat.S_IFCHR | 0o000, os.makedev(0, 0))
        (self.tree / 'var/cache').mkdir(parents=True)
        os.setxattr(self.tree / 'var/cache', 'trusted.overlay.opaque', b'y')
        os.mknod(self.tree / 'etc/null', stat.S_IFCHR | 0o666, os.makedev(1, 3))
        # WHEN it is written as a layer
        write_layer(self.tree, self.tmp / 'layer.tar')
        members = self.members(self.tmp / 'layer.tar')
        # THEN the image-layer markers replace them, and the device node is not in the layer
        self.assertTrue(members['etc/.wh.removed.conf'].isreg())
        self.assertEqual(members['etc/.wh.removed.conf'].size, 0)
        self.assertNotIn('etc/removed.conf', members)
        self.assertTrue(members['var/cache/.wh..wh..opq'].isreg())
        self.assertNotIn('etc/null', members)


class DockerArchiveTest(unittest.TestCase):
    def test_two_images_share_a_layer_that_is_stored_once(self):
        # GIVEN two layers and two images, both on the base layer
        tmp = Path(tempfile.mkdtemp())
        base, top = tmp / 'base.tar', tmp / 'top.tar'
        for path, name in ((base, 'base'), (top, 'top')):
            (tmp / name).mkdir()
            (tmp / name / name).write_text(name)
        base_id, top_id = write_layer(tmp / 'base', base), write_layer(tmp / 'top', top)
        small = config_json([base_id], ImageConfig(user='42424:42424'), ['base'])
        big = config_json([base_id, top_id], ImageConfig(user='42424:42424', env=['A=1']), ['base', 'top'])
        # WHEN both are written into one archive
        out = tmp / 'images.tar'
        write_docker_archive(out, [
            ArchiveImage(refs=['stackwright.local/small:1'], config=small, layers=[(base_id, base)]),
            ArchiveImage(refs=['stackwright.local/big:1', 'stackwright.local/big:2'], config=big,
                         layers=[(base_id, base), (top_id, top)]),
        ])
        # THEN the manifest lists both images by their config digest, the base layer is stored
        # once, and every file is where the manifest says, byte for byte
        with tarfile.open(out) as tar:
            names = tar.getnames()
            manifest = json.load(tar.extractfile('manifest.json'))
            self.assertEqual(tar.extractfile(manifest[1]['Config']).read(), big)
            self.assertEqual(tar.extractfile(f'{top_id[7:]}/layer.tar').read(), top.read_bytes())
        self.assertEqual(manifest, [
            {'Config': config_digest(small)[7:] + '.json', 'RepoTags': ['stackwright.local/small:1'],
             'Layers': [f'{base_id[7:]}/layer.tar']},
            {'Config': config_digest(big)[7:] + '.json', 'RepoTags': ['stackwright.local/big:1', 'stackwright.local/big:2'],
             'Layers': [f'{base_id[7:]}/layer.tar', f'{top_id[7:]}/layer.tar']},
        ])
        self.assertEqual(names.count(f'{base_id[7:]}/layer.tar'), 1)
        self.assertEqual(len(names), 5)

    def test_config_has_no_entrypoint_or_date_so_equal_inputs_give_equal_digests(self):
        # GIVEN the same layers and runtime settings twice
        make = lambda: config_json(['sha256:' + 'a' * 64], ImageConfig(user='42424:42424', workdir='/w'), ['x'])
        # WHEN the configs are rendered
        first, second = make(), make()
        # THEN they are identical and state only PATH, user, workdir and the layers
        self.assertEqual(first, second)
        blob = json.loads(first)
        self.assertEqual(blob['config'], {
            'Env': ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
            'User': '42424:42424',
            'WorkingDir': '/w',
        })
        self.assertEqual(blob['rootfs'], {'type': 'layers', 'diff_ids': ['sha256:' + 'a' * 64]})
        self.assertNotIn('created', blob)


if __name__ == '__main__':
    unittest.main()
