import { App } from 'cdk8s';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Keystone } from '../../../constructs/openstack/keystone';
import { Glance } from '../../../constructs/openstack/glance';
import { TEMPEST_RELEASES, tempestConfig, tempestVersion } from '../../../constructs/tempest';
import { Cloud } from '../../../lib/model';
import { referenceCloud } from '../../../stacks/reference-cloud';
import { baseCloud, errorOf } from '../support/compute-network-fixture';

const IDS = { imageRef: 'b1f0c0de-0000-4000-8000-000000000001', flavorRef: 'f1' };

describe('tempestConfig', () => {
  test('points Tempest at Keystone inside the cluster, as the admin, without the password', () => {
    // GIVEN a cloud with Keystone only, in region Lab
    const { cloud, keystone } = baseCloud({ region: 'Lab' });
    // WHEN
    const tempest = tempestConfig(cloud, IDS);
    // THEN
    expect(tempest.values.identity).toEqual({
      uri_v3: 'http://keystone-api.openstack.svc:5000/v3',
      region: 'Lab',
      v3_endpoint_type: 'internal',
    });
    expect(tempest.values.auth).toMatchObject({
      admin_username: 'admin',
      admin_project_name: 'admin',
      admin_user_domain_name: 'Default',
      admin_project_domain_name: 'Default',
      use_dynamic_credentials: true,
    });
    expect(tempest.file).not.toMatch(/password/);
    expect(tempest.secretEnv).toEqual({
      OS_AUTH__ADMIN_PASSWORD: keystone.adminCredentials.ref('password'),
    });
  });

  test('marks available exactly the services the cloud has', () => {
    // GIVEN Keystone and Glance only; the reference cloud with every service
    const small = baseCloud();
    new Glance(small.cloud, 'glance', {
      keystone: small.keystone,
      database: small.database,
      cache: small.cache,
    });
    const full = referenceCloud(new App(), 'reference');
    // WHEN
    const smallFlags = tempestConfig(small.cloud, IDS).values.service_available;
    const fullConfig = tempestConfig(full, IDS);
    // THEN
    expect(smallFlags).toEqual({
      cinder: false,
      glance: true,
      neutron: false,
      nova: false,
      swift: false,
      horizon: false,
    });
    expect(fullConfig.values.service_available).toEqual({
      cinder: true,
      glance: true,
      neutron: true,
      nova: true,
      swift: false,
      horizon: false,
    });
    expect(fullConfig.values.volume).toEqual({ endpoint_type: 'internal' });
    expect(fullConfig.values.placement).toEqual({ endpoint_type: 'internal' });
    expect(tempestConfig(small.cloud, IDS).values.placement).toBeUndefined();
  });

  test('fills the ids the caller created and switches off what these clouds cannot do', () => {
    // GIVEN
    const { cloud } = baseCloud();
    // WHEN
    const { values } = tempestConfig(cloud, { ...IDS, flavorRefAlt: 'f2', buildTimeoutSeconds: 900 });
    // THEN
    expect(values.compute).toEqual({
      endpoint_type: 'internal',
      image_ref: IDS.imageRef,
      image_ref_alt: IDS.imageRef,
      flavor_ref: 'f1',
      flavor_ref_alt: 'f2',
      build_timeout: 900,
    });
    expect(values['compute-feature-enabled']).toEqual({
      live_migration: false,
      cold_migration: false,
      resize: false,
      console_output: true,
    });
    expect(values.validation).toEqual({ run_validation: false, connect_method: 'fixed' });
    expect(values['network-feature-enabled']).toEqual({ floating_ips: false });
    expect(values.image).toEqual({ endpoint_type: 'internal', build_timeout: 900 });
  });

  test('lists the network extensions the caller read from the cloud, or leaves Tempest at all', () => {
    // GIVEN a cloud
    const { cloud } = baseCloud();
    // WHEN the caller passes the extensions the running Neutron serves, and when it does not
    const listed = tempestConfig(cloud, { ...IDS, networkExtensions: ['router', 'security-group'] });
    const unlisted = tempestConfig(cloud, IDS);
    // THEN only the listed ones are expected, comma-joined as oslo.config reads a list
    expect(listed.file).toMatch(/^api_extensions = router,security-group$/m);
    expect(unlisted.values['network-feature-enabled']).not.toHaveProperty('api_extensions');
    expect(errorOf(() => tempestConfig(cloud, { ...IDS, networkExtensions: [''] }))).toMatch(
      /networkExtensions/,
    );
  });

  test('tests routers with gateways and floating IPs when the caller names an external network', () => {
    // GIVEN a cloud
    const { cloud } = baseCloud();
    // WHEN with and without an external network
    const withPublic = tempestConfig(cloud, { ...IDS, publicNetworkId: 'pub-1' });
    const without = tempestConfig(cloud, IDS);
    // THEN
    expect(withPublic.values.network).toMatchObject({ public_network_id: 'pub-1' });
    expect(withPublic.values['network-feature-enabled']).toMatchObject({ floating_ips: true });
    expect(without.values.network).not.toHaveProperty('public_network_id');
    expect(without.values['network-feature-enabled']).toMatchObject({ floating_ips: false });
  });

  test('renders an oslo.config file with one section per group', () => {
    // GIVEN
    const { cloud } = baseCloud();
    // WHEN
    const { file } = tempestConfig(cloud, IDS);
    // THEN
    expect(file).toContain('[validation]\nconnect_method = fixed\nrun_validation = false\n');
    expect(file).toContain(`[compute]\nbuild_timeout = 300\nendpoint_type = internal\nflavor_ref = f1\n`);
    expect(file.match(/^\[[a-z_-]+\]$/gm)).toEqual([
      '[auth]',
      '[compute]',
      '[compute-feature-enabled]',
      '[identity]',
      '[image]',
      '[network]',
      '[network-feature-enabled]',
      '[service_available]',
      '[validation]',
    ]);
  });

  test('refuses a cloud without Keystone, or with two, naming the cloud and the fix', () => {
    // GIVEN
    const empty = new Cloud(new App(), 'lab', { namespace: 'openstack' });
    const { cloud, database, cache } = baseCloud();
    new Keystone(cloud, 'keystone2', { database, cache });
    // WHEN / THEN
    expect(errorOf(() => tempestConfig(empty, IDS))).toBe(
      '[lab] tempestConfig needs exactly one Keystone in the cloud, found 0; add one (new Keystone(cloud, ...)) before generating tempest.conf',
    );
    expect(errorOf(() => tempestConfig(cloud, IDS))).toMatch(
      /^\[prod\] tempestConfig needs exactly one Keystone in the cloud, found 2 \(prod\/keystone, prod\/keystone2\)/,
    );
  });

  test('refuses missing or bad ids and timeouts before writing anything', () => {
    // GIVEN
    const { cloud } = baseCloud();
    // WHEN
    const message = errorOf(() =>
      tempestConfig(cloud, { imageRef: '', flavorRef: 'a\nb', buildTimeoutSeconds: 5 } as never),
    );
    // THEN
    expect(message.split('\n')).toEqual([
      expect.stringMatching(/^\[prod\] imageRef is empty/),
      expect.stringMatching(/^\[prod\] flavorRef .*one line/),
      expect.stringMatching(/^\[prod\] buildTimeoutSeconds .*30/),
    ]);
  });

  test('is written for the Tempest pinned for the cloud release, and refuses a release without one', () => {
    // GIVEN
    const current = baseCloud().cloud;
    const older = new Cloud(new App(), 'old', { namespace: 'openstack', release: '2024.2' });
    // WHEN / THEN
    expect(tempestConfig(current, IDS).tempestVersion).toBe('43.0.0');
    expect(errorOf(() => tempestVersion('2024.2', 'old'))).toBe(
      '[old] no Tempest release is pinned for OpenStack 2024.2 (pinned: 2025.1); add it to TEMPEST_RELEASES (constructs/tempest/tempest-release.ts) and build its image (images/tempest.toml)',
    );
    expect(errorOf(() => tempestConfig(older, IDS))).toMatch(/^\[old\] no Tempest release is pinned/);
  });
});

describe('the Tempest image', () => {
  test('installs the Tempest pinned for each release it is tagged with', () => {
    // GIVEN images/tempest.toml
    const recipe = readFileSync(path.join(__dirname, '..', '..', '..', 'images', 'tempest.toml'), 'utf8');
    const tags = JSON.parse(/^tags = (\[.*\])$/m.exec(recipe)?.[1] ?? '[]') as string[];
    const pins = [...recipe.matchAll(/"tempest==([^"]+)"/g)].map((m) => m[1]);
    // THEN
    expect(tags.length).toBeGreaterThan(0);
    expect(pins).toEqual(tags.map((tag) => TEMPEST_RELEASES[tag as keyof typeof TEMPEST_RELEASES]));
  });
});
