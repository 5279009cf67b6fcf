import { App } from 'cdk8s';
import { referenceCloud } from '../../stacks/reference-cloud';
import { synthObjects } from '../../lib/testing';

describe('reference cloud', () => {
  const objects = synthObjects(referenceCloud(new App()));

  test('matches the snapshot', () => {
    expect(objects).toMatchSnapshot();
  });

  test('no Secret in the output carries literal data', () => {
    const secrets = objects.filter((o) => o.kind === 'Secret');
    for (const secret of secrets) {
      expect(secret.data).toBeUndefined();
      expect(secret.stringData).toBeUndefined();
    }
    const text = JSON.stringify(objects);
    expect(text).not.toMatch(/password\s*[=:]\s*[A-Za-z0-9]{8,}/i);
  });

  test('every object is labelled and annotated with the graph', () => {
    for (const o of objects.filter((x) => x.kind !== 'Namespace')) {
      expect(o.metadata.labels?.['app.kubernetes.io/managed-by']).toBe('stackwright');
      expect(o.metadata.labels?.['app.kubernetes.io/part-of']).toBe('openstack');
      expect(o.metadata.annotations?.['stackwright.io/component']).toBeTruthy();
    }
  });
});
