/**
 * The files and commands a RabbitMQ member runs with. The image is only trusted to put
 * `rabbitmq-server` and `rabbitmq-diagnostics` on the PATH, runnable by any uid (see
 * docs/infrastructure.md); every path RabbitMQ writes to is set here, so the root filesystem can
 * stay read-only and the image's own configuration is not read.
 */

import { shellWord } from '../kube/shell-word';

/** Where the ConfigMap with `rabbitmq.conf`, `enabled_plugins` and `start.sh` is mounted. */
export const RABBITMQ_CONFIG_DIR = '/etc/stackwright';
/** The Erlang cookie Secret (one file, mode 0400). */
export const RABBITMQ_COOKIE_DIR = '/etc/stackwright-cookie';
/** The member's volume, also HOME: the Erlang tools look for `.erlang.cookie` there. */
export const RABBITMQ_DATA_DIR = '/var/lib/rabbitmq';
/** An emptyDir for the configuration the start script completes with the admin password. */
export const RABBITMQ_RUN_DIR = '/run/rabbitmq';

export interface RabbitMQMember {
  /** Host names of every member, in ordinal order (`rabbitmq-0.rabbitmq-peers`, …). */
  readonly hosts: readonly string[];
  /** The governing Service, completing a pod name to its host name. */
  readonly peersService: string;
  readonly adminUser: string;
}

/** `rabbitmq.conf`, without the admin password (start.sh appends it from the Secret). */
export function rabbitmqConfig(member: RabbitMQMember): string {
  return [
    'cluster_formation.peer_discovery_backend = classic_config',
    ...member.hosts.map(
      (host, i) =>
        `cluster_formation.classic_config.nodes.${i + 1} = rabbit@${shellWord(host, 'member host')}`,
    ),
    // Only the majority side of a partition keeps serving, so no queue diverges.
    'cluster_partition_handling = pause_minority',
    'queue_master_locator = min-masters',
    `default_user = ${shellWord(member.adminUser, 'adminUser')}`,
    'log.console = true',
    'log.file = false',
    '',
  ].join('\n');
}

/**
 * The environment of the server and of the probes (the CLI tools read the same variables): long
 * node names `rabbit@<pod>.<peers Service>`, as in the classic peer discovery list, and every
 * writable path on the volume or the run emptyDir. `POD_NAME` must come first (downward API).
 */
export function rabbitmqEnvironment(member: RabbitMQMember): { name: string; value: string }[] {
  return [
    { name: 'RABBITMQ_NODENAME', value: `rabbit@$(POD_NAME).${member.peersService}` },
    { name: 'RABBITMQ_USE_LONGNAME', value: 'true' },
    { name: 'HOME', value: RABBITMQ_DATA_DIR },
    { name: 'RABBITMQ_MNESIA_BASE', value: `${RABBITMQ_DATA_DIR}/mnesia` },
    { name: 'RABBITMQ_LOG_BASE', value: `${RABBITMQ_DATA_DIR}/log` },
    { name: 'RABBITMQ_CONFIG_FILE', value: `${RABBITMQ_RUN_DIR}/rabbitmq.conf` },
    { name: 'RABBITMQ_ENABLED_PLUGINS_FILE', value: `${RABBITMQ_CONFIG_DIR}/enabled_plugins` },
  ];
}

/**
 * `start.sh`: completes the configuration with the admin password (`RABBITMQ_DEFAULT_PASS`), puts
 * the Erlang cookie where Erlang reads it, owner-only as Erlang demands, and `exec`s the server.
 * A member other than 0 that has never run (no database yet) first waits until a peer runs, so
 * classic peer discovery makes it join that peer: at the first deploy member 0 finds nobody and
 * founds the cluster, every other member joins it. A member with a database rejoins the cluster it
 * knows on its own (RabbitMQ waits for its peers), so all members may start at once.
 */
export function rabbitmqStartScript(member: RabbitMQMember): string {
  return [
    'set -eu',
    'umask 077',
    `{ cat ${RABBITMQ_CONFIG_DIR}/rabbitmq.conf; printf 'default_pass = %s\\n' "$RABBITMQ_DEFAULT_PASS"; } >"$RABBITMQ_CONFIG_FILE"`,
    'rm -f "$HOME/.erlang.cookie"',
    `cat ${RABBITMQ_COOKIE_DIR}/erlang-cookie >"$HOME/.erlang.cookie"`,
    'chmod 0400 "$HOME/.erlang.cookie"',
    `peers="${member.hosts.map((h) => shellWord(h, 'member host')).join(' ')}"`,
    'peer_running() {',
    '  for peer in $peers; do',
    '    [ "${peer%%.*}" = "$HOSTNAME" ] && continue',
    '    rabbitmq-diagnostics -q -n "rabbit@$peer" check_running >/dev/null 2>&1 && return 0',
    '  done',
    '  return 1',
    '}',
    'if [ ! -d "$RABBITMQ_MNESIA_BASE/$RABBITMQ_NODENAME" ] && [ "${HOSTNAME##*-}" != 0 ]; then',
    '  echo "start.sh: first start, waiting for a running peer to join"',
    '  until peer_running; do sleep 5; done',
    'fi',
    'exec rabbitmq-server',
    '',
  ].join('\n');
}

/**
 * The readiness check, "running and clustered": the RabbitMQ application runs on this node (not
 * paused by `pause_minority`) and the cluster it sees running has a majority of the members.
 */
export function rabbitmqReadyCommand(replicas: number): string[] {
  const quorum = Math.floor(replicas / 2) + 1;
  return [
    '/bin/sh',
    '-ec',
    'rabbitmq-diagnostics -q check_running >/dev/null\n' +
      'running=$(rabbitmq-diagnostics -q cluster_status --formatter json | ' +
      `grep -o '"running_nodes":\\[[^]]*\\]' | grep -o 'rabbit@' | wc -l)\n` +
      `test "$running" -ge ${quorum}`,
  ];
}

/** The liveness and startup check: the Erlang node answers (any state, including paused). */
export const RABBITMQ_ALIVE_COMMAND = ['rabbitmq-diagnostics', '-q', 'ping'];
