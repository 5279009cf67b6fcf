"""Unit tests of the cache bookkeeping around layer builds (python3 -m unittest, see docs/images.md)."""

import tempfile
import unittest
from pathlib import Path

from imagelib.build import Cache, prune
from imagelib.recipe import load_recipes


class PruneTest(unittest.TestCase):
    def test_only_the_current_recipes_layers_and_archive_are_kept(self):
        # GIVEN a cache holding the current recipes' layers and archive, plus an outdated layer
        # and archive from an earlier recipe version
        repo = Path(tempfile.mkdtemp())
        (repo / 'images').mkdir()
        (repo / 'images/base.toml').write_text('bootstrap = "bookworm"\n[image]\nname = "base"\ntags = ["1"]\n')
        recipes = load_recipes(repo / 'images', repo, {})
        cache = Cache(repo / 'cache')
        current = cache.layer_dir(recipes['base'])
        stale = cache.root / 'layers/base-0123456789abcdef'
        for layer_dir in (current, stale):
            (layer_dir / 'tree/etc').mkdir(parents=True)
        archive = cache.archive(list(recipes.values()))
        (cache.root / 'archives').mkdir()
        for path in (archive, archive.with_suffix('.json'), cache.root / 'archives/images-0123456789abcdef.tar'):
            path.write_text('x')
        # WHEN the cache is pruned
        prune(recipes, cache, archive)
        # THEN what the current recipes use is left, and nothing else
        self.assertEqual(sorted(p.name for p in (cache.root / 'layers').iterdir()), [current.name])
        self.assertEqual(sorted(p.name for p in (cache.root / 'archives').iterdir()),
                         sorted([archive.name, archive.with_suffix('.json').name]))


if __name__ == '__main__':
    unittest.main()
