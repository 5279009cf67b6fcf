import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart } from 'cdk8s';
import { Memcached } from '../../constructs/infra';
import { Cloud, Component, JsonApiObject } from '../../lib/model';
import { k8s } from 'cdk8s-plus-33';

function synth(build: (app: App) => void): { message: string; files: string[] } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-stray-'));
  const app = new App({ outdir });
  let message = '';
  try {
    build(app);
    app.synth();
  } catch (error) {
    message = error instanceof Error ? error.message : String(error);
  }
  return { message, files: fs.readdirSync(outdir) };
}

const deployment = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name } });

describe('objects no component owns', () => {
  test('a workload inside a cloud but outside every component is refused at synth, by its path', () => {
    // GIVEN a raw Deployment directly under the cloud
    const { message, files } = synth((app) => {
      const cloud = new Cloud(app, 'prod', { namespace: 'openstack' });
      new Memcached(cloud, 'cache');
      new ApiObject(cloud, 'web', deployment('web'));
    });
    // THEN refused with the path and the fix, and nothing written
    expect(message).toContain(
      '[prod] prod/web: a Deployment outside every component has no place in the rollout (no edges, no readiness gate); ' +
        "create it inside a Component (new Component(cloud, 'extras') and new JsonApiObject(component, …))",
    );
    expect(files).toEqual([]);
  });

  test('bootstrap kinds may stand outside a component, and a workload inside one of your own is fine', () => {
    // GIVEN a shared ConfigMap under the cloud and a Deployment in a component of the user's
    const { message, files } = synth((app) => {
      const cloud = new Cloud(app, 'prod', { namespace: 'openstack' });
      new ApiObject(cloud, 'settings', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'settings' },
      });
      const extras = new Component(cloud, 'extras');
      new JsonApiObject(extras, 'web', k8s.KubeDeployment, {
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'web', image: 'web:1' }] },
          },
        },
      });
    });
    // THEN it synthesises
    expect(message).toBe('');
    expect(files).toEqual(['prod.k8s.yaml']);
  });

  test('an object in another chart of the App is refused once, even with several clouds', () => {
    // GIVEN two clouds and a foreign chart with a ConfigMap (a bootstrap kind: still no cloud's)
    const { message, files } = synth((app) => {
      new Memcached(new Cloud(app, 'one', { namespace: 'one' }), 'cache');
      new Memcached(new Cloud(app, 'two', { namespace: 'two' }), 'cache');
      new ApiObject(new Chart(app, 'other'), 'cm', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'x' },
      });
    });
    // THEN reported by the first cloud only, naming the object's path and both fixes
    expect(message.match(/other\/cm/g)).toHaveLength(1);
    expect(message).toContain(
      '[one] other/cm: ConfigMap "x" is in the same App as this cloud but in no cloud; the output directory is read as ' +
        "the cloud's graph (deploy, graph, the exports), which would refuse it: move it into the cloud inside a Component, " +
        "or synthesise it with an App of its own and another outdir (new App({ outdir: 'dist-extra' }))",
    );
    expect(files).toEqual([]);
  });
});
