import * as fs from 'fs';
import * as path from 'path';
import { stringify } from 'yaml';
import { runCli } from '../../lib/cli/program';
import { ExitCode } from '../../lib/cli/exit-codes';
import { Annotations, KubeObject } from '../../lib/graph';
import { InMemoryCluster } from '../../lib/testing/in-memory-cluster';
import { component, configMap, deployment, job, namespace, NS } from '../runtime/support/manifests';
import { manifestDir, testIo } from './support';

// Several clouds synthesised into one directory (one app, `new Cloud(app, 'prod')` and
// `new Cloud(app, 'staging')`): the same component names, each cloud in its namespace.

beforeAll(
  () =>
    Promise.all(
      ['deploy', 'destroy', 'export', 'graph', 'plan', 'rbac', 'status', 'verify'].map(
        (command) => import(`../../lib/cli/commands/${command}`),
      ),
    ),
  120_000,
);

/** mariadb <- keystone-db-sync (Job) <- keystone-api, as cloud `cloud` in namespace `ns`. */
function cloudObjects(cloud: string, ns: string): KubeObject[] {
  const objects = [
    namespace(),
    ...component('mariadb', {}, configMap('mariadb-config'), deployment('mariadb')),
    ...component('keystone-db-sync', { needs: { mariadb: 'ready' } }, job('keystone-db-sync')),
    ...component('keystone-api', { needs: { 'keystone-db-sync': 'completed' } }, deployment('keystone-api')),
  ];
  return objects.map((o) => ({
    ...o,
    metadata: {
      ...o.metadata,
      ...(o.kind === 'Namespace' ? { name: ns } : { namespace: ns }),
      annotations: { ...o.metadata.annotations, [Annotations.CLOUD]: cloud },
    },
  }));
}

/** A directory with `prod.k8s.yaml` and `staging.k8s.yaml`, as cdk8s writes one file per chart. */
function twoClouds(prodNamespace = 'prod', stagingNamespace = 'staging'): string {
  const dir = manifestDir([]);
  fs.rmSync(path.join(dir, 'cloud.k8s.yaml'));
  for (const [cloud, ns] of [
    ['prod', prodNamespace],
    ['staging', stagingNamespace],
  ])
    fs.writeFileSync(
      path.join(dir, `${cloud}.k8s.yaml`),
      cloudObjects(cloud, ns)
        .map((o) => stringify(o))
        .join('---\n'),
    );
  return dir;
}

const COMMANDS: readonly (readonly string[])[] = [
  ['deploy'],
  ['plan'],
  ['verify'],
  ['status'],
  ['destroy', '--yes'],
  ['graph'],
  ['rbac'],
  ['export', 'kapp'],
];

