/**
 * The files and commands a MariaDB/Galera member runs with. The image is only trusted to put
 * `mariadbd`, `mariadb`, `mariadb-admin`, `mariadb-install-db`, `mariadb-backup`, `socat` and what
 * the SST script needs (`bash`, `ps`, `ss`) on the PATH and the Galera provider at
 * {@link GALERA_PROVIDER} (see docs/infrastructure.md): no
 * entrypoint and none of the image's own configuration is used, so the same member starts from a
 * Debian-built test image and from a production image.
 */

import { shellWord } from '../kube/shell-word';

/** Where the ConfigMap with `my.cnf` and `start.sh` is mounted (a path no image ships). */
export const MARIADB_CONFIG_DIR = '/etc/stackwright';
/** The member's volume. The datadir is a directory below it, away from a filesystem's `lost+found`. */
export const MARIADB_VOLUME_DIR = '/var/lib/mysql';
const MARIADB_DATADIR = `${MARIADB_VOLUME_DIR}/data`;
/** An emptyDir: socket, pid file and the credential files the start script writes (mode 0600). */
export const MARIADB_RUN_DIR = '/run/mysqld';
/** Client options with the root password, for the probes and the start script's own queries. */
export const MARIADB_CLIENT_CNF = `${MARIADB_RUN_DIR}/client.cnf`;
/** The Galera provider library, where Debian and the upstream MariaDB images install it. */
const GALERA_PROVIDER = '/usr/lib/galera/libgalera_smm.so';
/** The account mariadb-backup uses on the donor during a state transfer (socket only). */
const SST_USER = 'sst';
const GALERA_PORT = 4567;

export interface GaleraMember {
  /** Members of the cluster; 1 runs MariaDB without replication. */
  readonly replicas: number;
  /** Host names of every member, in ordinal order (`db-0.db-peers`, …). */
  readonly hosts: readonly string[];
  readonly clusterName: string;
  readonly port: number;
}

/** `my.cnf`: the whole server configuration; the image's own files are never read. */
export function mariadbConfig(member: GaleraMember): string {
  const galera = [
    'wsrep_on = ON',
    `wsrep_provider = ${GALERA_PROVIDER}`,
    `wsrep_cluster_address = gcomm://${member.hosts.map((h) => shellWord(h, 'member host')).join(',')}`,
    `wsrep_cluster_name = ${shellWord(member.clusterName, 'Galera cluster name')}`,
    'wsrep_sst_method = mariabackup',
    // Written by start.sh from the SST Secret: the credential is in no ConfigMap and on no argv.
    `!include ${MARIADB_RUN_DIR}/sst.cnf`,
  ];
  return [
    '[mysqld]',
    `datadir = ${MARIADB_DATADIR}`,
    `socket = ${MARIADB_RUN_DIR}/mysqld.sock`,
    `pid_file = ${MARIADB_RUN_DIR}/mysqld.pid`,
    'tmpdir = /tmp',
    `port = ${member.port}`,
    // Clients are pods with changing addresses: resolving them only slows every connection.
    'skip_name_resolve = ON',
    'binlog_format = ROW',
    'default_storage_engine = InnoDB',
    'innodb_autoinc_lock_mode = 2',
    ...(member.replicas > 1 ? galera : ['wsrep_on = OFF']),
    '',
  ].join('\n');
}

/**
 * `start.sh`, run as the container's command (`sh <config dir>/start.sh`, so the ConfigMap needs no
 * execute bit). It reads `HOSTNAME` (the pod name), `MARIADB_ROOT_PASSWORD` and
 * `MARIADB_SST_PASSWORD` from the environment, initialises an empty datadir, decides whether this
 * member bootstraps a new primary component or joins one, and `exec`s mariadbd (which then gets
 * the pod's signals). The decision, for more than one member:
 *
 * - empty datadir, member 0, and no peer answers on the Galera port: a new cluster. Members other
 *   than 0 with an empty datadir start nothing until a peer reports a primary component, so at the
 *   first deploy no port answers but member 0's, and a member 0 whose volume was lost joins the
 *   survivors (who answer) instead of founding a second cluster.
 * - `safe_to_bootstrap: 1` in grastate.dat (Galera writes it on the last member to leave a cluster
 *   cleanly) and no peer in a primary component: that member bootstraps, the others join it.
 * - anything else joins: after a crash of every member, Galera's own `pc.recovery` re-forms the
 *   primary component from gvwstate.dat once all members run again (hence Parallel pod
 *   management); when that is impossible it is an operator action (docs/infrastructure.md).
 */
