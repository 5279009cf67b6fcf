import { App } from 'cdk8s';
import { commonInputHints, COMMON_INPUT_HINTS, requireInputs } from '../../../constructs';
import { Cloud } from '../../../lib/model';

describe('commonInputHints', () => {
  test('returns the named hints in the order given', () => {
    // WHEN
    const hints = commonInputHints('messaging', 'keystone');
    // THEN
    expect(Object.entries(hints)).toEqual([
      ['messaging', COMMON_INPUT_HINTS.messaging],
      ['keystone', COMMON_INPUT_HINTS.keystone],
    ]);
  });

  test("requireInputs names each missing common input with the shared hint and the service's own", () => {
    // GIVEN
    const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
    const props: { keystone?: object; cache?: object; gnocchi?: object } = { keystone: {} };
    // WHEN
    const check = () =>
      requireInputs(cloud, props, {
        ...commonInputHints('keystone', 'cache'),
        gnocchi: 'the Gnocchi service',
      });
    // THEN
    expect(check).toThrow(
      '[prod] missing required input "cache": pass a Memcached or externalCache(...) as `cache`',
    );
    expect(check).toThrow('[prod] missing required input "gnocchi": pass the Gnocchi service as `gnocchi`');
  });
});
