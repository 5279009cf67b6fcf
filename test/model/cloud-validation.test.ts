import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { MariaDB } from '../../constructs/infra';
import { Cloud, Component } from '../../lib/model';
import { placement, restrictedTo, SchedulingKey } from '../../lib/scheduling';
import { TinyService } from '../support/tiny-service';

/**
 * Builds and synthesises into a fresh directory; returns the thrown message (from the construct
 * boundary or from synthesis) and the files written.
 */
function synthFailure(build: (cloud: Cloud) => void): { message: string; files: string[] } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-'));
  const app = new App({ outdir });
  let message = '';
  try {
    build(new Cloud(app, 'prod', { namespace: 'openstack' }));
    app.synth();
  } catch (error) {
    message = error instanceof Error ? error.message : String(error);
  }
  return { message, files: fs.readdirSync(outdir) };
}

describe('Cloud validation at the construct boundary and at synthesis', () => {
  test('a dependency cycle fails with the cycle path and no file is written', () => {
    // GIVEN a -> b -> c -> a
    const { message, files } = synthFailure((cloud) => {
      const a = new TinyService(cloud, 'a');
      const b = new TinyService(cloud, 'b');
      const c = new TinyService(cloud, 'c');
      a.parts.api.dependsOn(b);
      b.parts.api.dependsOn(c, 'completed');
      c.parts.api.dependsOn(a);
    });

    // THEN
    expect(message).toContain('[prod] dependency cycle: a-api -> b-api -> c-api -> a-api');
    expect(message).toContain('(prod/a/api -> prod/b/api -> prod/c/api -> prod/a/api)');
    expect(message).toContain("make it a 'runtime' edge");
    expect(files).toEqual([]);
  });

  test('runtime edges may form cycles: they never gate', () => {
    const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-')) });
    const cloud = new Cloud(app, 'prod', { namespace: 'openstack' });
    const neutron = new TinyService(cloud, 'neutron');
    const nova = new TinyService(cloud, 'nova');
    neutron.parts.api.dependsOn(nova, 'runtime');
    nova.parts.api.dependsOn(neutron, 'ready');
    expect(() => app.synth()).not.toThrow();
  });

  test('a duplicate component name names both construct paths', () => {
    const { message, files } = synthFailure((cloud) => {
      const one = new TinyService(cloud, 'one', []);
      const two = new TinyService(cloud, 'two', []);
      new Component(one, 'x', { name: 'shared' });
      new Component(two, 'y', { name: 'shared' });
    });
    expect(message).toContain('duplicate component name "shared" at prod/one/x and prod/two/y');
    expect(files).toEqual([]);
  });

  test('an invalid DNS name fails with the construct path and the rule', () => {
    const { message, files } = synthFailure((cloud) => {
      new TinyService(cloud, 'Keystone_API');
    });
    expect(message).toContain(
      '[prod/Keystone_API] service name "Keystone_API" is not a valid DNS-1123 label',
    );
    expect(message).toContain("use lower-case letters, digits and '-'");
    expect(files).toEqual([]);
  });

  test('the forced-downscale label given as a user node label fails with the construct path', () => {
    const { message, files } = synthFailure((cloud) => {
      const where = restrictedTo(placement(SchedulingKey.COMPUTE_HYPERVISOR), {
        'state.yaook.cloud/forced-downscale': 'true',
      });
      new TinyService(cloud, 'compute', ['agent'], where);
    });
    expect(message).toContain(
      '[prod/compute/agent] placement.nodeSelector uses the reserved label state.yaook.cloud/forced-downscale',
    );
    expect(files).toEqual([]);
  });

  test('a gating dependency on a disabled component says which one and how to fix it', () => {
    const { message } = synthFailure((cloud) => {
      const db = new TinyService(cloud, 'db');
      const api = new TinyService(cloud, 'api');
      db.parts.api.disable();
      api.parts.api.dependsOn(db);
    });
    expect(message).toContain(
      '[prod/api/api] depends on db-api (ready), which is disabled; enable prod/db/api or remove the dependency',
    );
  });

  test('an out-of-range option names the path and the accepted values', () => {
    const { message } = synthFailure((cloud) => {
      new MariaDB(cloud, 'db', { replicas: 2 });
    });
    expect(message).toContain('[prod/db] replicas must be odd so Galera keeps a quorum, got 2; use 3');
  });

  test('a disabled component synthesises nothing', () => {
    // GIVEN
    const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-')) });
    const cloud = new Cloud(app, 'prod', { namespace: 'openstack' });
    const svc = new TinyService(cloud, 'svc', ['on', 'off']);
    svc.parts.off.disable();

    // WHEN
    const names = cloud.toJson().map((o: { metadata: { name: string } }) => o.metadata.name);

    // THEN
    expect(names).toEqual(['openstack', 'openstack-control-plane', 'svc-on']);
  });
});
