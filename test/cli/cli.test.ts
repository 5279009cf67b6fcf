import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../../lib/cli/program';
import { ExitCode } from '../../lib/cli/exit-codes';
import { InMemoryCluster, SIM_FAIL } from '../../lib/testing/in-memory-cluster';
import { ClusterUnreachableError } from '../../lib/runtime/cluster-unreachable-error';
import { ApplyConflictError } from '../../lib/runtime/ports';
import { component, configMap, deployment, job, namespace, NS } from '../runtime/support/manifests';
import { manifestDir, testIo } from './support';

// The CLI imports each command's module when the command first runs. Import them here, outside
// any test's 5 s timeout, so ts-jest compiling the runtime does not count against the first test
// of a command on a loaded machine.
beforeAll(
  () =>
    Promise.all([
      import('../../lib/cli/commands/deploy'),
      import('../../lib/cli/commands/destroy'),
      import('../../lib/cli/commands/graph'),
      import('../../lib/cli/commands/plan'),
      import('../../lib/cli/commands/status'),
      import('../../lib/cli/commands/synth'),
      import('../../lib/cli/commands/verify'),
    ]),
  120_000,
);

/** mariadb <- keystone-db-sync (Job) <- keystone-api; memcached independent. */
function cloud(opts: { failSync?: boolean } = {}) {
  return [
    namespace(),
    ...component('mariadb', {}, configMap('mariadb-config'), deployment('mariadb')),
    ...component('memcached', {}, deployment('memcached')),
    ...component(
      'keystone-db-sync',
      { needs: { mariadb: 'ready' } },
      job('keystone-db-sync', opts.failSync ? { [SIM_FAIL]: 'BackoffLimitExceeded: the job failed' } : {}),
    ),
    ...component(
      'keystone-api',
      { needs: { 'keystone-db-sync': 'completed', memcached: 'ready' } },
      deployment('keystone-api'),
    ),
  ];
}

