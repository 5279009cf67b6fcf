import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { SchedulingKey } from '../../lib/scheduling';
import { DatabaseEndpoint } from '../openstack-kit/endpoints';
import { ServiceDatabase, ServiceDatabaseProps } from '../openstack-kit/service-database';

/** Which of Nova's databases a chain builds. */
export interface NovaDatabaseProps {
  readonly database: DatabaseEndpoint;
  readonly operatorKey: SchedulingKey;
  readonly image: string;
  /** `nova_api`, `nova_cell0`, `nova_cell1`, … */
  readonly databaseName: string;
  /**
   * The API database (`[api_database] connection`, migrated by `nova-manage api_db sync`) rather
   * than a cell's (`[database] connection`, `nova-manage db sync --local_cell`).
   * @default false
   */
  readonly api?: boolean;
  /** More environment for the sync Job (see ServiceDatabaseProps.syncEnv). @default - none */
  readonly syncEnv?: k8s.EnvVar[];
  /** See ServiceDatabaseProps.upgradeTemplate. @default 'schema-sync' */
  readonly upgradeTemplate?: ServiceDatabaseProps['upgradeTemplate'];
}

/** The database chain of one of Nova's databases: the API database, cell0 or a cell's. */
export function novaDatabase(scope: Construct, id: string, props: NovaDatabaseProps): ServiceDatabase {
  const { api = false, ...chain } = props;
  return new ServiceDatabase(scope, id, {
    ...chain,
    syncCommand: api ? ['nova-manage', 'api_db', 'sync'] : ['nova-manage', 'db', 'sync', '--local_cell'],
    connectionOption: api ? { section: 'api_database', option: 'connection' } : undefined,
  });
}
