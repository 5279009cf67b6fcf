import { serviceOf, tempestCounts } from './tempest-results';

const COMPUTE =
  'tempest.api.compute.servers.test_create_server.ServersTestJSON.test_list_servers[id-9a438d88-10c6-4bcd-8b5b-5b6e25e1346f,smoke]';
const NETWORK =
  'tempest.api.network.test_routers.RoutersTest.test_add_remove_router_interface_with_subnet_id[id-b42e6e39-2e37-49cc-a6f4-8467e940900a,smoke]';
const IDENTITY =
  'tempest.api.identity.admin.v3.test_trusts.TrustsV3TestJSON.test_get_trusts_all[id-4773ebd5-ecbf-4255-b8d8-b63e6f72b65d,smoke]';
const SCENARIO =
  'tempest.scenario.test_server_basic_ops.TestServerBasicOps.test_server_basic_ops[compute,id-7fff3fb3-91d8-4fd0-bd7d-0204f1f180ba,network,smoke]';

describe('serviceOf', () => {
  test.each([
    [COMPUTE, 'compute'],
    [NETWORK, 'network'],
    [IDENTITY, 'identity'],
    [SCENARIO, 'scenario'],
    ['setUpClass (tempest.api.image.v2.test_images.BasicOperationsImagesTest)', 'image'],
    ['subunit.parser', 'other'],
  ])('%s belongs to %s', (id, service) => {
    // WHEN / THEN
    expect(serviceOf(id)).toBe(service);
  });
});

describe('tempestCounts', () => {
  test('counts passed, failed and skipped per service and in total, with the cause of each failure and the skip reasons', () => {
    // GIVEN a run as subunit reports it
    const results = [
      { id: COMPUTE, status: 'success' },
      {
        id: COMPUTE.replace('test_list_servers', 'test_verify_server_details'),
        status: 'fail',
        traceback: [
          'Traceback (most recent call last):',
          '  File "tempest/common/waiters.py", line 136, in wait_for_server_status',
          '    raise lib_exc.TimeoutException(message)',
          '',
          'tempest.lib.exceptions.TimeoutException: Request timed out',
          'Details: (ServersTestJSON:setUpClass) Server abc failed to reach ACTIVE status',
          '',
        ].join('\n'),
      },
      { id: NETWORK, status: 'skip', reason: 'Public network id is required' },
      { id: NETWORK.replace('RoutersTest', 'RoutersIpV6Test'), status: 'xfail' },
      { id: IDENTITY, status: 'inprogress' },
      { id: SCENARIO, status: 'uxsuccess' },
      { id: IDENTITY.replace('test_get_trusts_all', 'test_listed'), status: 'exists' },
      { id: 'setUpClass (tempest.api.image.v2.test_images.BasicOperationsImagesTest)', status: 'fail' },
    ];
    // WHEN
    const counts = tempestCounts(results);
    // THEN
    expect(counts.byService).toEqual({
      compute: { passed: 1, failed: 1, skipped: 0 },
      network: { passed: 1, failed: 0, skipped: 1 },
      identity: { passed: 0, failed: 1, skipped: 0 },
      scenario: { passed: 0, failed: 1, skipped: 0 },
      image: { passed: 0, failed: 1, skipped: 0 },
    });
    expect(counts.total).toEqual({ passed: 2, failed: 4, skipped: 1 });
    expect(counts.failures).toEqual([
      {
        id: results[1].id,
        cause:
          'raise lib_exc.TimeoutException(message) | tempest.lib.exceptions.TimeoutException: Request timed out | ' +
          'Details: (ServersTestJSON:setUpClass) Server abc failed to reach ACTIVE status',
      },
      { id: IDENTITY, cause: 'status inprogress, no traceback' },
      { id: SCENARIO, cause: 'status uxsuccess, no traceback' },
      {
        id: 'setUpClass (tempest.api.image.v2.test_images.BasicOperationsImagesTest)',
        cause: 'status fail, no traceback',
      },
    ]);
    expect(counts.skips).toEqual([{ id: NETWORK, reason: 'Public network id is required' }]);
  });

  test('an empty run counts nothing', () => {
    // WHEN / THEN
    expect(tempestCounts([])).toEqual({
      byService: {},
      total: { passed: 0, failed: 0, skipped: 0 },
      failures: [],
      skips: [],
    });
  });
});