describe('stackwright deploy', () => {
  test('exits 0 and prints one line per event and a summary when everything verifies', async () => {
    // GIVEN manifests and an empty cluster, not on a terminal
    const dir = manifestDir(cloud());
    const io = testIo();

    // WHEN
    const code = await runCli(['deploy', dir], io);

    // THEN
    expect(code).toBe(ExitCode.OK);
    const out = io.stdout.text;
    expect(out).toMatch(/started\s+mariadb/);
    expect(out).toMatch(/verified\s+keystone-api/);
    expect(out).toContain('✓ Deploy succeeded');
    expect(out).toContain('4 verified, 0 failed, 0 blocked, 0 not started');
    expect(out).not.toContain('\u001b['); // no ANSI outside a terminal
  });

  test('exits 1 when a component fails, naming it and what it blocked', async () => {
    // GIVEN a failing db-sync Job
    const dir = manifestDir(cloud({ failSync: true }));
    const io = testIo();

    // WHEN
    const code = await runCli(['deploy', dir], io);

    // THEN
    expect(code).toBe(ExitCode.FAILED);
    expect(io.stdout.text).toContain('✗ Deploy failed');
    expect(io.stdout.text).toContain('✗ keystone-db-sync: Job/openstack/keystone-db-sync');
    expect(io.stdout.text).toContain('⊘ keystone-api: blocked by keystone-db-sync');
    expect(io.stdout.text).toContain('2 verified, 1 failed, 1 blocked');
  });

  test('exits 4 on a field-manager conflict', async () => {
    // GIVEN another manager owns a field of memcached
    const cluster = new InMemoryCluster();
    cluster.failApply(
      `Deployment/${NS}/memcached`,
      new ApplyConflictError(`Deployment/${NS}/memcached`, [
        { manager: 'kubectl-edit', field: '.spec.replicas' },
      ]),
    );
    const io = testIo({ cluster });

    // WHEN
    const code = await runCli(['deploy', manifestDir(cloud())], io);

    // THEN
    expect(code).toBe(ExitCode.CONFLICT);
    expect(io.stdout.text).toContain('kubectl-edit (.spec.replicas)');
  });

  test('--json prints every event and a final summary as JSON lines', async () => {
    // GIVEN
    const io = testIo();

    // WHEN
    const code = await runCli(['deploy', manifestDir(cloud()), '--json'], io);

    // THEN every line parses: the preflight findings (this cluster has no nodes), the events, the summary last
    expect(code).toBe(ExitCode.OK);
    const lines = io.stdout.lines().map((l) => JSON.parse(l) as { type: string; exitCode?: number });
    expect(lines[0].type).toBe('preflight');
    expect(lines[1].type).toBe('run-started');
    expect(lines.map((l) => l.type)).toContain('unit-done');
    expect(lines[lines.length - 1]).toMatchObject({
      type: 'summary',
      command: 'deploy',
      exitCode: 0,
      ok: true,
    });
  });

  test('exits 2 for manifests that do not form a valid graph, without connecting', async () => {
    // GIVEN a component that depends on one that is not in the manifests
    const dir = manifestDir(
      component('keystone-api', { needs: { mariadb: 'ready' } }, deployment('keystone-api')),
    );
    const io = testIo();

    // WHEN
    const code = await runCli(['deploy', dir], io);

    // THEN
    expect(code).toBe(ExitCode.USAGE);
    expect(io.stderr.text).toContain('depends on mariadb');
    expect(io.opened).toBe(0);
  });

  test('exits 2 when the manifests directory does not exist', async () => {
    const io = testIo();
    expect(await runCli(['deploy', '/nonexistent/dist'], io)).toBe(ExitCode.USAGE);
    expect(io.stderr.text).toContain('stackwright synth');
  });

  test('exits 3 when the cluster cannot be reached', async () => {
    const io = testIo({
      connectError: new ClusterUnreachableError('cannot reach the API server at https://127.0.0.1:1'),
    });
    expect(await runCli(['deploy', manifestDir(cloud())], io)).toBe(ExitCode.UNREACHABLE);
    expect(io.stderr.text).toContain('cannot reach the API server');
  });

  test('--json ends with a summary line even when the run stops before its command could write one', async () => {
    // GIVEN an unreachable cluster, and manifests that do not exist
    const unreachable = testIo({
      connectError: new ClusterUnreachableError('cannot reach the API server at https://127.0.0.1:1'),
    });
    const missing = testIo();
    // WHEN both run with --json
    expect(await runCli(['deploy', manifestDir(cloud()), '--json'], unreachable)).toBe(ExitCode.UNREACHABLE);
    expect(await runCli(['plan', '/nonexistent/dist', '--json'], missing)).toBe(ExitCode.USAGE);
    // THEN stdout's last line is the summary with the exit code and the reason
    const last = (io: ReturnType<typeof testIo>) => JSON.parse(io.stdout.text.trim().split('\n').pop() ?? '');
    expect(last(unreachable)).toEqual({
      type: 'summary',
      command: 'deploy',
      exitCode: ExitCode.UNREACHABLE,
      ok: false,
      error: 'cannot reach the API server at https://127.0.0.1:1',
    });
    expect(last(missing)).toMatchObject({
      type: 'summary',
      command: 'plan',
      exitCode: ExitCode.USAGE,
      ok: false,
    });
  });

  test('exits 3 when the API server is lost mid-run and stays away past --api-loss-timeout', async () => {
    // GIVEN a cluster whose API server is lost for good as soon as the run starts, a 1 s loss timeout
    const cluster = new InMemoryCluster({ apiLossTimeoutMs: 1_000 });
    const io = testIo({ cluster });
    const dir = manifestDir(cloud());
    cluster.loseApi('connect ECONNREFUSED 127.0.0.1:16443');

    // WHEN
    const code = await runCli(['--api-loss-timeout', '1s', 'deploy', dir], io);

    // THEN the loss is said, and the exit code is "unreachable"
    expect(code).toBe(ExitCode.UNREACHABLE);
    expect(io.openedWith?.apiLossTimeoutMs).toBe(1_000);
    expect(io.stderr.text).toContain(
      'the API server stopped answering (connect ECONNREFUSED 127.0.0.1:16443) and did not come back within 1s (--api-loss-timeout)',
    );
  });

  test('a re-run reports the unchanged objects it did not write', async () => {
    const cluster = new InMemoryCluster();
    const dir = manifestDir(cloud());
    await runCli(['deploy', dir], testIo({ cluster }));
    const io = testIo({ cluster });
    expect(await runCli(['deploy', dir], io)).toBe(ExitCode.OK);
    expect(io.stdout.text).toContain('6 unchanged objects not written');
  });
});

