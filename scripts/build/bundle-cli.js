#!/usr/bin/env node
// Bundles the `stackwright` CLI into one file, dist-lib/stackwright-cli.js, which bin/stackwright.js
// runs when it exists (`npm run build` writes it after tsc). One file instead of ~170 modules
// saves the module resolution; the bigger win is @kubernetes/client-node: as a package it loads
// ~960 ES modules (about 1 s of CPU before the first API request), bundled and tree-shaken to the
// KubeConfig the CLI uses it costs ~0.1 s. Commands stay lazy inside the bundle: esbuild keeps each
// `import()` as a deferred initialiser, so `--help` and `graph` never run the Kubernetes client.
'use strict';
const path = require('path');
const esbuild = require('esbuild');

const root = path.join(__dirname, '..', '..');

// lib/runtime/kube/client-node.ts reaches the ESM-only client through createRequire so jest can
// load it; a bundler cannot follow that. In the bundle, a static import of the one export the CLI
// needs stands in for it.
const clientNodeShim = {
  name: 'client-node-static-import',
  setup(build) {
    build.onLoad({ filter: /[\\/]lib[\\/]runtime[\\/]kube[\\/]client-node\.ts$/ }, () => ({
      contents:
        "import { KubeConfig } from '@kubernetes/client-node';\n" +
        'export function loadClientNode() { return { KubeConfig }; }\n',
      loader: 'ts',
      resolveDir: path.join(root, 'lib', 'runtime', 'kube'),
    }));
  },
};

esbuild
  .build({
    entryPoints: [path.join(root, 'lib', 'cli', 'main.ts')],
    outfile: path.join(root, 'dist-lib', 'stackwright-cli.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [clientNodeShim],
  })
  .catch(() => process.exit(1));
