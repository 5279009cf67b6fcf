/**
 * End-to-end tests on the test cluster's real node (containerd + kubelet on this machine, next to
 * the kwok nodes; see docs/test-cluster.md "The real node"): containers really run, probes really
 * probe, Galera and RabbitMQ really form clusters, servers boot (compute.real.test.ts), and a cloud
 * at 2024.2 upgrades to 2025.1 under load without a failed request (upgrade.real.test.ts).
 *
 *   npm run test:e2e:real
 *   npm run test:e2e:compute     the server boot alone
 *   npm run test:e2e:upgrade     the release upgrade alone
 *
 * Global setup starts the cluster with `up.sh --real` (root) unless STACKWRIGHT_E2E_KUBECONFIG
 * points at a cluster; teardown stops it only if setup started it (STACKWRIGHT_E2E_KEEP_CLUSTER=1
 * keeps it). The local images must be imported first (scripts/images/import.sh).
 */
const e2e = require('./jest.e2e.config.js');

module.exports = {
  ...e2e,
  testMatch: ['<rootDir>/test/e2e-real/**/*.real.test.ts'],
  globalSetup: '<rootDir>/test/e2e-real/support/global-setup.ts',
  // A cloud deploys in minutes on two cores; single checks (exec, a client pod) take seconds.
  testTimeout: 10 * 60_000,
};
