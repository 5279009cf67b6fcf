import { App } from 'cdk8s';
import { MariaDB, MariaDBProps, Memcached } from '../../../constructs/infra';
import { Keystone } from '../../../constructs/openstack';
import { Cloud } from '../../../lib/model';
import { edgesOf, findObject, podSpecOf, synthObjects } from '../../../lib/testing';
import { commandOf, edgesFrom, envOf, fileOf } from '../support/compute-network-fixture';

function synthMariaDB(props: MariaDBProps = {}) {
  const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
  new MariaDB(cloud, 'db', props);
  return synthObjects(cloud);
}

interface Container {
  startupProbe: unknown;
  readinessProbe: unknown;
  livenessProbe: unknown;
  volumeMounts: unknown;
}

const ALIVE = ['mariadb-admin', '--defaults-file=/run/mysqld/client.cnf', 'ping'];

describe('MariaDB with Galera (3 members)', () => {
  // GIVEN a cloud with the default MariaDB
  // WHEN it is synthesised
  const objects = synthMariaDB();
  const sts = findObject(objects, 'StatefulSet', 'db');
  const container = (podSpecOf(sts).containers as Container[])[0];
  const start = fileOf(objects, 'db-config', 'start.sh');

  test('members start in parallel and run the start script from the ConfigMap, not an entrypoint', () => {
    // THEN
    expect((sts.spec as { podManagementPolicy: string }).podManagementPolicy).toBe('Parallel');
    expect(commandOf(sts)).toEqual(['/bin/sh', '/etc/stackwright/start.sh']);
    expect(container.volumeMounts).toEqual([
      { name: 'config', mountPath: '/etc/stackwright', readOnly: true },
      { name: 'data', mountPath: '/var/lib/mysql' },
      { name: 'run', mountPath: '/run/mysqld' },
      { name: 'tmp', mountPath: '/tmp' },
    ]);
  });

  test('the root and SST passwords come from two generated Secrets, never from the ConfigMap', () => {
    // THEN
    expect(envOf(sts)).toEqual({
      MARIADB_ROOT_PASSWORD: { secretKeyRef: { name: 'db-credentials', key: 'password' } },
      MARIADB_SST_PASSWORD: { secretKeyRef: { name: 'db-sst-credentials', key: 'password' } },
    });
    // (created when missing; the lines before complete an existing Secret: test/constructs/kube/generated-secret.test.ts)
    expect(
      commandOf(findObject(objects, 'Job', 'db-sst-credentials'))[2]
        .split('\n')
        .slice(-1),
    ).toEqual([
      `printf '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"db-sst-credentials"},"stringData":{"password":"%s"}}' "$(openssl rand -hex 24)" | kubectl create -f -`,
    ]);
    expect(edgesOf(sts)).toEqual(edgesFrom('db', { completed: ['db-credentials', 'db-sst-credentials'] }));
  });

  test('my.cnf is the whole server configuration: datadir below the volume, Galera with mariabackup SST', () => {
    // THEN
    expect(fileOf(objects, 'db-config', 'my.cnf')).toBe(
      [
        '[mysqld]',
        'datadir = /var/lib/mysql/data',
        'socket = /run/mysqld/mysqld.sock',
        'pid_file = /run/mysqld/mysqld.pid',
        'tmpdir = /tmp',
        'port = 3306',
        'skip_name_resolve = ON',
        'binlog_format = ROW',
        'default_storage_engine = InnoDB',
        'innodb_autoinc_lock_mode = 2',
        'wsrep_on = ON',
        'wsrep_provider = /usr/lib/galera/libgalera_smm.so',
        'wsrep_cluster_address = gcomm://db-0.db-peers,db-1.db-peers,db-2.db-peers',
        'wsrep_cluster_name = prod-db',
        'wsrep_sst_method = mariabackup',
        '!include /run/mysqld/sst.cnf',
        '',
      ].join('\n'),
    );
  });

  test('the start script writes the credentials to owner-only files and bootstraps only without peers', () => {
    // THEN the SST credential reaches mariadbd through a file, not argv
    expect(start).toContain('umask 077\n');
    expect(start).toContain(
      `printf '[mysqld]\\nwsrep_sst_auth = sst:%s\\n' "$MARIADB_SST_PASSWORD" >"$run/sst.cnf"`,
    );
    expect(start).toContain(
      `GRANT RELOAD, PROCESS, LOCK TABLES, BINLOG MONITOR ON *.* TO 'sst'@'localhost';`,
    );
    expect(start).toContain(`GRANT ALL PRIVILEGES ON *.* TO 'root'@'%' WITH GRANT OPTION;`);
    expect(start).toContain('peers="db-0.db-peers db-1.db-peers db-2.db-peers"');
    // AND a new cluster only from member 0 with nobody on the Galera port, or the last member to leave
    expect(start).toContain('  if [ "${HOSTNAME##*-}" = 0 ] && ! peer_running; then\n');
    expect(start).toContain('socat -u OPEN:/dev/null "TCP:$peer:4567,connect-timeout=2"');
    expect(start).toContain(
      `elif grep -q '^safe_to_bootstrap: *1' "$data/grastate.dat" 2>/dev/null && ! peer_primary; then\n`,
    );
    expect(start.match(/--wsrep-new-cluster/g)).toHaveLength(1);
    expect(start.endsWith('exec mariadbd --defaults-file="$cnf" --wsrep-node-name="$HOSTNAME"\n')).toBe(true);
    expect(start).not.toMatch(/-p"\$MARIADB/);
  });

  test('startup tolerates a long state transfer, readiness means Synced, liveness is lenient', () => {
    // THEN
    expect(container.startupProbe).toEqual({
      exec: { command: ALIVE },
      timeoutSeconds: 10,
      periodSeconds: 10,
      failureThreshold: 180,
    });
    expect(container.readinessProbe).toEqual({
      exec: {
        command: [
          '/bin/sh',
          '-ec',
          `test "$(mariadb --defaults-file=/run/mysqld/client.cnf -N -s -e "SELECT GROUP_CONCAT(VARIABLE_VALUE ORDER BY VARIABLE_NAME) FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN ('WSREP_LOCAL_STATE_COMMENT', 'WSREP_READY')")" = Synced,ON`,
        ],
      },
      periodSeconds: 10,
      timeoutSeconds: 5,
    });
    expect(container.livenessProbe).toEqual({
      exec: { command: ALIVE },
      timeoutSeconds: 10,
      periodSeconds: 30,
      failureThreshold: 4,
    });
  });

  test('clients reach member 0 only; members reach each other through the peers Service', () => {
    // THEN
    const selector = (name: string) =>
      (findObject(objects, 'Service', name).spec as { selector: unknown }).selector;
    const members = { 'app.kubernetes.io/component': 'server', 'app.kubernetes.io/instance': 'db' };
    expect(selector('db')).toEqual({ ...members, 'statefulset.kubernetes.io/pod-name': 'db-0' });
    expect(selector('db-peers')).toEqual(members);
  });
});

describe('MariaDB with one member', () => {
  // GIVEN / WHEN
  const objects = synthMariaDB({ replicas: 1 });
  const start = fileOf(objects, 'db-config', 'start.sh');

  test('runs without Galera: wsrep off, no provider, no bootstrap decision', () => {
    // THEN
    const cnf = fileOf(objects, 'db-config', 'my.cnf');
    expect(cnf).toContain('\nwsrep_on = OFF\n');
    expect(cnf).not.toContain('wsrep_provider');
    expect(start).not.toContain('--wsrep-new-cluster');
    expect(start.endsWith('[ -d "$data/mysql" ] || initialise\nexec mariadbd --defaults-file="$cnf"\n')).toBe(
      true,
    );
  });

  test('is ready when it answers a query', () => {
    // THEN
    const sts = findObject(objects, 'StatefulSet', 'db');
    expect((podSpecOf(sts).containers as Container[])[0].readinessProbe).toMatchObject({
      exec: {
        command: [
          '/bin/sh',
          '-ec',
          'test "$(mariadb --defaults-file=/run/mysqld/client.cnf -N -s -e "SELECT 1")" = 1',
        ],
      },
    });
  });
});

describe('MariaDB image', () => {
  test("the Jobs that create per-service databases run the server's own image (client matches server)", () => {
    // GIVEN a MariaDB with its image overridden and a service with a database on it
    const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
    const database = new MariaDB(cloud, 'db', { image: 'stackwright.local/mariadb:10.11' });
    new Keystone(cloud, 'keystone', { database, cache: new Memcached(cloud, 'memcached') });

    // WHEN
    const objects = synthObjects(cloud);

    // THEN the server and the db-init Job both use the override
    const imageOf = (kind: string, name: string) =>
      (podSpecOf(findObject(objects, kind, name)).containers as { image: string }[])[0].image;
    expect(imageOf('StatefulSet', 'db')).toBe('stackwright.local/mariadb:10.11');
    expect(imageOf('Job', 'keystone-db-init')).toBe('stackwright.local/mariadb:10.11');
  });
});

describe('MariaDB backup', () => {
  interface CronJobSpec {
    suspend: boolean;
    concurrencyPolicy: string;
    jobTemplate: {
      spec: {
        backoffLimit: number;
        template: {
          spec: {
            containers: { image: string; command: string[]; env: { name: string }[] }[];
            volumes: { name: string; persistentVolumeClaim?: { claimName: string } }[];
          };
        };
      };
    };
  }

  test('a suspended CronJob the upgrade runs: the verified backup script, onto a claim of its own', () => {
    // GIVEN a MariaDB with a 50Gi backup volume
    const objects = synthMariaDB({ backupStorageSize: '50Gi', storageClassName: 'fast' });

    // WHEN its backup component is read
    const cronJob = findObject(objects, 'CronJob', 'db-backup');
    const claim = findObject(objects, 'PersistentVolumeClaim', 'db-backups');
    const spec = cronJob.spec as CronJobSpec;
    const pod = spec.jobTemplate.spec.template.spec;

    // THEN nothing runs on its own, the upgrade finds it, and it runs the dump-restore-compare script
    expect(spec.suspend).toBe(true);
    expect(spec.concurrencyPolicy).toBe('Forbid');
    expect(spec.jobTemplate.spec.backoffLimit).toBe(0);
    expect(cronJob.metadata.annotations?.['stackwright.io/upgrade-template']).toBe('backup');
    expect(pod.containers[0].command[0]).toBe('/bin/bash');
    expect(pod.containers[0].command[2]).toContain(
      'mariadb-dump --defaults-file="$cnf" --single-transaction',
    );
    expect(pod.containers[0].command[2]).toContain('restore_identical');
    // the password reaches a client option file from the environment, never the command line
    expect(pod.containers[0].env.map((e) => e.name)).toEqual(['DB_HOST', 'DB_PORT', 'MYSQL_PWD']);
    expect(pod.containers[0].command[2]).not.toMatch(/-p\s*\$|--password/);
    expect(pod.volumes).toContainEqual({
      name: 'backups',
      persistentVolumeClaim: { claimName: 'db-backups' },
    });
    expect(claim.spec).toMatchObject({
      resources: { requests: { storage: '50Gi' } },
      storageClassName: 'fast',
    });
    // a claim that binds on first consumer is not waited for at deploy
    expect(claim.metadata.annotations?.['stackwright.io/wait']).toBe('exists');
    // after the server and its root password
    expect(edgesOf(cronJob)).toEqual([
      { from: 'db-backup', to: 'db-credentials', kind: 'completed' },
      { from: 'db-backup', to: 'db', kind: 'ready' },
    ]);
  });

  test('by default a 10Gi claim of the default StorageClass, a daily schedule left suspended', () => {
    // GIVEN a MariaDB without backup props
    const objects = synthMariaDB();

    // WHEN / THEN
    const claim = findObject(objects, 'PersistentVolumeClaim', 'db-backups');
    expect(claim.spec).toEqual({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '10Gi' } },
    });
    const cronJob = findObject(objects, 'CronJob', 'db-backup');
    expect(cronJob.spec).toMatchObject({ schedule: '17 3 * * *', timeZone: 'Etc/UTC', suspend: true });
  });

  test('the backup keeps 7 verified runs by default, backupsKept of them when given', () => {
    const commandOf = (objects: ReturnType<typeof synthMariaDB>) =>
      (findObject(objects, 'CronJob', 'db-backup').spec as CronJobSpec).jobTemplate.spec.template.spec
        .containers[0].command[2];
    expect(commandOf(synthMariaDB())).toContain('kept=7\n');
    expect(commandOf(synthMariaDB({ backupsKept: 30 }))).toContain('kept=30\n');
  });

  test('a backupsKept that is not a whole number from 1 is refused naming the construct', () => {
    expect(() => synthMariaDB({ backupsKept: 0 })).toThrow(
      '[prod/db] backupsKept must be between 1 and 366, got 0',
    );
  });

  test('a backup volume size that is not a quantity is refused naming the construct and the fix', () => {
    // WHEN / THEN
    expect(() => synthMariaDB({ backupStorageSize: 'ten gigs' })).toThrow(
      `[prod/db] backupStorageSize "ten gigs" is not a Kubernetes quantity; write a number with an optional suffix and no space, e.g. '10Gi'`,
    );
  });
});
