import { App } from 'cdk8s';
import { RabbitMQ } from '../../../constructs/infra';
import { Cloud } from '../../../lib/model';
import { findObject, podSpecOf, synthObjects } from '../../../lib/testing';
import { commandOf, envOf, fileOf } from '../support/compute-network-fixture';

interface Container {
  args?: string[];
  startupProbe: unknown;
  readinessProbe: unknown;
  livenessProbe: unknown;
  volumeMounts: unknown;
}

describe('RabbitMQ (3 members)', () => {
  // GIVEN a cloud with the default RabbitMQ
  const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
  new RabbitMQ(cloud, 'mq');
  // WHEN it is synthesised
  const objects = synthObjects(cloud);
  const sts = findObject(objects, 'StatefulSet', 'mq');
  const pod = podSpecOf(sts);
  const container = (pod.containers as Container[])[0];
  const start = fileOf(objects, 'mq-config', 'start.sh');

  test('members start in parallel and run the start script from the ConfigMap', () => {
    // THEN
    expect((sts.spec as { podManagementPolicy: string }).podManagementPolicy).toBe('Parallel');
    expect(commandOf(sts)).toEqual(['/bin/sh', '/etc/stackwright/start.sh']);
  });

  test('long node names match the classic peer discovery list, every writable path is a volume', () => {
    // THEN
    expect(envOf(sts)).toEqual({
      POD_NAME: { fieldRef: { fieldPath: 'metadata.name' } },
      RABBITMQ_NODENAME: 'rabbit@$(POD_NAME).mq-peers',
      RABBITMQ_USE_LONGNAME: 'true',
      HOME: '/var/lib/rabbitmq',
      RABBITMQ_MNESIA_BASE: '/var/lib/rabbitmq/mnesia',
      RABBITMQ_LOG_BASE: '/var/lib/rabbitmq/log',
      RABBITMQ_CONFIG_FILE: '/run/rabbitmq/rabbitmq.conf',
      RABBITMQ_ENABLED_PLUGINS_FILE: '/etc/stackwright/enabled_plugins',
      RABBITMQ_DEFAULT_PASS: { secretKeyRef: { name: 'mq-credentials', key: 'password' } },
    });
    expect(fileOf(objects, 'mq-config', 'rabbitmq.conf')).toBe(
      [
        'cluster_formation.peer_discovery_backend = classic_config',
        'cluster_formation.classic_config.nodes.1 = rabbit@mq-0.mq-peers',
        'cluster_formation.classic_config.nodes.2 = rabbit@mq-1.mq-peers',
        'cluster_formation.classic_config.nodes.3 = rabbit@mq-2.mq-peers',
        'cluster_partition_handling = pause_minority',
        'queue_master_locator = min-masters',
        'default_user = admin',
        'log.console = true',
        'log.file = false',
        '',
      ].join('\n'),
    );
  });

  test('the Erlang cookie is a Secret file copied owner-only into HOME, never an environment variable', () => {
    // THEN
    expect(pod.volumes).toContainEqual({
      name: 'erlang-cookie',
      secret: {
        secretName: 'mq-credentials',
        items: [{ key: 'erlang-cookie', path: 'erlang-cookie' }],
        defaultMode: 0o400,
      },
    });
    expect(container.volumeMounts).toEqual([
      { name: 'config', mountPath: '/etc/stackwright', readOnly: true },
      { name: 'erlang-cookie', mountPath: '/etc/stackwright-cookie', readOnly: true },
      { name: 'data', mountPath: '/var/lib/rabbitmq' },
      { name: 'run', mountPath: '/run/rabbitmq' },
    ]);
    expect(start).toContain(
      'cat /etc/stackwright-cookie/erlang-cookie >"$HOME/.erlang.cookie"\nchmod 0400 "$HOME/.erlang.cookie"\n',
    );
    expect(JSON.stringify(envOf(sts))).not.toContain('COOKIE');
  });

  test('a member other than 0 waits for a running peer before its first start', () => {
    // THEN
    expect(start).toContain('peers="mq-0.mq-peers mq-1.mq-peers mq-2.mq-peers"');
    expect(start).toContain(
      'if [ ! -d "$RABBITMQ_MNESIA_BASE/$RABBITMQ_NODENAME" ] && [ "${HOSTNAME##*-}" != 0 ]; then\n' +
        '  echo "start.sh: first start, waiting for a running peer to join"\n' +
        '  until peer_running; do sleep 5; done\nfi\nexec rabbitmq-server\n',
    );
    expect(start).toContain('rabbitmq-diagnostics -q -n "rabbit@$peer" check_running');
  });

  test('readiness means running and in a majority; startup and liveness only need the node to answer', () => {
    // THEN
    expect(container.readinessProbe).toEqual({
      exec: {
        command: [
          '/bin/sh',
          '-ec',
          'rabbitmq-diagnostics -q check_running >/dev/null\n' +
            `running=$(rabbitmq-diagnostics -q cluster_status --formatter json | grep -o '"running_nodes":\\[[^]]*\\]' | grep -o 'rabbit@' | wc -l)\n` +
            'test "$running" -ge 2',
        ],
      },
      periodSeconds: 20,
      timeoutSeconds: 15,
    });
    const alive = { exec: { command: ['rabbitmq-diagnostics', '-q', 'ping'] }, timeoutSeconds: 15 };
    expect(container.startupProbe).toEqual({ ...alive, periodSeconds: 10, failureThreshold: 90 });
    expect(container.livenessProbe).toEqual({ ...alive, periodSeconds: 30, failureThreshold: 4 });
  });
});
