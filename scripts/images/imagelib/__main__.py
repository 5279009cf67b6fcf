"""python3 -m imagelib [--repo DIR] [--cache DIR] COMMAND (run from scripts/images; build.sh does)

  build [--only-ready]  build missing layers and the archive; print the archive's path
  archive               print the path of the archive the recipes describe (fails if not built)
  refs                  print every image reference, one per line
  images [NAME...]      print the names of the images (of the NAMEs: keystone means every release)
  keys                  print each layer's key and whether it is cached
  rootfs NAME           print the layer directories of image NAME, top first (for overlay mounts)
  env NAME              print the environment image NAME's config sets, one VAR=value a line
  layer NAME            (internal) build one layer; run by `build` inside unshare

A recipe with `releases` is one layer per release, named RECIPE@RELEASE (keystone@2024.2); where
one image is meant (rootfs, env), a bare RECIPE means its newest release.
"""

import argparse
import os
import sys
from pathlib import Path

from .build import Cache, LayerBuild, build_all, log
from .recipe import RecipeError, load_recipes, select


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog='imagelib', description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = Path(__file__).resolve().parent
    parser.add_argument('--repo', type=Path, default=here.parents[2])
    parser.add_argument('--cache', type=Path,
                        default=Path(os.environ.get('STACKWRIGHT_IMAGES_CACHE', Path.home() / '.cache/stackwright/images')))
    sub = parser.add_subparsers(dest='command', required=True)
    build = sub.add_parser('build')
    build.add_argument('--only-ready', action='store_true')
    sub.add_parser('archive')
    sub.add_parser('refs')
    sub.add_parser('images').add_argument('names', nargs='*')
    sub.add_parser('keys')
    for name in ('rootfs', 'env', 'layer'):
        sub.add_parser(name).add_argument('name')
    args = parser.parse_args(argv)

    try:
        recipes = load_recipes(args.repo / 'images', args.repo)
    except RecipeError as e:
        log(f'ERROR: {e}')
        return 2
    cache = Cache(args.cache)
    images = [r for r in recipes.values() if r.image]
    if args.command == 'build':
        out = build_all(recipes, cache, args.repo, only_ready=args.only_ready)
        if out:
            print(out)
    elif args.command == 'archive':
        out = cache.archive(images)
        if not out.exists():
            log(f'ERROR: {out} is not built; run bash scripts/images/build.sh')
            return 1
        print(out)
    elif args.command == 'refs':
        print('\n'.join(ref for r in images for ref in r.image.refs))
    elif args.command == 'images':
        chosen = images
        if args.names:
            chosen = []
            for name in args.names:
                found = [r for r in select(recipes, name) if r.image]
                if not found:
                    log(f'ERROR: no image {name}; images: {", ".join(r.name for r in images)}')
                    return 1
                chosen += found
        print('\n'.join(r.name for r in chosen))
    elif args.command == 'keys':
        for r in recipes.values():
            state = 'missing inputs' if r.missing_inputs() else ('cached' if cache.diff_id(r) else 'to build')
            print(f'{r.name}\t{r.short_key if not r.missing_inputs() else "-"}\t{state}')
    elif args.command == 'rootfs':
        recipe = (select(recipes, args.name) or [None])[-1]
        if recipe is None or any(not cache.diff_id(r) for r in recipe.chain):
            log(f'ERROR: no built image {args.name}; run bash scripts/images/build.sh')
            return 1
        print('\n'.join(str(cache.tree(r)) for r in reversed(recipe.chain)))
    elif args.command == 'env':
        recipe = (select(recipes, args.name) or [None])[-1]
        if recipe is None or recipe.image is None:
            log(f'ERROR: no image {args.name}; images: {", ".join(r.name for r in images)}')
            return 1
        for variable in recipe.image.env:
            print(variable)
    elif args.command == 'layer':
        LayerBuild(recipes[args.name], cache).run()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
