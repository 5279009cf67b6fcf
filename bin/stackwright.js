#!/usr/bin/env node
// The `stackwright` command. It runs the bundled CLI that `npm run build` writes
// (dist-lib/stackwright-cli.js: one file, the Kubernetes client tree-shaken, commands loaded
// only when they run), so every invocation starts in a fraction of a second. In a checkout that
// has not been built it runs the TypeScript sources through bin/ts-register.js instead.
'use strict';
const path = require('path');
const fs = require('fs');

const root = path.join(__dirname, '..');
const bundle = path.join(root, 'dist-lib', 'stackwright-cli.js');
const source = path.join(root, 'lib', 'cli', 'main.ts');
let entry = bundle;
if (!fs.existsSync(bundle)) {
  if (!fs.existsSync(source)) {
    process.stderr.write(`stackwright: ${bundle} is missing; run \`npm run build\` first\n`);
    process.exit(2);
  }
  require('./ts-register');
  userlandPunycode();
  entry = source;
}
// Unbundled, the Kubernetes client's tr46 and whatwg-url reach Node's deprecated built-in punycode
// (DEP0040 on stderr from Node 21) where they mean their npm dependency: give them that, as the
// bundle does (scripts/build/bundle-cli.js).
function userlandPunycode() {
  const Module = require('module');
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return resolve.call(this, request === 'punycode' ? 'punycode/' : request, ...rest);
  };
}
// `stackwright graph | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
require(entry)
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error) => {
    process.stderr.write(`stackwright: ${error && error.stack ? error.stack : error}\n`);
    process.exitCode = 1;
  });
