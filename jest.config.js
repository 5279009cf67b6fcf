/** Unit and snapshot tests. End-to-end tests against a live cluster live in jest.e2e.config.js. */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    '\\.e2e\\.test\\.ts$',
    '\\.real\\.test\\.ts$',
    '\\.fuzz\\.test\\.ts$',
  ],
  // `import … from 'stackwright'` (as the examples are written) runs the source, as in tsconfig's paths.
  moduleNameMapper: {
    '^stackwright$': '<rootDir>/index.ts',
    '^stackwright/(runtime|pulumi|testing)$': '<rootDir>/lib/$1/index.ts',
    '^stackwright/constructs$': '<rootDir>/constructs/index.ts',
  },
  // Transpile only (tsconfig's isolatedModules, as esbuild in bin/ts-register.js needs too): `npm test`
  // type-checks the whole tree once with tsc first (package.json), 3-4x cheaper than ts-jest
  // type-checking every test file's imports again.
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
};
