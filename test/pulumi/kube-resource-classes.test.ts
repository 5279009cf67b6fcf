import * as pulumi from '@pulumi/pulumi';
import { kubeResourceClass, TYPED_KUBERNETES_TYPES, typedClassTokens } from '../../lib/pulumi';
import { installRecordingMocks } from './support/recording-monitor';

/** Fields some typed classes insist on client-side (the API server would reject the object without them). */
const REQUIRED_FIELDS = {
  spec: {},
  data: {},
  target: {},
  involvedObject: {},
  addressType: 'IPv4',
  handler: 'runc',
  roleRef: {},
  value: 1,
  storageClassName: 'standard',
  provisioner: 'example.org/disk',
};

describe('kubeResourceClass', () => {
  test('the class table and the pure token list name the same kinds', () => {
    expect(typedClassTokens()).toEqual([...TYPED_KUBERNETES_TYPES].sort());
  });

  test('every typed class registers under its own token, and anything else as a CustomResource', async () => {
    // GIVEN
    const { registrations, settle } = await installRecordingMocks();
    const tokens = [...TYPED_KUBERNETES_TYPES, 'kubernetes:example.org/v1:Backup'];

    // WHEN
    const resources = tokens.map((token, i) => {
      const [, groupVersion, kind] = token.split(':');
      const apiVersion = groupVersion.replace(/^core\//, '');
      const Resource = kubeResourceClass(token);
      return new Resource(`r${i}`, {
        apiVersion,
        kind,
        metadata: { name: `r${i}` },
        ...REQUIRED_FIELDS,
      }) as pulumi.CustomResource;
    });
    await settle(resources);

    // THEN
    expect(tokens.map((_, i) => registrations.find((r) => r.name === `r${i}`)?.type)).toEqual(tokens);
  });
});
