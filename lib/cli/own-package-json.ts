import * as fs from 'fs';
import * as path from 'path';

/** The fields of stackwright's own package.json the CLI reads (`--version`, `init`). */
export interface OwnPackageJson {
  readonly name: string;
  readonly version: string;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
}

/** Our package.json: beside dist-lib/ in the package (the bundled CLI), or up from lib/cli. */
export function ownPackageJson(): OwnPackageJson {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const json = JSON.parse(fs.readFileSync(file, 'utf8')) as OwnPackageJson;
      if (json.name === 'stackwright') return json;
    }
    if (path.dirname(dir) === dir) throw new Error(`no package.json of stackwright above ${__dirname}`);
  }
}
