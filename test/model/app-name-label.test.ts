import { App } from 'cdk8s';
import { MariaDB } from '../../constructs/infra';
import { Cloud } from '../../lib/model';
import { synthObjects } from '../../lib/testing';
import { TinyService } from '../support/tiny-service';

/** A subclass, as a user writes to change a default: the class name is no longer `MariaDB`. */
class TunedMariaDB extends MariaDB {}

/** The label of every object of service `service`. */
function appNames(cloud: Cloud, service: string): string[] {
  const objects = synthObjects(cloud).filter(
    (o) => o.metadata.annotations?.['stackwright.io/service'] === service,
  );
  return [...new Set(objects.map((o) => o.metadata.labels?.['app.kubernetes.io/name'] as string))];
}

describe('the app.kubernetes.io/name label', () => {
  test('is the name the service declares, whatever the class is called', () => {
    // GIVEN
    const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
    new TunedMariaDB(cloud, 'db', { replicas: 1 });
    // WHEN / THEN
    expect(appNames(cloud, 'db')).toEqual(['mariadb']);
  });

  test('defaults to the service name for a service that declares none', () => {
    // GIVEN
    const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
    new TinyService(cloud, 'billing');
    // WHEN / THEN
    expect(appNames(cloud, 'billing')).toEqual(['billing']);
  });
});
