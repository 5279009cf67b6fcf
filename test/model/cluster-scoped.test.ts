import { App, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-33';
import { Cloud } from '../../lib/model';
import { synthObjects } from '../../lib/testing';
import { TinyService } from '../support/tiny-service';

/** A cloud in namespace `openstack` whose `api` component also owns a ClusterRole and a Role. */
function cloudWithRbac(): Cloud {
  const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
  const service = new TinyService(cloud, 'svc');
  new k8s.KubeClusterRole(service.parts.api, 'reader', { metadata: { name: 'svc-reader' } });
  new k8s.KubeRole(service.parts.api, 'role', { metadata: { name: 'svc-role' } });
  return cloud;
}

const namespaceOf = (objects: ReturnType<typeof synthObjects>, kind: string) =>
  objects.find((o) => o.kind === kind)?.metadata.namespace;

describe('cluster-scoped objects in a namespaced cloud', () => {
  test("lose the cloud's namespace; namespaced ones keep it", () => {
    const objects = synthObjects(cloudWithRbac());
    expect(namespaceOf(objects, 'ClusterRole')).toBeUndefined();
    expect(namespaceOf(objects, 'Role')).toBe('openstack');
    expect(namespaceOf(objects, 'Deployment')).toBe('openstack');
  });

  test('come before the namespaced RBAC in the file, and rendering twice gives the same output', () => {
    const cloud = cloudWithRbac();
    const first = Testing.synth(cloud);
    const second = Testing.synth(cloud);
    expect(second).toEqual(first);
    expect(first.map((o) => o.kind)).toEqual([
      'Namespace',
      'PriorityClass',
      'ClusterRole',
      'Role',
      'Deployment',
    ]);
  });
});
