#!/usr/bin/env node
// The `stackwright` command. It runs the compiled CLI (no TypeScript at run time, so every
// invocation starts in a fraction of a second); build it with `npm run build`.
'use strict';
const path = require('path');
const fs = require('fs');

const entry = path.join(__dirname, '..', 'dist-lib', 'lib', 'cli', 'main.js');
if (!fs.existsSync(entry)) {
  process.stderr.write(
    `stackwright: ${path.relative(process.cwd(), entry)} is missing; run \`npm run build\` first\n`,
  );
  process.exit(2);
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
