import {
  generatedReleases,
  loadOpenStackSchema,
  OpenStackSchemaName,
} from '../../../constructs/openstack-kit/openstack-option-schema';
import { osloEnv, OsloSchema, osloProblems, renderOslo } from '../../../constructs/openstack-kit/oslo-config';
import { SUPPORTED_RELEASES } from '../../../lib/graph';

const SCHEMA_NAMES: readonly OpenStackSchemaName[] = [
  'keystone',
  'glance-api',
  'placement',
  'nova',
  'neutron',
  'neutron-ovn-metadata-agent',
  'cinder',
  'barbican',
  'heat',
  'ironic',
  'gnocchi',
  'ceilometer',
];

const SCHEMA: OsloSchema = {
  DEFAULT: {
    workers: { type: 'int', osloType: 'integer value', min: 1, max: 8, help: 'Number of workers.' },
    mode: { type: 'string', osloType: 'string value', choices: ['a', 'b'] },
    ratio: 'float',
    new_name: {
      type: 'string',
      osloType: 'string value',
      deprecatedNames: [{ section: 'DEFAULT', name: 'old_name' }],
    },
  },
  notify: { driver: { type: 'multi', osloType: 'multi valued' }, topics: 'list' },
  store: { enabled: { type: 'dict', osloType: 'dict value' } },
};

describe('renderOslo', () => {
  test('writes each type as oslo.config parses it', () => {
    // GIVEN / WHEN
    const text = renderOslo(
      {
        notify: { driver: ['messagingv2', 'log'], topics: ['a', 'b'] },
        store: { enabled: { file: 'file', ceph: 'rbd' } },
        DEFAULT: { ratio: 16, workers: 2 },
      },
      SCHEMA,
    );
    // THEN a multi-valued option is one line per value, a list one comma-joined line, a dict k:v
    expect(text).toBe(
      '[DEFAULT]\nratio = 16.0\nworkers = 2\n\n' +
        '[notify]\ndriver = messagingv2\ndriver = log\ntopics = a,b\n\n' +
        '[store]\nenabled = ceph:rbd,file:file\n',
    );
  });
});

describe('osloEnv', () => {
  test('one variable per option, named as the environment source reads them, valued as in a file', () => {
    expect(
      osloEnv({
        service_user: { send_service_user_token: true, auth_type: 'password' },
        placement: { valid_interfaces: ['internal', 'public'], timeout: 30 },
      }),
    ).toEqual([
      { name: 'OS_PLACEMENT__TIMEOUT', value: '30' },
      { name: 'OS_PLACEMENT__VALID_INTERFACES', value: 'internal,public' },
      { name: 'OS_SERVICE_USER__AUTH_TYPE', value: 'password' },
      { name: 'OS_SERVICE_USER__SEND_SERVICE_USER_TOKEN', value: 'true' },
    ]);
  });

  test('refuses what would not read back, as a file would', () => {
    expect(() => osloEnv({ placement: { auth_url: 'http://a\nb' } })).toThrow(/line break|placement/);
  });
});

describe('osloProblems', () => {
  test('range, choices, type and deprecated names are reported with the type, help and new name', () => {
    // WHEN
    const problems = osloProblems('x.conf', SCHEMA, {
      DEFAULT: { workers: 9, mode: 'c', ratio: 'high', old_name: 'v' },
      notify: { driver: 'log' },
    });
    // THEN
    expect(problems).toEqual([
      'x.conf: [DEFAULT] workers must be <= 8, got 9 (type: integer value; help: Number of workers.)',
      'x.conf: [DEFAULT] mode must be one of "a", "b", got "c" (type: string value)',
      'x.conf: [DEFAULT] ratio must be a number, got "high" (type: a number)',
      'x.conf: [DEFAULT] old_name is a deprecated name of [DEFAULT] new_name; set [DEFAULT] new_name instead (type: string value)',
      'x.conf: [notify] driver must be a list of strings (one line per value), got "log" (type: multi valued)',
    ]);
  });
});

describe('the generated 2025.1 schemas', () => {
  test('carry the real types of the options the issue found mistyped', () => {
    // GIVEN / WHEN
    const nova = loadOpenStackSchema('nova', '2025.1');
    const glance = loadOpenStackSchema('glance-api', '2025.1');
    // THEN
    expect(nova?.versions.nova).toBe('31.3.1');
    expect(nova?.sections.oslo_messaging_notifications.driver).toMatchObject({ type: 'multi' });
    expect(nova?.sections.pci.device_spec).toMatchObject({ type: 'multi' });
    expect(nova?.sections.DEFAULT.max_concurrent_builds).toMatchObject({ type: 'int', min: 0 });
    expect(nova?.sections.compute.max_concurrent_builds).toBeUndefined();
    // the texts are in nova.help.json, read only to explain a problem (the glance tests read one)
    expect(nova?.sections.DEFAULT.max_concurrent_builds).not.toHaveProperty('help');
    expect(glance?.sections.image_import_opts.image_import_plugins).toMatchObject({
      type: 'list',
      bracketed: true,
    });
    expect(glance?.sections.DEFAULT.enabled_backends).toMatchObject({ type: 'dict' });
    expect(loadOpenStackSchema('neutron', '2025.1')?.sections.DEFAULT.allow_overlapping_ips).toBeUndefined();
    expect(loadOpenStackSchema('gnocchi', '2025.1')?.sections.DEFAULT.use_stderr).toBeUndefined();
  });

  test('every supported release carries a generated schema for every service', () => {
    // GIVEN the releases a cloud accepts and the schema files the package ships
    // WHEN / THEN they are the same releases, and each has every service's schema
    expect(generatedReleases()).toEqual([...SUPPORTED_RELEASES]);
    for (const release of SUPPORTED_RELEASES) {
      for (const name of SCHEMA_NAMES) expect(loadOpenStackSchema(name, release)?.release).toBe(release);
    }
  });
});
