// docs/images.md, TypeScript block 1, written by test/docs/code-blocks.test.ts (UPDATE_DOCS=1): edit the doc.
import { App } from 'cdk8s';
import { Cloud, MariaDB, Memcached, RabbitMQ } from 'stackwright';
declare const app: App;
// ---- the block
const cloud = new Cloud(app, 'e2e', {
  namespace: 'openstack',
  imageRegistry: 'stackwright.local', // keystone, glance, placement, nova, neutron, openstackclient :2025.1 and :2024.2
  toolboxImage: 'stackwright.local/toolbox:1.36',
});
const database = new MariaDB(cloud, 'db', { image: 'stackwright.local/mariadb:10.11' });
const messaging = new RabbitMQ(cloud, 'mq', { image: 'stackwright.local/rabbitmq:3.10' });
const cache = new Memcached(cloud, 'memcached', { image: 'stackwright.local/memcached:1.6' });
export {};
