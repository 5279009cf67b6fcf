// README.md, TypeScript block 1, written by test/docs/code-blocks.test.ts (UPDATE_DOCS=1): edit the doc.
import { App } from 'cdk8s';
import { Cloud, Keystone, MariaDB, Memcached } from 'stackwright';

const app = new App();
const cloud = new Cloud(app, 'prod', { namespace: 'openstack', release: '2025.1' });

const database = new MariaDB(cloud, 'db', { replicas: 3 });
const cache = new Memcached(cloud, 'memcached');
new Keystone(cloud, 'keystone', {
  database,
  cache,
  config: { token: { expiration: 7200 } }, // typed keystone.conf overrides, unknown options rejected
});

app.synth(); // dist/prod.k8s.yaml
export {};
