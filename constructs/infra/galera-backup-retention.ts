/**
 * A backup run's directory name: its start in UTC, `YYYYMMDDTHHMMSSZ` (`date -u +%Y%m%dT%H%M%SZ`),
 * so names sort by time. As a glob: anything else on the volume (`lost+found`) is never touched.
 */
export const BACKUP_RUN_GLOB = '[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]T[0-9][0-9][0-9][0-9][0-9][0-9]Z';

/** The file a run's directory holds once every database in it restored identically. */
export const BACKUP_VERIFIED_MARKER = 'verified';

/**
 * What a backup run does last, after its own backup verified: keep the `kept` newest verified runs
 * in `BACKUP_ROOT` and remove every run directory older than the oldest of them — verified or not.
 * A failed run newer than that stays (its dumps are the evidence its log points at); a run older
 * than that is superseded by `kept` restorable backups. With fewer verified runs than `kept`,
 * nothing is removed. Prints one line: what it kept and what it removed.
 *
 * Pure text (`bash`); `test/constructs/infra/galera-backup-retention.test.ts` runs it.
 */
export function galeraBackupRetentionScript(kept: number): string {
  return [
    'set -euo pipefail',
    'shopt -s nullglob',
    'root=${BACKUP_ROOT:?set BACKUP_ROOT to the directory the runs are in}',
    `kept=${kept}`,
    'verified=()',
    `for run in "$root"/${BACKUP_RUN_GLOB}; do`,
    `  [ -f "$run/${BACKUP_VERIFIED_MARKER}" ] && verified+=("$(basename "$run")")`,
    'done',
    'if [ ${#verified[@]} -le $kept ]; then',
    '  echo "backup retention: ${#verified[@]} verified backups, up to $kept are kept: nothing removed"',
    '  exit 0',
    'fi',
    // The glob expands in name order, so oldest first: the oldest kept is `kept` from the end.
    'oldest_kept=${verified[${#verified[@]} - kept]}',
    'removed=()',
    `for run in "$root"/${BACKUP_RUN_GLOB}; do`,
    '  name=$(basename "$run")',
    '  if [[ "$name" < "$oldest_kept" ]]; then',
    '    rm -rf -- "$run"',
    '    removed+=("$name")',
    '  fi',
    'done',
    'echo "backup retention: kept the $kept newest verified backups (the oldest $oldest_kept), removed: ${removed[*]}"',
    '',
  ].join('\n');
}
