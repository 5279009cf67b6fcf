/** Unit and snapshot tests. End-to-end tests against a live cluster live in jest.e2e.config.js. */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '\\.e2e\\.test\\.ts$', '\\.real\\.test\\.ts$'],
  // `import … from 'stackwright'` (as the examples are written) runs the source, as in tsconfig's paths.
  moduleNameMapper: {
    '^stackwright$': '<rootDir>/index.ts',
    '^stackwright/(runtime|pulumi|testing)$': '<rootDir>/lib/$1/index.ts',
    '^stackwright/constructs$': '<rootDir>/constructs/index.ts',
  },
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', isolatedModules: false }] },
};
