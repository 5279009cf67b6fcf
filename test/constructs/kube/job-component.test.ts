import { App } from 'cdk8s';
import { JobComponent, JobComponentProps, ServiceDatabase } from '../../../constructs';
import { MariaDB } from '../../../constructs/infra';
import { KubeObject } from '../../../lib/graph';
import { Cloud, Component, Service } from '../../../lib/model';
import { SchedulingKey } from '../../../lib/scheduling';
import { findObject, synthObjects } from '../../../lib/testing';
import { infraCloud } from '../support/compute-network-fixture';

const UPGRADE_TEMPLATE = 'stackwright.io/upgrade-template';

/** The Job of a JobComponent `example-db-sync` alone in a cloud `prod`. */
function jobOf(props: Partial<JobComponentProps> = {}): KubeObject {
  const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
  new JobComponent(cloud, 'example-db-sync', {
    operatorKey: SchedulingKey.OPERATOR_GLANCE,
    image: 'example/service:1',
    command: ['example-manage', 'db', 'sync'],
    ...props,
  });
  const jobs = synthObjects(cloud).filter((o) => o.kind === 'Job');
  expect(jobs).toHaveLength(1);
  return jobs[0];
}

describe('JobComponent upgradeTemplate', () => {
  test('marks the Job with the upgrade-template annotation without changing its name', () => {
    // GIVEN the same Job with and without the role
    const plain = jobOf();
    const marked = jobOf({ upgradeTemplate: 'schema-sync' });

    // THEN only the marked one carries it, and both have the name that hashes the spec
    expect(marked.metadata.annotations?.[UPGRADE_TEMPLATE]).toBe('schema-sync');
    expect(plain.metadata.annotations?.[UPGRADE_TEMPLATE]).toBeUndefined();
    expect(marked.metadata.name).toBe(plain.metadata.name);
    expect(marked.spec).toEqual(plain.spec);
  });

  test('a role that is not in the contract is refused naming the construct and the roles', () => {
    // WHEN / THEN
    expect(() => jobOf({ upgradeTemplate: 'snapshot' as JobComponentProps['upgradeTemplate'] })).toThrow(
      '[prod/example-db-sync] upgradeTemplate must be one of "schema-sync", "cell-schema-sync", "backup", got "snapshot"',
    );
  });
});

/** A service `example` with only its database chain. */
class ExampleService extends Service {
  readonly database: ServiceDatabase;
  constructor(scope: Cloud, database: MariaDB) {
    super(scope, 'example');
    this.database = new ServiceDatabase(this, 'db', {
      database,
      operatorKey: SchedulingKey.OPERATOR_GLANCE,
      image: 'example/service:1',
      syncCommand: ['example-manage', 'db', 'sync'],
    });
  }
  protected get entryPoints(): readonly Component[] {
    return [this.database.sync];
  }
}

describe('ServiceDatabase', () => {
  test('its schema Job is the schema-sync template; its init Job is no template', () => {
    // GIVEN a service database on the cloud's MariaDB
    const { cloud, database } = infraCloud();
    const service = new ExampleService(cloud, database);

    // WHEN
    const objects = synthObjects(cloud);
    const jobFor = (component: JobComponent) => findObject(objects, 'Job', component.job.name);

    // THEN
    expect(service.database.sync.componentName).toBe('example-db-sync');
    expect(jobFor(service.database.sync).metadata.annotations?.[UPGRADE_TEMPLATE]).toBe('schema-sync');
    expect(jobFor(service.database.init).metadata.annotations?.[UPGRADE_TEMPLATE]).toBeUndefined();
  });
});
