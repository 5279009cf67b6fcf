import { App } from 'cdk8s';
import { completeServiceHost, completeServiceUrl } from '../../../constructs/kube/service-host';
import { Cloud } from '../../../lib/model';

describe('names of the cloud that resolve from both of its namespaces', () => {
  const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });

  test('a bare Service name is completed with the control plane namespace', () => {
    expect(cloud.serviceHost('keystone-api')).toBe('keystone-api.openstack.svc');
    expect(cloud.serviceHost('memcached-0.memcached')).toBe('memcached-0.memcached.openstack.svc');
    expect(completeServiceHost(cloud, 'nova-metadata')).toBe('nova-metadata.openstack.svc');
  });

  test('a host with a dot or a port, and an address, are taken as given', () => {
    expect(completeServiceHost(cloud, 'metadata.example.com')).toBe('metadata.example.com');
    expect(completeServiceHost(cloud, '10.0.0.5')).toBe('10.0.0.5');
    expect(completeServiceHost(cloud, '[fd00::1]:8775')).toBe('[fd00::1]:8775');
  });

  test("only a URL's host is completed: scheme, port, path and templates stay", () => {
    expect(completeServiceUrl(cloud, 'http://cinder-api:8776/v3/%(project_id)s')).toBe(
      'http://cinder-api.openstack.svc:8776/v3/%(project_id)s',
    );
    expect(completeServiceUrl(cloud, 'https://glance.example.com:9292')).toBe(
      'https://glance.example.com:9292',
    );
    expect(completeServiceUrl(cloud, 'http://placement-api')).toBe('http://placement-api.openstack.svc');
    expect(completeServiceUrl(cloud, 'http://[fd00::1]:8776/v3')).toBe('http://[fd00::1]:8776/v3');
    expect(completeServiceUrl(cloud, 'http://user@api:1')).toBe('http://user@api:1');
  });
});
