// Pulumi.yaml's `main`: runs stacks/pulumi-main.ts as it is on disk, through the same transpile-only
// loader as `npx cdk8s synth` (bin/ts-register.js), so `pulumi up` deploys the code just saved
// without `npm run build`. Type-checking stays in `npm run build`, lint and the tests.
// Plain JavaScript on purpose: the Node.js language host loads it before any TypeScript can be.
'use strict';
require('./ts-register');
module.exports = require('../stacks/pulumi-main.ts');
