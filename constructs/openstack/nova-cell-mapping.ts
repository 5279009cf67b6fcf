import { Construct } from 'constructs';
import { SchedulingKey } from '../../lib/scheduling';
import { JobComponent } from '../kube/job-component';
import { envFromSecret } from '../kube/secret-ref';
import { ServiceDatabase } from '../openstack-kit/service-database';
import { shellWord } from '../kube/shell-word';
import type { NovaCell } from './nova-cell';

export interface CellMappingProps {
  readonly operatorKey: SchedulingKey;
  readonly image: string;
  readonly apiDatabase: ServiceDatabase;
  readonly cell0Database: ServiceDatabase;
  readonly cells: readonly NovaCell[];
}

/**
 * The Job that records cell0 and every cell (database and transport URL) in Nova's API database.
 * The URLs are composed from the Secrets at run time and reach `nova-manage` as its configuration
 * (`OS_DATABASE__CONNECTION`, `OS_DEFAULT__TRANSPORT_URL` in its environment), never on its
 * command line, where any process of the node could read the passwords in them.
 */
export function cellMappingJob(scope: Construct, id: string, props: CellMappingProps): JobComponent {
  const { apiDatabase, cell0Database, cells } = props;
  return new JobComponent(scope, id, {
    operatorKey: props.operatorKey,
    image: props.image,
    command: ['/bin/sh', '-ec', cellMappingScript(cells.map((c) => c.name))],
    extraEnv: [
      ...apiDatabase.connectionEnv('API_DB_PASSWORD'),
      envFromSecret('CELL0_DB_PASSWORD', cell0Database.password),
      // map_cell0 takes cell0's URL only as an option, or derives it from [database] connection
      // by adding `_cell0` to the database's name: it gets the URL it derives cell0's from.
      {
        name: 'CELL0_DERIVED_FROM',
        value: cell0Database.connectionUrl(
          'CELL0_DB_PASSWORD',
          cell0Database.databaseName.replace(/_cell0$/, ''),
        ),
      },
      ...cells.flatMap((c) => {
        const upper = c.name.toUpperCase();
        return [
          envFromSecret(`${upper}_DB_PASSWORD`, c.database.password),
          { name: `${upper}_DATABASE`, value: c.database.connectionUrl(`${upper}_DB_PASSWORD`) },
          envFromSecret(`${upper}_MQ_PASSWORD`, c.messaging.password),
          { name: `${upper}_TRANSPORT`, value: c.messaging.transportUrl(`${upper}_MQ_PASSWORD`) },
        ];
      }),
    ],
  });
}

/**
 * Records cell0 and every cell in the API database, idempotently: an existing cell (by name) gets
 * its URLs updated, so a changed password or host reaches the mappings on the next deploy. nova-manage
 * reads a URL it is not given as an option from its configuration, which oslo.config also takes
 * from the environment: each command gets the cell's URLs as environment variables of its own.
 */
function cellMappingScript(cells: readonly string[]): string {
  const lines = ['OS_DATABASE__CONNECTION="$CELL0_DERIVED_FROM" nova-manage cell_v2 map_cell0'];
  for (const name of cells) {
    const cell = shellWord(name, 'cell name');
    const upper = cell.toUpperCase();
    const urls = `OS_DATABASE__CONNECTION="$${upper}_DATABASE" OS_DEFAULT__TRANSPORT_URL="$${upper}_TRANSPORT"`;
    lines.push(
      `uuid=$(nova-manage cell_v2 list_cells | awk -F'|' '{ gsub(/ /, "", $2); gsub(/ /, "", $3) } $2 == "${cell}" { print $3 }')`,
      `if [ -n "$uuid" ]; then ${urls} nova-manage cell_v2 update_cell --cell_uuid "$uuid" --name ${cell}; ` +
        `else ${urls} nova-manage cell_v2 create_cell --name ${cell} --verbose; fi`,
    );
  }
  return lines.join('\n');
}
