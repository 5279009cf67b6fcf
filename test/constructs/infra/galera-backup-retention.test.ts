import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Testing } from 'cdk8s';
import { MariaDB } from '../../../constructs/infra';
import { galeraBackupRetentionScript } from '../../../constructs/infra/galera-backup-retention';
import { Cloud } from '../../../lib/model';

/**
 * Retention run by bash for real on a directory of backup runs: alone (the pure script), and as
 * the last part of the backup CronJob's own command, run with stand-in `mariadb`/`mariadb-dump`
 * so that a failed backup can be seen to leave every older run in place.
 */
let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'backup-retention-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Run directories by name; `true` for a verified one. Also a `lost+found`, as on ext4 volumes. */
function runs(layout: Record<string, boolean>): void {
  mkdirSync(path.join(root, 'lost+found'));
  for (const [name, verified] of Object.entries(layout)) {
    mkdirSync(path.join(root, name));
    writeFileSync(path.join(root, name, 'keystone.sql'), '-- dump\n');
    if (verified) writeFileSync(path.join(root, name, 'verified'), '');
  }
}

const left = () => readdirSync(root).sort();

function retain(kept: number) {
  return spawnSync('/bin/bash', ['-c', galeraBackupRetentionScript(kept)], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', BACKUP_ROOT: root },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('galeraBackupRetentionScript', () => {
  test('keeps the newest verified runs and removes every run older than the oldest of them', () => {
    // GIVEN four verified runs and two failed ones, one old and one new
    runs({
      '20261101T031700Z': true,
      '20261102T031700Z': false,
      '20261103T031700Z': true,
      '20261104T031700Z': true,
      '20261105T031700Z': true,
      '20261106T031700Z': false,
    });
    // WHEN two are kept
    const result = retain(2);
    // THEN the two newest verified stay, the newer failed run too (its log points at it), and
    // what is not a run is not touched
    expect(result.status).toBe(0);
    expect(left()).toEqual(['20261104T031700Z', '20261105T031700Z', '20261106T031700Z', 'lost+found']);
    expect(result.stdout).toBe(
      'backup retention: kept the 2 newest verified backups (the oldest 20261104T031700Z), removed: 20261101T031700Z 20261102T031700Z 20261103T031700Z\n',
    );
  });

  test('with no more verified runs than are kept, nothing is removed', () => {
    // GIVEN two verified runs and a failed one
    runs({ '20261101T031700Z': false, '20261102T031700Z': true, '20261103T031700Z': true });
    // WHEN
    const result = retain(2);
    // THEN
    expect(result.status).toBe(0);
    expect(left()).toEqual(['20261101T031700Z', '20261102T031700Z', '20261103T031700Z', 'lost+found']);
    expect(result.stdout).toBe('backup retention: 2 verified backups, up to 2 are kept: nothing removed\n');
  });

  test('an empty volume is no error', () => {
    expect(retain(7)).toMatchObject({ status: 0, stdout: expect.stringContaining('0 verified backups') });
  });
});

describe("the backup CronJob's command", () => {
  /** The container's script from a synthesised MariaDB, with the volume and /tmp moved into `root`. */
  function backupCommand(backupsKept: number): string {
    const app = Testing.app() as App;
    const cloud = new Cloud(app, 'prod', { namespace: 'prod' });
    new MariaDB(cloud, 'db', { backupsKept });
    const cronJob = Testing.synth(cloud).find((o) => o.kind === 'CronJob' && o.metadata.name === 'db-backup');
    const script: string = cronJob.spec.jobTemplate.spec.template.spec.containers[0].command[2];
    return script.replace(/\/tmp\//g, `${root}/tmp-`).replace(/\/backups/g, path.join(root, 'volume'));
  }

  /** Runs it with stand-in clients: one database, `keystone`; `mariadb-dump` exits `dumpStatus`. */
  function runBackup(backupsKept: number, dumpStatus: number) {
    const bin = path.join(root, 'bin');
    mkdirSync(bin);
    const fake = (name: string, body: string) => {
      writeFileSync(path.join(bin, name), `#!/bin/bash\n${body}\n`);
      chmodSync(path.join(bin, name), 0o755);
    };
    fake('mariadb', 'case "$*" in *schema_name*) echo keystone ;; *COUNT*) echo 1 ;; esac; exit 0');
    fake('mariadb-dump', `[ ${dumpStatus} -eq 0 ] && echo "CREATE TABLE t (id INT);"; exit ${dumpStatus}`);
    return spawnSync('/bin/bash', ['-c', backupCommand(backupsKept)], {
      encoding: 'utf8',
      env: { PATH: `${bin}:/usr/bin:/bin`, DB_HOST: 'db', DB_PORT: '3306', MYSQL_PWD: 'secret' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  function volumeWithRuns(layout: Record<string, boolean>): void {
    const volume = path.join(root, 'volume');
    mkdirSync(volume);
    for (const [name, verified] of Object.entries(layout)) {
      mkdirSync(path.join(volume, name));
      if (verified) writeFileSync(path.join(volume, name, 'verified'), '');
    }
  }

  const runsOnVolume = () => readdirSync(path.join(root, 'volume')).sort();

  test('a verified backup is marked and the oldest runs beyond backupsKept go', () => {
    // GIVEN two verified runs from earlier days
    volumeWithRuns({ '20261101T031700Z': true, '20261102T031700Z': true });
    // WHEN a backup keeping two runs succeeds
    const result = runBackup(2, 0);
    // THEN it is marked verified, and of the three verified runs the oldest is gone
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const after = runsOnVolume();
    expect(after).toHaveLength(2);
    expect(after[0]).toBe('20261102T031700Z');
    expect(existsSync(path.join(root, 'volume', after[1], 'verified'))).toBe(true);
    expect(result.stdout).toMatch(/removed: 20261101T031700Z\n$/);
  });

  test('a failed backup is not marked and removes nothing', () => {
    // GIVEN two verified runs
    volumeWithRuns({ '20261101T031700Z': true, '20261102T031700Z': true });
    // WHEN a backup keeping one run fails in its dump
    const result = runBackup(1, 2);
    // THEN the Job fails, both old runs are still there, the new one has no marker
    expect(result.status).not.toBe(0);
    const after = runsOnVolume();
    expect(after.slice(0, 2)).toEqual(['20261101T031700Z', '20261102T031700Z']);
    expect(after).toHaveLength(3);
    expect(existsSync(path.join(root, 'volume', after[2], 'verified'))).toBe(false);
    expect(result.stdout).not.toContain('backup retention');
  });
});
