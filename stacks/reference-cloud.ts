import { Construct } from 'constructs';
import { Keystone, MariaDB, Memcached, RabbitMQ } from '../constructs';
import { Cloud, CloudProps } from '../lib/model';

/**
 * The reference cloud: every service Stackwright models, wired with the canonical dependency edges.
 * `cdk8s.yaml` synthesises it; users copy it as a starting point.
 */
export function referenceCloud(scope: Construct, id = 'reference', props: Partial<CloudProps> = {}): Cloud {
  const cloud = new Cloud(scope, id, { namespace: 'openstack', ...props });
  const database = new MariaDB(cloud, 'db', { replicas: 3 });
  const cache = new Memcached(cloud, 'memcached');
  const messaging = new RabbitMQ(cloud, 'mq', { replicas: 3 });
  new Keystone(cloud, 'keystone', { database, cache, messaging });
  return cloud;
}
