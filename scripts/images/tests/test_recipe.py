"""Unit tests of recipe loading and cache keys (python3 -m unittest, see docs/images.md)."""

import tempfile
import unittest
from pathlib import Path

from imagelib.recipe import RecipeError, load_recipes

BASE = 'bootstrap = "bookworm"\ndebian = ["ca-certificates"]\n'
SERVICE = 'from = "stack"\nrun = ["true"]\n[image]\nname = "svc"\ntags = ["1"]\n'
STACK = 'from = "base"\n[pip]\nlock = "python/x.lock"\nrequirements = ["svc"]\n[files]\n"/usr/local/bin/tool" = { src = "${TOOL}", mode = "0755" }\n'


class RecipeTest(unittest.TestCase):
    def setUp(self):
        self.repo = Path(tempfile.mkdtemp())
        (self.repo / 'images').mkdir()
        (self.repo / 'python').mkdir()
        (self.repo / 'python/x.lock').write_text('svc==1\n')
        (self.repo / 'tool').write_text('v1')
        self.env = {'TOOL': str(self.repo / 'tool')}
        self.write(base=BASE, stack=STACK, svc=SERVICE, other='from = "base"\ndebian = ["memcached"]\n')

    def write(self, **recipes: str) -> None:
        for name, text in recipes.items():
            (self.repo / 'images' / f'{name}.toml').write_text(text)

    def keys(self) -> dict[str, str]:
        return {name: r.key for name, r in load_recipes(self.repo / 'images', self.repo, self.env).items()}

    def test_parents_come_first_and_an_image_lists_its_layers_bottom_up(self):
        # GIVEN base <- stack <- svc and base <- other
        # WHEN the recipes are loaded
        recipes = load_recipes(self.repo / 'images', self.repo, self.env)
        # THEN every parent precedes its children and svc's chain runs from the bootstrap layer up
        order = list(recipes)
        self.assertLess(order.index('base'), order.index('stack'))
        self.assertLess(order.index('stack'), order.index('svc'))
        self.assertEqual([r.name for r in recipes['svc'].chain], ['base', 'stack', 'svc'])
        self.assertEqual(recipes['svc'].image.refs, ['stackwright.local/svc:1'])

    def test_a_changed_lock_file_rebuilds_the_layer_that_installs_from_it_and_those_above_only(self):
        # GIVEN the keys of a built set
        before = self.keys()
        # WHEN the lock file changes
        (self.repo / 'python/x.lock').write_text('svc==2\n')
        after = self.keys()
        # THEN stack and svc get new keys, base and its other child keep theirs
        self.assertEqual({n for n in before if before[n] != after[n]}, {'stack', 'svc'})

    def test_a_copied_files_content_is_part_of_the_key(self):
        before = self.keys()
        (self.repo / 'tool').write_text('v2')
        after = self.keys()
        self.assertEqual({n for n in before if before[n] != after[n]}, {'stack', 'svc'})

    def test_image_settings_change_the_config_not_the_layer(self):
        # GIVEN the keys of a built set
        before = self.keys()
        # WHEN only svc's [image] section changes
        self.write(svc=SERVICE.replace('tags = ["1"]', 'tags = ["2"]\nuser = "42424:42424"'))
        # THEN no layer is rebuilt
        self.assertEqual(self.keys(), before)

    def test_an_input_file_that_does_not_exist_yet_is_reported_not_hashed(self):
        # GIVEN the tool a layer copies in is still being built elsewhere
        (self.repo / 'tool').unlink()
        recipes = load_recipes(self.repo / 'images', self.repo, self.env)
        # THEN the layers on it name the missing file, the others can still be keyed
        self.assertEqual(recipes['svc'].missing_inputs(), [self.repo / 'tool'])
        self.assertEqual(recipes['other'].missing_inputs(), [])
        self.assertEqual(len(recipes['other'].key), 64)

    def assertRecipeError(self, message: str) -> None:
        with self.assertRaises(RecipeError) as caught:
            load_recipes(self.repo / 'images', self.repo, self.env)
        self.assertEqual(str(caught.exception), message)

    def test_mistakes_name_the_recipe_and_the_fix(self):
        self.write(other='from = "base"\npackages = ["memcached"]\n')
        self.assertRecipeError(
            "[other.toml] unknown keys ['packages']; allowed: ['bootstrap', 'debian', 'files', 'from', 'image', 'pip', 'release', 'releases', 'run']")
        self.write(other='from = "nothing"\n')
        self.assertRecipeError('[other.toml] from = "nothing" names no recipe; add images/nothing.toml')
        self.write(other='debian = ["memcached"]\n')
        self.assertRecipeError(
            '[other.toml] needs exactly one of `from` (a parent recipe) or `bootstrap` (a Debian suite)')
        self.write(other='from = "base"\n[image]\nname = "svc"\ntags = ["1"]\n')
        self.assertRecipeError('[svc.toml] stackwright.local/svc:1 is also produced by other.toml; give one of them another tag')

    def test_a_cycle_is_refused(self):
        self.write(base='from = "other"\n', other='from = "base"\n')
        with self.assertRaises(RecipeError) as caught:
            load_recipes(self.repo / 'images', self.repo, self.env)
        self.assertIn('`from` forms a cycle', str(caught.exception))

    def test_an_unset_variable_names_the_script_that_sets_it(self):
        self.env = {}
        self.assertRecipeError('[stack.toml] "${TOOL}" uses ${TOOL}, which is not set; scripts/images/build.sh sets it')


if __name__ == '__main__':
    unittest.main()
