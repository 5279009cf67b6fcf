#!/usr/bin/env bash
# MariaDB/Galera as the MariaDB construct synthesises it, three members run from the rendered
# manifests without Kubernetes (see lib.sh): the first deploy forms one cluster (size 3, every member
# Synced by the pod's own readiness probe), a row written through member 0 is on every member,
# member 0 rejoins after a crash (SIGKILL) and after a clean stop (SIGTERM) with the row still there,
# and the whole cluster comes back on its own after every member stopped cleanly (the last to leave
# re-founds it) and after every member crashed (Galera's pc.recovery); a one-member MariaDB runs
# without Galera and keeps its data across a restart.
# Needs root and the Debian packages mariadb-server galera-4 mariadb-backup socat.
# Usage: sudo bash test/infra-local/galera.sh   (STACKWRIGHT_INFRA_KEEP=1 keeps the work dir on failure)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

for command in mariadbd mariadb-backup socat; do
  command -v "$command" >/dev/null || fail "$command missing: apt-get install mariadb-server galera-4 mariadb-backup socat"
done

render db single
add_members db db-peers 3
add_members single single-peers 1

sql() { # sql ORDINAL STATEMENT: as root through the client options the start script wrote
  local i=$1
  shift
  in_member db "$i" mariadb --defaults-file=/run/mysqld/client.cnf -N -s -e "$*"
}
ready() { probe db "$1" readiness; }
all_ready() { ready 0 && ready 1 && ready 2; }
cluster_size() { [ "$(sql "$1" "SHOW GLOBAL STATUS LIKE 'wsrep_cluster_size'" | cut -f2)" = 3 ]; }
has_row() { [ "$(sql "$1" "SELECT note FROM proof.t WHERE id = 1" 2>/dev/null)" = "$2" ]; }

log "first deploy: the three members start together, as Parallel pod management starts them"
for i in 0 1 2; do start_member db "$i"; done
wait_for 600 "every member Synced and wsrep_ready (readiness probe)" all_ready
for i in 0 1 2; do wait_for 10 "db-$i sees wsrep_cluster_size=3" cluster_size "$i"; done
bootstraps() { cat "$work"/log/db-*.log | grep -c '^start.sh: bootstrap:' || true; }
[ "$(bootstraps)" = 1 ] && grep -q '^start.sh: bootstrap: member 0' "$work/log/db-0.log" ||
  fail "expected one bootstrap, by db-0; got: $(grep -H '^start.sh: bootstrap:' "$work"/log/db-*.log)"

secret_of() { tr '\0' '\n' <"$work/kit/db/0/env" | sed -n "s/^$1=//p"; }
for secret in MARIADB_ROOT_PASSWORD MARIADB_SST_PASSWORD; do
  value=$(secret_of "$secret")
  for i in 0 1 2; do
    for pid in $(ip netns pids "$(member_ns db "$i")"); do
      ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "$value" || fail "$secret is on the command line of pid $pid"
    done
  done
done
log "ok: neither password is on any member process's command line"

sql 0 "CREATE DATABASE proof; CREATE TABLE proof.t (id INT PRIMARY KEY, note VARCHAR(64)); INSERT INTO proof.t VALUES (1, 'written before the restart')"
for i in 1 2; do wait_for 30 "db-$i has the row written on db-0" has_row "$i" 'written before the restart'; done

for signal in KILL TERM; do
  log "db-0 stops (SIG$signal) while db-1 and db-2 keep the cluster"
  kill_member db 0 "$signal"
  sql 1 "INSERT INTO proof.t VALUES (2$([ "$signal" = KILL ] && echo 0 || echo 1), 'written while db-0 was away')"
  start_member db 0
  wait_for 300 "db-0 rejoined and Synced after SIG$signal" ready 0
  wait_for 10 "db-0 sees wsrep_cluster_size=3" cluster_size 0
  has_row 0 'written before the restart' || fail "db-0 lost the row written before the restart"
  [ "$(sql 0 "SELECT COUNT(*) FROM proof.t")" -ge 2 ] || fail "db-0 missed the write made while it was away"
  log "ok: db-0 reads the row written before, and the one written while it was away"
done
[ "$(bootstraps)" = 1 ] || fail "a member bootstrapped while the cluster ran: $(grep -H '^start.sh: bootstrap:' "$work"/log/db-*.log)"

log "full-cluster restart after a clean stop of every member (db-0, db-1, then db-2)"
for i in 0 1 2; do kill_member db "$i" TERM; done
grep -q '^safe_to_bootstrap: 1' "$work/state/db-2/data/data/grastate.dat" || fail "db-2, the last to leave, is not safe_to_bootstrap"
for i in 0 1 2; do start_member db "$i"; done
wait_for 600 "every member Synced again" all_ready
[ "$(bootstraps)" = 2 ] && grep -q '^start.sh: bootstrap: last member' "$work/log/db-2.log" ||
  fail "expected db-2 alone to re-found the cluster; got: $(grep -H '^start.sh: bootstrap:' "$work"/log/db-*.log)"
for i in 0 1 2; do wait_for 10 "db-$i sees wsrep_cluster_size=3" cluster_size "$i"; done
has_row 0 'written before the restart' || fail "the row is lost after the full restart"

log "full-cluster crash (SIGKILL every member): Galera's pc.recovery re-forms it once all run"
for i in 0 1 2; do kill_member db "$i" KILL; done
for i in 0 1 2; do start_member db "$i"; done
wait_for 600 "every member Synced again" all_ready
[ "$(bootstraps)" = 2 ] || fail "a member bootstrapped after the crash: $(grep -H '^start.sh: bootstrap:' "$work"/log/db-*.log)"
for i in 0 1 2; do wait_for 10 "db-$i sees wsrep_cluster_size=3" cluster_size "$i"; done
has_row 1 'written before the restart' || fail "the row is lost after the crash"

log "one member, without Galera: initialises, serves, and keeps its data across a restart"
start_member single 0
wait_for 300 "single-0 ready" probe single 0 readiness
in_member single 0 mariadb --defaults-file=/run/mysqld/client.cnf -e \
  "CREATE DATABASE proof; CREATE TABLE proof.t (id INT PRIMARY KEY); INSERT INTO proof.t VALUES (7)"
kill_member single 0 TERM
start_member single 0
wait_for 300 "single-0 ready after a restart" probe single 0 readiness
[ "$(in_member single 0 mariadb --defaults-file=/run/mysqld/client.cnf -N -s -e "SELECT id FROM proof.t")" = 7 ] ||
  fail "single-0 lost its row"
[ "$(in_member single 0 mariadb --defaults-file=/run/mysqld/client.cnf -N -s -e "SELECT @@wsrep_on")" = 0 ] ||
  fail "single-0 runs with wsrep on"
log "ok: single-0 kept its row, wsrep off"
log "PASS"
