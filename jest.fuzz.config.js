/**
 * The bounded fuzz run (`npm run test:fuzz`, docs/validation.md): property-based tests with a fixed
 * seed and a fixed number of runs; STACKWRIGHT_FUZZ_SEED and STACKWRIGHT_FUZZ_RUNS make it longer.
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  testMatch: ['**/*.fuzz.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
};