describe('argument parsing', () => {
  test.each([
    [['deploy', '--concurrency', '0']],
    [['deploy', '--concurrency', 'many']],
    [['deploy', '--timeout', 'soon']],
    [['deploy', '--bogus']],
    [['graph', '--format', 'png']],
    [['frobnicate']],
  ])('%j is a usage error (exit 2)', async (argv) => {
    const io = testIo();
    expect(await runCli(argv, io)).toBe(ExitCode.USAGE);
    expect(io.stderr.text.length).toBeGreaterThan(0);
    expect(io.opened).toBe(0);
  });

  test('--help exits 0 and documents the exit codes', async () => {
    const io = testIo();
    expect(await runCli(['--help'], io)).toBe(ExitCode.OK);
    expect(io.stdout.text).toContain(
      'Exit codes: 0 ok, 1 rollout failed, 2 bad input or usage, 3 cluster unreachable, 4 field conflicts',
    );
  });
});

test('--version prints the version from the package.json, exit 0, without a cluster', async () => {
  // GIVEN the package's own version
  const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  for (const flag of ['--version', '-V']) {
    const io = testIo();
    // WHEN asked for it THEN it is printed alone
    expect(await runCli([flag], io)).toBe(ExitCode.OK);
    expect(io.stdout.text).toBe(`${version}\n`);
    expect(io.opened).toBe(0);
  }
});

describe('other commands', () => {
  test('graph prints DOT, Mermaid and JSON from manifests without a cluster', async () => {
    const dir = manifestDir(cloud());
    const dot = testIo();
    const mermaid = testIo();
    const json = testIo();
    expect(await runCli(['graph', dir], dot)).toBe(ExitCode.OK);
    expect(await runCli(['graph', dir, '--format', 'mermaid'], mermaid)).toBe(ExitCode.OK);
    expect(await runCli(['graph', dir, '--format', 'json'], json)).toBe(ExitCode.OK);
    expect(dot.stdout.text).toContain('"keystone-api" -> "keystone-db-sync" [label="completed"');
    expect(mermaid.stdout.text).toContain('keystone_api ==>|completed| keystone_db_sync');
    const parsed = JSON.parse(json.stdout.text) as { components: { name: string }[]; bootstrap: string[] };
    expect(parsed.components.map((c) => c.name)).toEqual([
      'keystone-api',
      'keystone-db-sync',
      'mariadb',
      'memcached',
    ]);
    expect(parsed.bootstrap).toEqual([`Namespace/${NS}`]);
    expect(dot.opened + mermaid.opened + json.opened).toBe(0);
  });

  test('plan exits 0 and changes nothing; verify and status report the deployed cloud', async () => {
    // GIVEN a deployed cloud
    const cluster = new InMemoryCluster();
    const dir = manifestDir(cloud());
    await runCli(['deploy', dir], testIo({ cluster }));
    const writes = cluster.calls('apply').length;

    // WHEN
    const plan = testIo({ cluster });
    const verify = testIo({ cluster });
    const status = testIo({ cluster });
    const codes = [
      await runCli(['plan', dir], plan),
      await runCli(['verify', dir], verify),
      await runCli(['status', dir], status),
    ];

    // THEN
    expect(codes).toEqual([0, 0, 0]);
    expect(plan.stdout.text).toContain('Plan: 0 to create, 0 to update, 6 unchanged, 0 to prune.');
    expect(verify.stdout.text).toContain('✓ Verify succeeded');
    expect(status.stdout.text).toContain('4/4 components ready');
    expect(cluster.calls('apply')).toHaveLength(writes);
  });

  test('destroy refuses without --yes when not on a terminal, and deletes with it', async () => {
    // GIVEN a deployed cloud
    const cluster = new InMemoryCluster();
    const dir = manifestDir(cloud());
    await runCli(['deploy', dir], testIo({ cluster }));

    // WHEN / THEN without --yes: usage error, nothing deleted
    const refused = testIo({ cluster });
    expect(await runCli(['destroy', dir], refused)).toBe(ExitCode.USAGE);
    expect(cluster.calls('delete')).toEqual([]);

    // WHEN / THEN with --yes: everything gone
    const io = testIo({ cluster });
    expect(await runCli(['destroy', dir, '--yes'], io)).toBe(ExitCode.OK);
    expect(cluster.all()).toEqual([]);
    expect(io.stdout.text).toContain('✓ Destroy succeeded');
  });

  test('destroy --component-timeout limits each component; the old --timeout still works and warns', async () => {
    const cluster = new InMemoryCluster();
    const dir = manifestDir(cloud());
    await runCli(['deploy', dir], testIo({ cluster }));

    const current = testIo({ cluster });
    expect(await runCli(['destroy', dir, '--yes', '--component-timeout', '2m'], current)).toBe(ExitCode.OK);
    expect(current.stderr.text).not.toContain('deprecated');

    await runCli(['deploy', dir], testIo({ cluster }));
    const old = testIo({ cluster });
    expect(await runCli(['destroy', dir, '--yes', '--timeout', '2m'], old)).toBe(ExitCode.OK);
    expect(old.stderr.text).toContain('destroy --timeout is deprecated');
    expect(old.stderr.text).toContain('--component-timeout');
    expect(cluster.all()).toEqual([]);
  });

  test('destroy on a terminal asks, and a "no" deletes nothing', async () => {
    const cluster = new InMemoryCluster();
    const dir = manifestDir(cloud());
    await runCli(['deploy', dir], testIo({ cluster }));
    const io = testIo({ cluster, tty: true, answer: false });
    expect(await runCli(['destroy', dir], io)).toBe(ExitCode.OK);
    expect(io.stderr.text).toContain('destroy cancelled');
    expect(cluster.calls('delete')).toEqual([]);
  });
});

