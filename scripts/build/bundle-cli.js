#!/usr/bin/env node
// Bundles the `stackwright` CLI for bin/stackwright.js, which runs it when it exists (`npm run
// build` writes it after tsc):
// - dist-lib/stackwright-cli.js: the CLI in one file instead of ~170 modules;
// - dist-lib/stackwright-kube-client.js: the part of @kubernetes/client-node the CLI uses
//   (KubeConfig), tree-shaken into one CommonJS file. As a package the client loads ~960 ES modules,
//   about 1 s of CPU before the first API request; bundled, a fraction of that. It is a file of its
//   own, required only when a command opens the cluster, so `--help` and `graph` do not even parse it.
'use strict';
const path = require('path');
const esbuild = require('esbuild');

const root = path.join(__dirname, '..', '..');

const KUBE_CLIENT = 'stackwright-kube-client.js';

// lib/runtime/kube/client-node.ts reaches the ESM-only client through createRequire so jest can
// load it; in the bundle it requires the kube-client file next to it instead, when first called.
const clientNodeFromKubeClientFile = {
  name: 'client-node-from-kube-client-file',
  setup(build) {
    build.onLoad({ filter: /[\\/]lib[\\/]runtime[\\/]kube[\\/]client-node\.ts$/ }, () => ({
      contents: `export function loadClientNode() { return require('./${KUBE_CLIENT}'); }\n`,
      loader: 'ts',
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
};

Promise.all([
  esbuild.build({
    ...common,
    stdin: {
      contents: "export { KubeConfig } from '@kubernetes/client-node';\n",
      resolveDir: root,
      loader: 'ts',
    },
    outfile: path.join(root, 'dist-lib', KUBE_CLIENT),
    // tr46 and whatwg-url mean the npm package (their dependency) by `require('punycode')`; Node
    // resolves that name to its deprecated built-in first and, from Node 21, warns (DEP0040) on
    // every command. Bundled, the name means what they depend on.
    alias: { punycode: 'punycode/' },
  }),
  esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'lib', 'cli', 'main.ts')],
    outfile: path.join(root, 'dist-lib', 'stackwright-cli.js'),
    sourcemap: true,
    external: [`./${KUBE_CLIENT}`],
    plugins: [clientNodeFromKubeClientFile],
  }),
]).catch(() => process.exit(1));
