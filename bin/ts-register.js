// Runs TypeScript sources directly: `node --require ./bin/ts-register.js stacks/main.ts`.
// cdk8s.yaml's `app` preloads it so `npx cdk8s synth` always synthesises the code just saved,
// without a build. Transpile-only (esbuild, no type-check: `npm run build`, lint and the tests do
// that). Each file's output is cached on disk by content hash, so an edit re-transpiles only the
// file that changed and an unchanged tree starts nearly as fast as the compiled JavaScript.
// Each transpiled file carries an inline source map; run with `node --enable-source-maps` for stack
// traces in TypeScript lines. Not on by default: Node then parses every loaded package's map too
// (cdk8s-plus alone ships ~6 MB of them), which cost 0.3 s and 28 MB per synth of the reference cloud.
// Plain JavaScript on purpose: it is what makes TypeScript loadable, so it cannot be TypeScript.
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

// Loaded on the first cache miss only: a warm run never starts esbuild's service process.
let esbuild;
const esbuildVersion = require('esbuild/package.json').version;

const cacheDir =
  process.env.STACKWRIGHT_TRANSPILE_CACHE ||
  path.join(os.homedir(), '.cache', 'stackwright', 'transpile', `esbuild-${esbuildVersion}`);

// What `tsc` emits with tsconfig.json: CommonJS at ES2022, `import()` turned into `require()`
// (esbuild keeps it native by default, which would resolve through the ESM loader and miss `.ts`).
const options = {
  loader: 'ts',
  format: 'cjs',
  target: 'es2022',
  supported: { 'dynamic-import': false },
  sourcemap: 'inline',
};

function transpile(source, filename) {
  const key = crypto
    .createHash('sha256')
    .update(`${JSON.stringify(options)}\0${filename}\0${source}`)
    .digest('hex');
  const cached = path.join(cacheDir, key.slice(0, 2), `${key}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    // not cached yet
  }
  esbuild = esbuild || require('esbuild');
  const { code } = esbuild.transformSync(source, { ...options, sourcefile: filename });
  try {
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    // Written under a temporary name and renamed, so a concurrent run never reads half a file.
    const temporary = `${cached}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, code);
    fs.renameSync(temporary, cached);
  } catch {
    // A read-only or full disk only costs the cache, not the run.
  }
  return code;
}

require.extensions['.ts'] = (module, filename) => {
  module._compile(transpile(fs.readFileSync(filename, 'utf8'), filename), filename);
};

// The package's own name resolves to its TypeScript sources, so code written as a user writes it
// (`import { Cloud } from 'stackwright'`, the examples) runs from source too. The subpaths are
// read from package.json's `exports` (`./dist-lib/lib/runtime/index.js` -> `lib/runtime/index.ts`).
const Module = require('module');
const packageRoot = path.resolve(__dirname, '..');
const manifest = require(path.join(packageRoot, 'package.json'));
const ownEntries = new Map(
  Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === 'object' && target.default.startsWith('./dist-lib/'))
    .map(([subpath, target]) => [
      path.posix.join(manifest.name, subpath),
      path.join(packageRoot, target.default.slice('./dist-lib/'.length).replace(/\.js$/, '.ts')),
    ]),
);
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, ownEntries.get(request) ?? request, ...rest);
};
