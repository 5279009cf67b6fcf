import { App } from 'cdk8s';
import { createHash } from 'crypto';
import { CONFIG_CHECKSUM_ANNOTATION } from '../../constructs/kube/config-files';
import { MariaDB, Memcached } from '../../constructs/infra';
import { Keystone, KeystoneProps, Placement } from '../../constructs/openstack';
import { Annotations, KubeObject } from '../../lib/graph';
import { Cloud } from '../../lib/model';
import { findObject, podSpecOf, synthObjects } from '../../lib/testing';
import { referenceCloud } from '../../stacks/reference-cloud';

const template = (o: KubeObject) =>
  (o.spec as { template?: { metadata?: { annotations?: Record<string, string> } } } | undefined)?.template;

function smallCloud(keystone: Partial<KeystoneProps> = {}): KubeObject[] {
  const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
  const database = new MariaDB(cloud, 'db');
  const cache = new Memcached(cloud, 'memcached');
  const identity = new Keystone(cloud, 'keystone', { database, cache, ...keystone });
  new Placement(cloud, 'placement', { keystone: identity, database, cache });
  return synthObjects(cloud);
}

describe('config hashes', () => {
  test("a pod's config hash is the hash of its own component's ConfigMap and nothing else", () => {
    // GIVEN the reference cloud
    const objects = synthObjects(referenceCloud(new App()));
    // WHEN every pod template with a config hash is compared with the ConfigMap it mounts
    const hashed = objects.filter((o) => template(o)?.metadata?.annotations?.[CONFIG_CHECKSUM_ANNOTATION]);
    expect(hashed.length).toBeGreaterThan(20);
    for (const workload of hashed) {
      const volume = (podSpecOf(workload).volumes as { name: string; configMap?: { name: string } }[]).find(
        (v) => v.name === 'config',
      );
      const configMap = findObject(objects, 'ConfigMap', volume?.configMap?.name ?? '(none)');
      const data = (configMap as unknown as { data: Record<string, string> }).data;
      // THEN the hash covers exactly that ConfigMap's files (no Secret, key or credential), which
      // belongs to the same component
      expect({
        workload: workload.metadata.name,
        hash: template(workload)?.metadata?.annotations?.[CONFIG_CHECKSUM_ANNOTATION],
      }).toEqual({
        workload: workload.metadata.name,
        hash: createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 16),
      });
      expect(configMap.metadata.annotations?.[Annotations.COMPONENT]).toBe(
        workload.metadata.annotations?.[Annotations.COMPONENT],
      );
    }
  });

  test('Keystone mounts its rotating keys as whole Secret volumes, so a rotation reaches the pods without a roll', () => {
    // GIVEN Keystone's API pods
    const api = findObject(smallCloud(), 'Deployment', 'keystone-api');
    const spec = podSpecOf(api);
    const secretVolumes = (spec.volumes as { name: string; secret?: unknown }[])
      .filter((v) => v.secret)
      .map((v) => v.name);
    // WHEN their key mounts are read
    const mounts = (spec.containers as { volumeMounts: { name: string; subPath?: string }[] }[]).flatMap(
      (c) => c.volumeMounts,
    );
    const keyMounts = mounts.filter((m) => secretVolumes.includes(m.name));
    // THEN the keys are Secret volumes mounted without subPath (kubelet updates them in place)
    expect(keyMounts.length).toBeGreaterThanOrEqual(2);
    expect(keyMounts.filter((m) => m.subPath !== undefined)).toEqual([]);
  });

  test('a config change rolls only the pods of the component whose config changed', () => {
    // GIVEN a cloud, and the same cloud with one Keystone option changed
    const before = smallCloud();
    const after = smallCloud({ config: { token: { expiration: 7200 } } });
    const templateOf = (objects: KubeObject[], name: string) =>
      JSON.stringify(template(findObject(objects, 'Deployment', name)));
    // WHEN the API pod templates are compared
    // THEN Keystone's changed (it rolls) and Placement's did not (it stays)
    expect(templateOf(after, 'keystone-api')).not.toBe(templateOf(before, 'keystone-api'));
    expect(templateOf(after, 'placement-api')).toBe(templateOf(before, 'placement-api'));
  });
});