describe('stackwright synth', () => {
  function project(): string {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-project-'));
    fs.writeFileSync(path.join(cwd, 'cdk8s.yaml'), 'language: typescript\napp: node synth.js\noutput: out\n');
    fs.mkdirSync(path.join(cwd, 'out'));
    fs.writeFileSync(
      path.join(cwd, 'out', 'old-chart.k8s.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: stale}\n',
    );
    return cwd;
  }

  test('runs the cdk8s.yaml app with CDK8S_OUTDIR, removes stale YAML first, and validates the graph', async () => {
    // GIVEN a project with a stale file from a chart that no longer exists
    const cwd = project();
    const calls: { command: string; outdir: string; staleGone: boolean }[] = [];
    const io = {
      ...testIo({ cwd }),
      runShell: async (command: string, env: Readonly<Record<string, string>>) => {
        calls.push({
          command,
          outdir: env.CDK8S_OUTDIR,
          staleGone: !fs.existsSync(path.join(env.CDK8S_OUTDIR, 'old-chart.k8s.yaml')),
        });
        fs.writeFileSync(
          path.join(env.CDK8S_OUTDIR, 'cloud.k8s.yaml'),
          fs.readFileSync(path.join(manifestDir(cloud()), 'cloud.k8s.yaml')),
        );
        return 0;
      },
    };

    // WHEN
    const code = await runCli(['synth'], io);

    // THEN
    expect(code).toBe(ExitCode.OK);
    expect(calls).toEqual([{ command: 'node synth.js', outdir: path.join(cwd, 'out'), staleGone: true }]);
    expect(io.stdout.text).toContain('Synthesised 6 objects (4 components) to out/');
    expect(fs.readdirSync(path.join(cwd, 'out'))).toEqual(['cloud.k8s.yaml']);
  });

  test('a failing app, or output that is not a valid graph, is a usage error', async () => {
    const failing = { ...testIo({ cwd: project() }), runShell: async () => 1 };
    expect(await runCli(['synth'], failing)).toBe(ExitCode.USAGE);
    expect(failing.stderr.text).toContain('exited with code 1');

    const cyclic = {
      ...testIo({ cwd: project() }),
      runShell: async (_command: string, env: Readonly<Record<string, string>>) => {
        const objects = [
          ...component('a', { needs: { b: 'ready' } }, configMap('a')),
          ...component('b', { needs: { a: 'ready' } }, configMap('b')),
        ];
        fs.writeFileSync(
          path.join(env.CDK8S_OUTDIR, 'cloud.k8s.yaml'),
          fs.readFileSync(path.join(manifestDir(objects), 'cloud.k8s.yaml')),
        );
        return 0;
      },
    };
    expect(await runCli(['synth'], cyclic)).toBe(ExitCode.USAGE);
    expect(cyclic.stderr.text).toContain('dependency cycle between components: a -> b -> a');
  });

  test('stale YAML: a link is removed and its target kept; a folder named *.yaml is refused before anything is removed', async () => {
    // GIVEN an output folder with a link to a file elsewhere, then a folder named like a manifest
    const cwd = project();
    const elsewhere = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-elsewhere-')),
      'keep.yaml',
    );
    fs.writeFileSync(elsewhere, 'keep: me\n');
    fs.symlinkSync(elsewhere, path.join(cwd, 'out', 'linked.k8s.yaml'));
    const io = { ...testIo({ cwd }), runShell: async () => 1 };

    // WHEN / THEN the link goes, its target stays
    expect(await runCli(['synth'], io)).toBe(ExitCode.USAGE);
    expect(fs.readdirSync(path.join(cwd, 'out'))).toEqual([]);
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe('keep: me\n');

    // WHEN / THEN a folder is named, nothing is removed
    fs.writeFileSync(path.join(cwd, 'out', 'a.k8s.yaml'), 'kind: A\n');
    fs.mkdirSync(path.join(cwd, 'out', 'b.k8s.yaml'));
    const folder = { ...testIo({ cwd }), runShell: async () => 0 };
    expect(await runCli(['synth'], folder)).toBe(ExitCode.USAGE);
    expect(folder.stderr.text).toContain(
      `${path.join(cwd, 'out', 'b.k8s.yaml')} is a directory, where synth writes manifest files; rename or move it, or pass another --output`,
    );
    expect(fs.readdirSync(path.join(cwd, 'out')).sort()).toEqual(['a.k8s.yaml', 'b.k8s.yaml']);
  });
});