export function mariadbStartScript(member: GaleraMember): string {
  const prelude = [
    'set -eu',
    'umask 077',
    `run=${MARIADB_RUN_DIR}`,
    `data=${MARIADB_DATADIR}`,
    `cnf=${MARIADB_CONFIG_DIR}/my.cnf`,
    'mkdir -p "$data"',
    // Hex passwords from the generated Secrets: nothing to quote in an option file.
    `printf '[client]\\nuser = root\\npassword = %s\\nsocket = %s\\n' "$MARIADB_ROOT_PASSWORD" "$run/mysqld.sock" >${MARIADB_CLIENT_CNF}`,
    `printf '[mysqld]\\nwsrep_sst_auth = ${SST_USER}:%s\\n' "$MARIADB_SST_PASSWORD" >"$run/sst.cnf"`,
    '',
    '# A fresh datadir: system tables, then the accounts, on a private server without networking.',
    '# Built beside the datadir and renamed when complete: an interrupted run starts over.',
    'initialise() {',
    '  echo "start.sh: initialising $data"',
    '  rm -rf "$data.init"',
    '  mariadb-install-db --no-defaults --datadir="$data.init" --auth-root-authentication-method=normal \\',
    '    --skip-test-db --skip-name-resolve >/dev/null',
    '  mariadbd --defaults-file="$cnf" --datadir="$data.init" --wsrep-provider=none --wsrep-on=OFF \\',
    '    --skip-networking --socket="$run/init.sock" &',
    '  init_pid=$!',
    '  tries=0',
    '  until mariadb-admin --no-defaults --socket="$run/init.sock" -uroot ping >/dev/null 2>&1; do',
    '    tries=$((tries + 1))',
    '    [ "$tries" -lt 120 ] || { echo "start.sh: the initialising server did not start" >&2; exit 1; }',
    '    sleep 1',
    '  done',
    '  mariadb --no-defaults --socket="$run/init.sock" -uroot <<SQL',
    "ALTER USER 'root'@'localhost' IDENTIFIED BY '$MARIADB_ROOT_PASSWORD';",
    "CREATE USER 'root'@'%' IDENTIFIED BY '$MARIADB_ROOT_PASSWORD';",
    "GRANT ALL PRIVILEGES ON *.* TO 'root'@'%' WITH GRANT OPTION;",
    `CREATE USER '${SST_USER}'@'localhost' IDENTIFIED BY '$MARIADB_SST_PASSWORD';`,
    `GRANT RELOAD, PROCESS, LOCK TABLES, BINLOG MONITOR ON *.* TO '${SST_USER}'@'localhost';`,
    'SQL',
    `  mariadb-admin --defaults-file=${MARIADB_CLIENT_CNF} --socket="$run/init.sock" shutdown`,
    '  wait "$init_pid"',
    '  rm -rf "$data"',
    '  mv "$data.init" "$data"',
    '}',
    '',
  ];
  if (member.replicas === 1) {
    return [
      ...prelude,
      '[ -d "$data/mysql" ] || initialise',
      'exec mariadbd --defaults-file="$cnf"',
      '',
    ].join('\n');
  }
  return [
    ...prelude,
    `peers="${member.hosts.map((h) => shellWord(h, 'member host')).join(' ')}"`,
    'self_host() { [ "${1%%.*}" = "$HOSTNAME" ]; }',
    '',
    '# Some other member accepts connections on the Galera port (it runs, primary or not).',
    'peer_running() {',
    '  for peer in $peers; do',
    '    self_host "$peer" && continue',
    `    socat -u OPEN:/dev/null "TCP:$peer:${GALERA_PORT},connect-timeout=2" 2>/dev/null && return 0`,
    '  done',
    '  return 1',
    '}',
    '',
    '# Some other member belongs to a primary component.',
    'peer_primary() {',
    '  for peer in $peers; do',
    '    self_host "$peer" && continue',
    `    status=$(mariadb --defaults-file=${MARIADB_CLIENT_CNF} --protocol=tcp -h "$peer" -P ${member.port} \\`,
    `      --connect-timeout=3 -N -s -e "SHOW GLOBAL STATUS LIKE 'wsrep_cluster_status'" 2>/dev/null | cut -f2) || true`,
    '    [ "$status" = Primary ] && return 0',
    '  done',
    '  return 1',
    '}',
    '',
    'bootstrap=',
    'if [ ! -d "$data/mysql" ]; then',
    '  if [ "${HOSTNAME##*-}" = 0 ] && ! peer_running; then',
    '    echo "start.sh: bootstrap: member 0, empty datadir, no peer running: founding a new cluster"',
    '    initialise',
    '    bootstrap=yes',
    '  else',
    '    waited=0',
    '    until peer_primary; do',
    '      [ $((waited % 60)) -eq 0 ] && echo "start.sh: empty datadir, waiting for a primary component to join"',
    '      sleep 5',
    '      waited=$((waited + 5))',
    '    done',
    '  fi',
    'elif grep -q \'^safe_to_bootstrap: *1\' "$data/grastate.dat" 2>/dev/null && ! peer_primary; then',
    '  echo "start.sh: bootstrap: last member to leave (safe_to_bootstrap: 1), no primary component: re-founding the cluster"',
    '  bootstrap=yes',
    'fi',
    'if [ -n "$bootstrap" ]; then',
    '  exec mariadbd --defaults-file="$cnf" --wsrep-node-name="$HOSTNAME" --wsrep-new-cluster',
    'fi',
    'exec mariadbd --defaults-file="$cnf" --wsrep-node-name="$HOSTNAME"',
    '',
  ].join('\n');
}

/**
 * The readiness check: a Galera member is ready when it is Synced with a primary component and
 * accepts queries (`wsrep_ready`); without replication, when it answers a query.
 */
export function mariadbReadyCommand(replicas: number): string[] {
  const query =
    replicas > 1
      ? "SELECT GROUP_CONCAT(VARIABLE_VALUE ORDER BY VARIABLE_NAME) FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN ('WSREP_LOCAL_STATE_COMMENT', 'WSREP_READY')"
      : 'SELECT 1';
  const expected = replicas > 1 ? 'Synced,ON' : '1';
  return [
    '/bin/sh',
    '-ec',
    `test "$(mariadb --defaults-file=${MARIADB_CLIENT_CNF} -N -s -e "${query}")" = ${expected}`,
  ];
}

/** The liveness and startup check: the server process answers on its socket (any state). */
export const MARIADB_ALIVE_COMMAND = ['mariadb-admin', `--defaults-file=${MARIADB_CLIENT_CNF}`, 'ping'];