describe('a directory holding several clouds', () => {
  test.each(COMMANDS.map((c) => [c.join(' '), c]))(
    '%s without --cloud is a usage error naming the clouds and --cloud, before connecting',
    async (_name, command) => {
      // GIVEN two clouds with the same component names
      const dir = twoClouds();
      const out = path.join(manifestDir([]), 'out');
      const io = testIo();

      // WHEN
      const args = command[0] === 'export' ? [...command, dir, '--out', out] : [...command, dir];
      const code = await runCli(args, io);

      // THEN
      expect(code).toBe(ExitCode.USAGE);
      expect(io.stderr.text).toContain('the manifests hold several clouds (prod, staging)');
      expect(io.stderr.text).toContain('choose one with --cloud (e.g. --cloud prod)');
      expect(io.opened).toBe(0);
      expect(io.stdout.text).toBe('');
      expect(fs.existsSync(out)).toBe(false);
    },
  );

  test.each(COMMANDS.map((c) => [c.join(' '), c]))(
    '%s --cloud naming no cloud of the manifests is a usage error naming those it holds',
    async (_name, command) => {
      const dir = twoClouds();
      const io = testIo();
      const args = command[0] === 'export' ? [...command, dir, '--out', `${dir}-out`] : [...command, dir];
      expect(await runCli([...args, '--cloud', 'prd'], io)).toBe(ExitCode.USAGE);
      expect(io.stderr.text).toContain('no cloud "prd" in the manifests; they hold prod, staging');
      expect(io.opened).toBe(0);
    },
  );

  test('every cluster command works on the cloud --cloud names, each with its own inventory', async () => {
    // GIVEN two clouds in their namespaces, and one cluster
    const dir = twoClouds();
    const cluster = new InMemoryCluster();
    const run = async (...args: string[]) => {
      const io = testIo({ cluster });
      return { code: await runCli([...args, '--json'], io), out: io.stdout.text, err: io.stderr.text };
    };

    // WHEN both are deployed, one after the other
    expect((await run('deploy', dir, '--cloud', 'prod')).code).toBe(ExitCode.OK);
    expect((await run('deploy', dir, '--cloud', 'staging')).code).toBe(ExitCode.OK);

    // THEN each has its own inventory in its namespace, holding its own objects only
    const inventories = await cluster.list({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(
      inventories
        .filter((o) => o.metadata.name.startsWith('stackwright-inventory-'))
        .map((o) => `${o.metadata.namespace}/${o.metadata.name}`)
        .sort(),
    ).toEqual(['prod/stackwright-inventory-prod', 'staging/stackwright-inventory-staging']);
    const status = JSON.parse((await run('status', dir, '--cloud', 'staging')).out) as {
      inventory: { cloud: string; namespace: string; objects: number; orphans: string[] };
      counts: { verified: number };
    };
    expect(status.inventory).toMatchObject({
      cloud: 'staging',
      namespace: 'staging',
      objects: 5,
      orphans: [],
    });
    expect(status.counts.verified).toBe(3);
    // AND verify and plan read the chosen cloud
    expect((await run('verify', dir, '--cloud', 'prod')).code).toBe(ExitCode.OK);
    const plan = JSON.parse((await run('plan', dir, '--cloud', 'prod')).out) as {
      counts: Record<string, number>;
    };
    expect(plan.counts).toMatchObject({ create: 0, prune: 0 });

    // WHEN staging is destroyed
    expect((await run('destroy', dir, '--yes', '--cloud', 'staging')).code).toBe(ExitCode.OK);

    // THEN prod is untouched
    expect(
      (await cluster.list({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'staging' })).length,
    ).toBe(0);
    expect(
      (await cluster.list({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'prod' })).map(
        (o) => o.metadata.name,
      ),
    ).toEqual(['keystone-api', 'mariadb']);
    expect((await run('verify', dir, '--cloud', 'prod')).code).toBe(ExitCode.OK);
  });

  test('two clouds in one namespace are two inventories: pruning one never deletes the other', async () => {
    // GIVEN two clouds whose objects share a namespace (different names)
    const prod = cloudObjects('prod', NS);
    const staging = cloudObjects('staging', NS)
      .filter((o) => o.kind !== 'Namespace')
      .map((o) => ({ ...o, metadata: { ...o.metadata, name: `staging-${o.metadata.name}` } }));
    const dir = manifestDir([...prod, ...staging]);
    const cluster = new InMemoryCluster();

    // WHEN both are deployed, then prod deploys with --prune
    for (const cloud of ['prod', 'staging', 'prod'])
      expect(
        await runCli(
          ['deploy', dir, '--cloud', cloud, ...(cloud === 'prod' ? ['--prune'] : [])],
          testIo({ cluster }),
        ),
      ).toBe(ExitCode.OK);

    // THEN staging's objects are still there, and each inventory holds its cloud's objects
    const deployments = await cluster.list({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: NS });
    expect(deployments.map((o) => o.metadata.name).sort()).toEqual([
      'keystone-api',
      'mariadb',
      'staging-keystone-api',
      'staging-mariadb',
    ]);
    const io = testIo({ cluster });
    await runCli(['status', dir, '--cloud', 'prod', '--json'], io);
    expect(JSON.parse(io.stdout.text)).toMatchObject({
      inventory: { cloud: 'prod', objects: 5, orphans: [] },
    });
  });

  test('rbac --cloud names the Roles after that cloud, in its namespaces only', async () => {
    const io = testIo();
    expect(await runCli(['rbac', twoClouds(), '--cloud', 'staging'], io)).toBe(ExitCode.OK);
    expect(io.stdout.text).toContain('name: stackwright-deployer-staging');
    expect(io.stdout.text).toContain('namespace: staging');
    expect(io.stdout.text).not.toContain('namespace: prod');
  });

  test('synth validates each cloud as its own graph', async () => {
    // GIVEN an app that writes two clouds with the same component names
    const dir = twoClouds();
    const io = testIo({ cwd: path.dirname(dir) });
    io.runShell = async () => {
      fs.writeFileSync(
        path.join(dir, 'prod.k8s.yaml'),
        cloudObjects('prod', 'prod')
          .map((o) => stringify(o))
          .join('---\n'),
      );
      fs.writeFileSync(
        path.join(dir, 'staging.k8s.yaml'),
        cloudObjects('staging', 'staging')
          .map((o) => stringify(o))
          .join('---\n'),
      );
      return 0;
    };

    // WHEN
    const code = await runCli(['synth', '--app', 'true', '--output', dir], io);

    // THEN
    expect(io.stderr.text).toBe('');
    expect(code).toBe(ExitCode.OK);
    expect(io.stdout.text).toContain('(6 components of 2 clouds (prod, staging))');
  });
});