describe('plan and status details', () => {
  test('plan exits 4 and names the other manager when it would conflict', async () => {
    // GIVEN a deployed cloud where another manager now owns a field of memcached
    const cluster = new InMemoryCluster();
    const dir = manifestDir(cloud());
    await runCli(['deploy', dir], testIo({ cluster }));
    cluster.failApply(
      `Deployment/${NS}/memcached`,
      new ApplyConflictError(`Deployment/${NS}/memcached`, [{ manager: 'helm', field: '.spec.replicas' }]),
    );

    // WHEN
    const io = testIo({ cluster });
    const code = await runCli(['plan', dir], io);

    // THEN
    expect(code).toBe(ExitCode.CONFLICT);
    expect(io.stdout.text).toContain('! Deployment/openstack/memcached (memcached): conflict');
    expect(io.stdout.text).toContain('helm (.spec.replicas)');
  });

  test('status lists what left the manifests and is still deployed', async () => {
    const cluster = new InMemoryCluster();
    await runCli(['deploy', manifestDir(cloud())], testIo({ cluster }));
    const smaller = manifestDir(
      cloud().filter((o) => o.metadata.annotations?.['stackwright.io/component'] !== 'keystone-api'),
    );
    const io = testIo({ cluster });
    expect(await runCli(['status', smaller, '--json'], io)).toBe(ExitCode.OK);
    const status = JSON.parse(io.stdout.text) as { inventory: { orphans: string[]; graphChanged: boolean } };
    expect(status.inventory.orphans).toEqual([`Deployment/${NS}/keystone-api`]);
    expect(status.inventory.graphChanged).toBe(true);
  });
});

describe('manifests that cannot be deployed as one cloud', () => {
  test('several clouds in one directory is a usage error, found before connecting', async () => {
    // GIVEN components of two clouds
    const other = component('nova-api', {}, deployment('nova-api')).map((o) => ({
      ...o,
      metadata: {
        ...o.metadata,
        annotations: { ...o.metadata.annotations, 'stackwright.io/cloud': 'other' },
      },
    }));
    const io = testIo();

    // WHEN / THEN
    expect(await runCli(['deploy', manifestDir([...cloud(), ...other])], io)).toBe(ExitCode.USAGE);
    expect(io.stderr.text).toContain('several clouds (other, test)');
    expect(io.opened).toBe(0);
  });
});
