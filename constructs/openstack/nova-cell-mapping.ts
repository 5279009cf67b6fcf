import { Construct } from 'constructs';
import { SchedulingKey } from '../../lib/scheduling';
import { JobComponent } from '../common/job-component';
import { envFromSecret } from '../common/secret-ref';
import { ServiceDatabase } from '../common/service-database';
import { shellWord } from '../common/shell-word';
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
 * The URLs reach `nova-manage` composed from the Secrets at run time, never written in the YAML.
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
      { name: 'CELL0_DATABASE', value: cell0Database.connectionUrl('CELL0_DB_PASSWORD') },
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
 * its URLs updated, so a changed password or host reaches the mappings on the next deploy.
 */
function cellMappingScript(cells: readonly string[]): string {
  const lines = ['nova-manage cell_v2 map_cell0 --database_connection "$CELL0_DATABASE"'];
  for (const name of cells) {
    const cell = shellWord(name, 'cell name');
    const upper = cell.toUpperCase();
    const urls = `--database_connection "$${upper}_DATABASE" --transport-url "$${upper}_TRANSPORT"`;
    lines.push(
      `uuid=$(nova-manage cell_v2 list_cells | awk -F'|' '{ gsub(/ /, "", $2); gsub(/ /, "", $3) } $2 == "${cell}" { print $3 }')`,
      `if [ -n "$uuid" ]; then nova-manage cell_v2 update_cell --cell_uuid "$uuid" --name ${cell} ${urls}; ` +
        `else nova-manage cell_v2 create_cell --name ${cell} ${urls} --verbose; fi`,
    );
  }
  return lines.join('\n');
}
