import { parseApiVersion, pulumiTypeToken } from '../../lib/pulumi';

describe('pulumiTypeToken', () => {
  test.each([
    ['v1', 'Secret', 'kubernetes:core/v1:Secret'],
    ['apps/v1', 'Deployment', 'kubernetes:apps/v1:Deployment'],
    ['batch/v1', 'Job', 'kubernetes:batch/v1:Job'],
    ['rbac.authorization.k8s.io/v1', 'RoleBinding', 'kubernetes:rbac.authorization.k8s.io/v1:RoleBinding'],
    ['k8s.mariadb.com/v1alpha1', 'MariaDB', 'kubernetes:k8s.mariadb.com/v1alpha1:MariaDB'],
  ])('%s %s -> %s', (apiVersion, kind, token) => {
    // WHEN / THEN
    expect(pulumiTypeToken(apiVersion, kind)).toBe(token);
  });

  test.each(['', '/v1', 'apps/', 'a/b/c'])('rejects the malformed apiVersion "%s"', (apiVersion) => {
    // WHEN / THEN
    expect(() => parseApiVersion(apiVersion)).toThrow(`malformed apiVersion "${apiVersion}"`);
  });
});
