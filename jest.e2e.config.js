/**
 * End-to-end tests against a real Kubernetes control plane (kube-apiserver, controller-manager,
 * scheduler, etcd, kwok-simulated nodes); see docs/test-cluster.md.
 *
 *   npx jest --config jest.e2e.config.js --runInBand
 *
 * Global setup starts the local cluster (scripts/cluster/up.sh) unless one is already running
 * or STACKWRIGHT_E2E_KUBECONFIG / KUBECONFIG_E2E points at another cluster; global teardown
 * stops it again only if setup started it (keep it with STACKWRIGHT_E2E_KEEP_CLUSTER=1).
 */

// @kubernetes/client-node 1.x and a few of its dependencies ship ES modules only. Jest's module
// loader runs CommonJS, so those packages are transpiled to CommonJS like our own TypeScript.
const esmPackages = [
  '@kubernetes/client-node',
  'openid-client',
  'oauth4webapi',
  'jose',
  'jsonpath-plus',
  'rfc4648',
];

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/e2e/**/*.e2e.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/dist-lib/'],
  globalSetup: '<rootDir>/test/e2e/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/e2e/support/global-teardown.ts',
  // Real controllers: creating objects, scheduling and rollouts take seconds, cold starts longer.
  testTimeout: 120_000,
  transform: {
    // Transpile only; the type-check is `npm test`'s (tsc over the whole tree, e2e tests included).
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
    '^.+\\.m?js$': [
      'ts-jest',
      {
        // Transpile only (no type check) for third-party JavaScript.
        tsconfig: {
          allowJs: true,
          isolatedModules: true,
          module: 'commonjs',
          target: 'ES2022',
          esModuleInterop: true,
        },
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
};
