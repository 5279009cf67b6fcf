import { readFileSync } from 'fs';
import { join } from 'path';

interface PackageJson {
  readonly types: string;
  readonly exports: Record<string, string | { types: string; default: string }>;
  readonly typesVersions: { '*': Record<string, string[]> };
}

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as PackageJson;

describe('package.json', () => {
  const subpaths = Object.entries(pkg.exports).filter(
    (entry): entry is [string, { types: string; default: string }] =>
      typeof entry[1] === 'object' && entry[0] !== '.',
  );

  test('every subpath resolves to the same types under node10 (typesVersions) as under node16 and bundler (exports)', () => {
    // THEN
    expect(subpaths.length).toBeGreaterThan(0);
    expect(
      Object.fromEntries(subpaths.map(([subpath, target]) => [subpath.slice(2), [target.types.slice(2)]])),
    ).toEqual(pkg.typesVersions['*']);
    expect(pkg.exports['.']).toEqual({ types: `./${pkg.types}`, default: expect.any(String) });
  });
});
