/**
 * The server boot on the real node (issue 22): test/e2e-real/compute.real.test.ts, with the real-node
 * suite's global setup (up.sh --real, image import).
 *
 *   npm run test:e2e:compute
 *
 * Not part of `npm run test:e2e:real` (nor of .ci/run) until it passes there reliably.
 */
const real = require('./jest.real.config.js');

module.exports = {
  ...real,
  testMatch: ['<rootDir>/test/e2e-real/compute.real.test.ts'],
};
