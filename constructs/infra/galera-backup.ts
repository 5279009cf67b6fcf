import { BACKUP_VERIFIED_MARKER } from './galera-backup-retention';
import { MARIADB_CLIENT_CNF } from './galera-scripts';

/** Suffix of the scratch database a backup is restored into to be checked (dropped afterwards). */
const RESTORE_CHECK_SUFFIX = '_restorecheck';

/**
 * The verified backup the upgrade plan runs before its first schema step (docs/upgrades.md), as one
 * bash script: the one definition that the backup Job and `test/infra-local/backup.sh` both run.
 * Arguments: the databases to back up (none: every database but the system ones, or those named as
 * arguments). Environment: `BACKUP_DIR` (where the dumps go, required) and `BACKUP_CLIENT_CNF`
 * (client options with the credentials, default {@link MARIADB_CLIENT_CNF}).
 *
 * Per database: a logical dump (`mariadb-dump --single-transaction`: one consistent InnoDB snapshot,
 * no table locks, so Galera keeps serving), restored into `<db>` + {@link RESTORE_CHECK_SUFFIX}, and
 * the restored copy dumped again: the two dumps must be identical (comment lines aside), so the
 * backup restores to exactly the snapshot it holds — every table, row and value — while the
 * source goes on taking writes (a comparison with the live source would see those writes). The
 * restored copy's tables and rows are counted for the report; the scratch database is dropped.
 * Prints one line per database (`backup: <db> bytes=… restore_ms=… tables=… rows=…
 * restore_identical`) and exits non-zero naming the database whose copy differs. Once every
 * database restored identically, it writes the marker file {@link BACKUP_VERIFIED_MARKER} into
 * `BACKUP_DIR`: what retention counts (galera-backup-retention.ts).
 */
export function galeraBackupScript(): string {
  return [
    'set -euo pipefail',
    `cnf=\${BACKUP_CLIENT_CNF:-${MARIADB_CLIENT_CNF}}`,
    'dir=${BACKUP_DIR:?set BACKUP_DIR to where the dumps go}',
    'q() { mariadb --defaults-file="$cnf" -N -s -e "$1"; }',
    'ms() { echo $(($(date +%s%N) / 1000000)); }',
    'dump_db() { mariadb-dump --defaults-file="$cnf" --single-transaction --quick --routines --triggers --events --hex-blob --skip-dump-date "$1"; }',
    'mkdir -p "$dir"',
    'databases=("$@")',
    'if [ ${#databases[@]} -eq 0 ]; then',
    '  mapfile -t databases < <(q "SELECT schema_name FROM information_schema.schemata' +
      " WHERE schema_name NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys')" +
      ` AND schema_name NOT LIKE '%${RESTORE_CHECK_SUFFIX.replace('_', '\\\\_')}' ORDER BY 1")`,
    'fi',
    'for db in "${databases[@]}"; do',
    `  scratch=\${db}${RESTORE_CHECK_SUFFIX}`,
    '  dump=$dir/$db.sql',
    '  dump_db "$db" >"$dump"',
    '  q "DROP DATABASE IF EXISTS \\`$scratch\\`; CREATE DATABASE \\`$scratch\\`"',
    '  start=$(ms)',
    '  mariadb --defaults-file="$cnf" "$scratch" <"$dump"',
    '  restore_ms=$(($(ms) - start))',
    '  if ! cmp -s <(grep -v "^-- " "$dump") <(dump_db "$scratch" | grep -v "^-- "); then',
    '    echo "backup: $db: its restored copy dumps differently from the backup: $(diff <(grep -v "^-- " "$dump") <(dump_db "$scratch" | grep -v "^-- ") | head -c 400); the dump $dump is not a usable backup" >&2',
    '    exit 1',
    '  fi',
    '  tables=0 rows=0',
    '  while read -r table; do',
    '    [ -n "$table" ] || continue',
    '    tables=$((tables + 1)) rows=$((rows + $(q "SELECT COUNT(*) FROM \\`$scratch\\`.\\`$table\\`")))',
    `  done < <(q "SELECT table_name FROM information_schema.tables WHERE table_schema = '$scratch' AND table_type = 'BASE TABLE' ORDER BY 1")`,
    '  q "DROP DATABASE \\`$scratch\\`"',
    '  echo "backup: $db bytes=$(wc -c <"$dump") restore_ms=$restore_ms tables=$tables rows=$rows restore_identical"',
    'done',
    `touch "$dir/${BACKUP_VERIFIED_MARKER}"`,
    '',
  ].join('\n');
}
