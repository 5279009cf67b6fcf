"""Unit tests of recipes built per OpenStack release (`releases`, `${RELEASE}`; see docs/images.md)."""

import re
import tempfile
import unittest
from pathlib import Path

from imagelib.build import Cache
from imagelib.recipe import RecipeError, load_recipes, select

REPO = Path(__file__).resolve().parents[3]
BASE = 'bootstrap = "bookworm"\ndebian = ["ca-certificates"]\n'
# The shape of images/openstack.toml and the images on it.
STACK = 'from = "base"\nreleases = ["2025.1", "2024.2"]\n[pip]\nlock = "python/x-${RELEASE}.lock"\nrequirements = ["svc"]\n'
SERVICE = 'from = "stack"\nreleases = ["2024.2", "2025.1"]\nrun = ["true"]\n[image]\nname = "svc"\ntags = ["${RELEASE}"]\n'
INFRA = 'from = "base"\ndebian = ["memcached"]\n[image]\nname = "memcached"\ntags = ["1.6"]\n'


class ReleasesTest(unittest.TestCase):
    def setUp(self):
        self.repo = Path(tempfile.mkdtemp())
        (self.repo / 'images').mkdir()
        (self.repo / 'python').mkdir()
        (self.repo / 'python/x-2024.2.lock').write_text('svc==26\n')
        (self.repo / 'python/x-2025.1.lock').write_text('svc==27\n')
        self.write(base=BASE, stack=STACK, svc=SERVICE, infra=INFRA)

    def write(self, **recipes: str) -> None:
        for name, text in recipes.items():
            (self.repo / 'images' / f'{name}.toml').write_text(text)

    def load(self):
        return load_recipes(self.repo / 'images', self.repo, {})

    def keys(self) -> dict[str, str]:
        return {name: r.key for name, r in self.load().items()}

    def assertRecipeError(self, message: str) -> None:
        with self.assertRaises(RecipeError) as caught:
            self.load()
        self.assertEqual(str(caught.exception), message)

    def test_a_recipe_with_releases_is_one_layer_per_release_with_its_lock_and_tag(self):
        # WHEN recipes with releases are loaded
        recipes = self.load()
        # THEN each release is a layer of its own, oldest first, with ${RELEASE} resolved
        self.assertEqual(list(recipes), ['base', 'infra', 'stack@2024.2', 'stack@2025.1', 'svc@2024.2', 'svc@2025.1'])
        self.assertEqual(recipes['stack@2024.2'].pip_lock, self.repo / 'python/x-2024.2.lock')
        self.assertEqual(recipes['stack@2025.1'].pip_lock, self.repo / 'python/x-2025.1.lock')
        self.assertEqual(recipes['svc@2024.2'].image.refs, ['stackwright.local/svc:2024.2'])
        self.assertEqual(recipes['svc@2025.1'].image.refs, ['stackwright.local/svc:2025.1'])
        # AND a release's image stands on the same release's layer, on the one shared bottom layer
        self.assertEqual([r.name for r in recipes['svc@2024.2'].chain], ['base', 'stack@2024.2', 'svc@2024.2'])
        self.assertIs(recipes['svc@2024.2'].chain[0], recipes['svc@2025.1'].chain[0])

    def test_the_release_layers_differ_in_their_keys_and_the_shared_layers_have_one(self):
        recipes = self.load()
        # THEN the layer installing from each release's lock, and those above it, have a key per release
        self.assertNotEqual(recipes['stack@2024.2'].key, recipes['stack@2025.1'].key)
        self.assertNotEqual(recipes['svc@2024.2'].key, recipes['svc@2025.1'].key)
        # AND so their cache directories differ, under the recipe's file name
        cache = Cache(self.repo / 'cache')
        dirs = {cache.layer_dir(recipes[n]).name for n in ('stack@2024.2', 'stack@2025.1')}
        self.assertEqual(len(dirs), 2)
        self.assertTrue(all(d.startswith('stack-') for d in dirs))
        # AND the layers without releases (the bottom layer, the infrastructure) are one layer each,
        # keyed as they were before any recipe had releases
        self.write(stack=STACK.replace('releases = ["2025.1", "2024.2"]\n', '').replace('${RELEASE}', '2025.1'),
                   svc=SERVICE.replace('releases = ["2024.2", "2025.1"]\n', '').replace('${RELEASE}', '2025.1'))
        single = self.keys()
        self.assertEqual(single['base'], recipes['base'].key)
        self.assertEqual(single['infra'], recipes['infra'].key)

    def test_a_release_layer_has_the_key_of_the_recipe_naming_that_release_itself(self):
        # GIVEN the keys of recipes that name 2025.1's lock and tag literally (as before releases)
        self.write(stack=STACK.replace('releases = ["2025.1", "2024.2"]\n', '').replace('${RELEASE}', '2025.1'),
                   svc=SERVICE.replace('releases = ["2024.2", "2025.1"]\n', '').replace('${RELEASE}', '2025.1'))
        literal = self.keys()
        # WHEN they are parameterised by release
        self.write(stack=STACK, svc=SERVICE)
        keys = self.keys()
        # THEN the 2025.1 layers keep their keys: the cache built before is used as it is
        self.assertEqual(keys['stack@2025.1'], literal['stack'])
        self.assertEqual(keys['svc@2025.1'], literal['svc'])

    def test_a_release_changed_lock_rebuilds_that_release_only(self):
        before = self.keys()
        (self.repo / 'python/x-2024.2.lock').write_text('svc==26.1\n')
        after = self.keys()
        self.assertEqual({n for n in before if before[n] != after[n]}, {'stack@2024.2', 'svc@2024.2'})

    def test_a_recipe_without_releases_on_one_with_releases_names_the_release(self):
        # GIVEN a single image on the 2025.1 layer (as tempest is)
        self.write(pinned='from = "stack@2025.1"\n[image]\nname = "pinned"\ntags = ["2025.1"]\n')
        recipes = self.load()
        self.assertEqual([r.name for r in recipes['pinned'].chain], ['base', 'stack@2025.1', 'pinned'])
        self.assertEqual(recipes['pinned'].chain[1].key, recipes['stack@2025.1'].key)
        # WHEN it names the recipe without a release
        self.write(pinned='from = "stack"\n')
        # THEN the error says how to choose
        self.assertRecipeError('[pinned.toml] from = "stack" is built for 2024.2, 2025.1: name one '
                               '(from = "stack@2025.1") or give this recipe `releases`')
        self.write(pinned='from = "stack@2023.1"\n')
        self.assertRecipeError('[pinned.toml] from = "stack@2023.1": stack.toml is built for 2024.2, 2025.1, not 2023.1')

    def test_mistakes_name_the_recipe_and_the_fix(self):
        self.write(svc=SERVICE.replace('"2024.2", "2025.1"', '"2024.1", "2025.1"'))
        self.assertRecipeError('[svc.toml] is built for 2024.1, but stack.toml is not; add "2024.1" to its releases')
        self.write(svc=SERVICE.replace('releases = ["2024.2", "2025.1"]\n', ''))
        self.assertRecipeError('[svc.toml] uses ${RELEASE} or [release."..."] but has no `releases`; add releases = ["2025.1", ...]')
        self.write(svc=SERVICE.replace('"2024.2", "2025.1"', '"epoxy"'))
        self.assertRecipeError('[svc.toml] releases must be distinct OpenStack release numbers like "2025.1", got [\'epoxy\']')
        self.write(svc=SERVICE + '[release."2023.1"]\ndebian = ["x"]\n')
        self.assertRecipeError('[svc.toml] [release."..."] tables must be named by one of the releases '
                               "['2024.2', '2025.1'], got ['2023.1']")
        self.write(svc=SERVICE + '[release."2024.2"]\nrun = ["x"]\n')
        self.assertRecipeError('[svc.toml] [release."2024.2"] may only add [\'debian\'], got [\'run\']')
        self.write(svc=SERVICE.replace('tags = ["${RELEASE}"]', 'tags = ["latest"]'))
        self.assertRecipeError('[svc.toml] stackwright.local/svc:latest is also produced by svc.toml (2024.2); '
                               'give one of them another tag (tags = ["${RELEASE}"])')

    def test_a_release_table_adds_packages_to_that_release_only(self):
        # GIVEN the keys without additions
        before = self.keys()
        # WHEN 2024.2 needs a Debian package 2025.1 does not (as 2024.2's netifaces)
        self.write(stack=STACK.replace('from = "base"\n', 'from = "base"\ndebian = ["python3"]\n'))
        plain = self.keys()
        self.write(stack=STACK.replace('from = "base"\n', 'from = "base"\ndebian = ["python3"]\n')
                   + '[release."2024.2"]\ndebian = ["python3-netifaces"]\n')
        recipes = self.load()
        # THEN that release's layer installs it after the recipe's own, and only its keys change
        self.assertEqual(recipes['stack@2024.2'].debian, ('python3', 'python3-netifaces'))
        self.assertEqual(recipes['stack@2025.1'].debian, ('python3',))
        after = {n: r.key for n, r in recipes.items()}
        self.assertEqual({n for n in plain if plain[n] != after[n]}, {'stack@2024.2', 'svc@2024.2'})
        self.assertEqual(before['base'], after['base'])

    def test_a_bare_recipe_name_means_every_release_newest_last(self):
        recipes = self.load()
        self.assertEqual([r.name for r in select(recipes, 'svc')], ['svc@2024.2', 'svc@2025.1'])
        self.assertEqual([r.name for r in select(recipes, 'svc@2024.2')], ['svc@2024.2'])
        self.assertEqual([r.name for r in select(recipes, 'infra')], ['infra'])
        self.assertEqual(select(recipes, 'nothing'), [])


