#!/usr/bin/env bash
# The upgrade's verified backup (issue 24, docs/upgrades.md) on a 3-member Galera run from the
# synthesised manifests without Kubernetes (see lib.sh): a schema with rows is written through
# db-0, then the backup script of constructs/infra/galera-backup.ts (the same text the backup Job
# runs) runs on db-1: a logical dump per database, restored into a scratch database, row counts and
# CHECKSUM TABLE compared with the source. Reports each dump's size and restore time.
# Needs root and the Debian packages mariadb-server galera-4 mariadb-backup socat.
# Usage: sudo bash test/infra-local/backup.sh   (STACKWRIGHT_INFRA_KEEP=1 keeps the work dir on failure)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

for command in mariadbd mariadb-dump socat; do
  command -v "$command" >/dev/null || fail "$command missing: apt-get install mariadb-server galera-4 mariadb-backup socat"
done

render db
add_members db db-peers 3
sql() { # sql ORDINAL STATEMENT
  local i=$1
  shift
  in_member db "$i" mariadb --defaults-file=/run/mysqld/client.cnf -N -s -e "$*"
}
all_ready() { probe db 0 readiness && probe db 1 readiness && probe db 2 readiness; }

log "three members start together"
for i in 0 1 2; do start_member db "$i"; done
wait_for 600 "every member Synced and wsrep_ready (readiness probe)" all_ready

rows=${STACKWRIGHT_BACKUP_ROWS:-100000}
log "a schema with rows, written through db-0: proof.items ($rows rows), proof.notes (a fifth, FK), a view; other.kv"
sql 0 "CREATE DATABASE proof; CREATE DATABASE other; USE proof;
  CREATE TABLE proof.items (id INT PRIMARY KEY, name VARCHAR(64) NOT NULL, digest BINARY(32) NOT NULL, created DATETIME NOT NULL);
  INSERT INTO proof.items SELECT seq, CONCAT('item-', seq), UNHEX(SHA2(seq, 256)), '2025-01-01' + INTERVAL seq SECOND FROM seq_1_to_$rows;
  CREATE TABLE proof.notes (id INT AUTO_INCREMENT PRIMARY KEY, item INT NOT NULL, note TEXT, FOREIGN KEY (item) REFERENCES proof.items (id));
  INSERT INTO proof.notes (item, note) SELECT seq, REPEAT('n', seq % 200) FROM seq_1_to_$rows WHERE seq % 5 = 0;
  CREATE VIEW proof.named AS SELECT id, name FROM proof.items;
  CREATE TABLE other.kv (k VARCHAR(32) PRIMARY KEY, v JSON); INSERT INTO other.kv VALUES ('a', '{\"x\": 1}'), ('b', NULL)"
replicated() { [ "$(sql 1 "SELECT COUNT(*) FROM proof.notes")" = $((rows / 5)) ]; }
wait_for 60 "db-1 has every row written on db-0" replicated

script=$(cd "$repo" && node -r ./bin/ts-register.js -e \
  "process.stdout.write(require('./constructs/infra/galera-backup').galeraBackupScript())")
log "backup on db-1 (every database but the system ones), restore into scratch databases, compare"
started=$SECONDS
out=$(in_member db 1 env BACKUP_DIR=/tmp/upgrade-backup bash -c "$script" galera-backup) ||
  fail "the backup script failed: $out"
printf '%s\n' "$out"
log "backup and check took $((SECONDS - started)) s"
for db in other proof; do
  grep -q "^backup: $db .* restore_identical$" <<<"$out" || fail "no verified backup of $db in: $out"
done
grep -q "^backup: proof .* tables=2 rows=$((rows + rows / 5)) " <<<"$out" || fail "proof: expected 2 tables, $((rows + rows / 5)) rows"
[ -z "$(sql 0 "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE '%restorecheck'")" ] ||
  fail "a scratch database was left behind"

log "a differing restore is caught: the same check against a scratch copy missing one row fails"
in_member db 1 bash -c 'mariadb --defaults-file=/run/mysqld/client.cnf -e "CREATE DATABASE mangled" &&
  mariadb --defaults-file=/run/mysqld/client.cnf mangled </tmp/upgrade-backup/proof.sql &&
  mariadb --defaults-file=/run/mysqld/client.cnf -e "DELETE FROM mangled.notes ORDER BY id DESC LIMIT 1"'
[ "$(sql 0 "CHECKSUM TABLE mangled.notes EXTENDED" | cut -f2)" != "$(sql 0 "CHECKSUM TABLE proof.notes EXTENDED" | cut -f2)" ] ||
  fail "CHECKSUM TABLE does not see a missing row"
log "PASS"