class RepositoryRecipesTest(unittest.TestCase):
    """The recipes in images/: the images of both supported releases, one layer per lock."""

    def setUp(self):
        tool = Path(tempfile.mkdtemp()) / 'kubectl'
        tool.write_text('kubectl')
        self.recipes = load_recipes(REPO / 'images', REPO, {'STACKWRIGHT_KUBECTL': str(tool)})

    def test_every_supported_release_has_its_openstack_layer_from_its_lock(self):
        # GIVEN the releases the package supports (lib/graph/openstack-releases.ts)
        source = (REPO / 'lib/graph/openstack-releases.ts').read_text()
        supported = re.findall(r"'([0-9.]+)'", re.search(r'SUPPORTED_RELEASES = \[(.*?)\]', source).group(1))
        # THEN the OpenStack layer is built for each, from python/openstack-<release>.lock
        layers = select(self.recipes, 'openstack')
        self.assertEqual([r.release for r in layers], supported)
        for layer in layers:
            self.assertEqual(layer.pip_lock, REPO / f'python/openstack-{layer.release}.lock')
        self.assertEqual(len({r.key for r in layers}), len(layers))

    def test_the_upgrade_clouds_images_exist_for_both_releases_and_the_rest_once(self):
        refs = {ref for r in self.recipes.values() if r.image for ref in r.image.refs}
        # The images with a release tag a cloud of Keystone, Glance and Placement names
        # (test/e2e-real/support/real-cloud.ts): the services and the registration Jobs' client.
        for name in ('keystone', 'glance', 'placement', 'openstackclient'):
            for release in ('2024.2', '2025.1'):
                self.assertIn(f'stackwright.local/{name}:{release}', refs)
        # The infrastructure and the layers below the OpenStack ones are one layer each
        for name in ('minbase', 'mariadb', 'rabbitmq', 'memcached', 'toolbox', 'openvswitch', 'ovn', 'libvirt', 'tempest'):
            self.assertIn(name, self.recipes)
            self.assertIsNone(self.recipes[name].release)
        # Tempest is 2025.1's (pinned), on the 2025.1 OpenStack layer
        self.assertIs(self.recipes['tempest'].parent_recipe, self.recipes['openstack@2025.1'])


if __name__ == '__main__':
    unittest.main()
