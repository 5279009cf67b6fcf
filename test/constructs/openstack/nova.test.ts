import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { OvsdbCluster } from '../../../constructs/infra';
import { Glance } from '../../../constructs/openstack/glance';
import { Neutron, NeutronProps } from '../../../constructs/openstack/neutron';
import { Nova, NovaProps } from '../../../constructs/openstack/nova';
import { LIBVIRTD_START } from '../../../constructs/openstack/nova-compute';
import { Placement } from '../../../constructs/openstack/placement';
import { Annotations, KubeObject } from '../../../lib/graph';
import { Component } from '../../../lib/model';
import { SchedulingKey } from '../../../lib/scheduling';
import { edgesOf, findObject, podSpecOf, synthObjects } from '../../../lib/testing';
import {
  baseCloud,
  commandOf,
  edgesFrom,
  envOf,
  errorOf,
  expectPlacedOn,
  fileOf,
  keyTerms,
  objectsOfService,
  scriptOf,
  termsOf,
} from '../support/compute-network-fixture';

const HYPERVISOR = 'compute.yaook.cloud/hypervisor';
const NO_OVN_MAINTENANCE = {
  key: 'maintenance.yaook.cloud/ovn-maintenance',
  operator: 'In',
  values: ['not-required'],
};

function novaCloud(
  props: Partial<NovaProps> | ((base: ReturnType<typeof baseCloud>) => Partial<NovaProps>) = {},
  neutronProps: Partial<NeutronProps> = {},
) {
  const base = baseCloud();
  const { cloud, keystone, database, messaging, cache } = base;
  const ovsdb = new OvsdbCluster(cloud, 'ovsdb');
  const neutron = new Neutron(cloud, 'neutron', {
    keystone,
    database,
    messaging,
    cache,
    ovsdb,
    ...neutronProps,
  });
  const placement = new Placement(cloud, 'placement', { keystone, database, cache });
  const glance = new Glance(cloud, 'glance', { keystone, database, cache });
  const extra = typeof props === 'function' ? props(base) : props;
  const nova = new Nova(cloud, 'nova', {
    keystone,
    database,
    messaging,
    cache,
    placement,
    glance,
    neutron,
    ...extra,
  });
  return { ...base, ovsdb, neutron, placement, glance, nova };
}

const workloads = (objects: readonly KubeObject[]) =>
  objects.filter((o) => ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(o.kind));

describe('Nova (one cell)', () => {
  // GIVEN a cloud with Nova and the services it needs
  const { cloud } = novaCloud();
  // WHEN
  const objects = synthObjects(cloud);

  test('matches the snapshot', () => {
    // THEN
    expect(objectsOfService(objects, 'nova')).toMatchSnapshot();
  });

  test('has the components of cells v2', () => {
    // THEN
    expect(
      workloads(objectsOfService(objects, 'nova'))
        .map((o) => `${o.kind}/${o.metadata.annotations?.[Annotations.COMPONENT]}`)
        .sort(),
    ).toEqual([
      'DaemonSet/nova-compute',
      'DaemonSet/nova-libvirt',
      'Deployment/nova-api',
      'Deployment/nova-conductor',
      'Deployment/nova-metadata',
      'Deployment/nova-scheduler',
      'Deployment/nova-vnc',
      'Job/nova-api-db-credentials',
      'Job/nova-api-db-init',
      'Job/nova-api-db-sync',
      'Job/nova-cell-mapping',
      'Job/nova-cell-setup',
      'Job/nova-cell0-db-credentials',
      'Job/nova-cell0-db-init',
      'Job/nova-cell0-db-sync',
      'Job/nova-cell1-db-credentials',
      'Job/nova-cell1-db-init',
      'Job/nova-cell1-db-sync',
      'Job/nova-cell1-mq-credentials',
      'Job/nova-cell1-mq-init',
      'Job/nova-ks-register',
      'Job/nova-ks-register-credentials',
    ]);
  });

  test.each([
    ['Deployment', 'nova-api', [SchedulingKey.COMPUTE_API, SchedulingKey.ANY_API]],
    ['Deployment', 'nova-metadata', [SchedulingKey.COMPUTE_METADATA_API, SchedulingKey.ANY_API]],
    [
      'Deployment',
      'nova-conductor',
      [SchedulingKey.COMPUTE_NOVA_CONDUCTOR, SchedulingKey.COMPUTE_NOVA_ANY_SERVICE],
    ],
    [
      'Deployment',
      'nova-scheduler',
      [SchedulingKey.COMPUTE_NOVA_SCHEDULER, SchedulingKey.COMPUTE_NOVA_ANY_SERVICE],
    ],
    ['Deployment', 'nova-vnc', [SchedulingKey.COMPUTE_VNC, SchedulingKey.COMPUTE_NOVA_ANY_SERVICE]],
    ['Job', 'nova-cell-setup', [SchedulingKey.OPERATOR_NOVA, SchedulingKey.OPERATOR_ANY]],
    ['Job', 'nova-api-db-sync', [SchedulingKey.OPERATOR_NOVA, SchedulingKey.OPERATOR_ANY]],
  ])('%s %s runs on its seed key and group', (kind, name, keys) => {
    // THEN
    expectPlacedOn(findObject(objects, kind, name), keys);
  });

  test.each(['nova-compute', 'nova-libvirt'])(
    '%s runs on hypervisors and requires the no-OVN-maintenance label in every term, privileged',
    (name) => {
      // THEN
      const daemonSet = findObject(objects, 'DaemonSet', name);
      expectPlacedOn(daemonSet, [HYPERVISOR], [NO_OVN_MAINTENANCE]);
      const spec = podSpecOf(daemonSet);
      expect(spec.hostNetwork).toBe(true);
      expect(
        (spec.containers as { securityContext: { privileged: boolean } }[])[0].securityContext.privileged,
      ).toBe(true);
    },
  );

  test('nova-compute carries the canonical edges', () => {
    // THEN
    expect(edgesOf(findObject(objects, 'DaemonSet', 'nova-compute'))).toEqual(
      edgesFrom('nova-compute', {
        runtime: ['glance-api', 'neutron-api'],
        ready: ['keystone-api', 'mq', 'nova-conductor', 'placement-api'],
        'same-node': ['neutron-ovn-agent', 'nova-libvirt'],
        completed: ['agent-secrets-nova-cell1-mq', 'agent-secrets-nova-keystone-user', 'nova-cell1-mq-init'],
      }),
    );
  });

  test('the API waits for its databases, cell mapping and infrastructure; placement, glance and neutron are runtime', () => {
    // THEN
    expect(edgesOf(findObject(objects, 'Deployment', 'nova-api'))).toEqual(
      edgesFrom('nova-api', {
        ready: ['cache', 'db', 'keystone-api', 'mq'],
        runtime: ['glance-api', 'neutron-api', 'placement-api'],
        completed: [
          'nova-api-db-sync',
          'nova-cell-mapping',
          'nova-cell0-db-sync',
          'nova-cell1-db-sync',
          'nova-cell1-mq-init',
          'nova-ks-register',
        ],
      }),
    );
  });

  test('the scheduler waits for placement', () => {
    // THEN
    expect(edgesOf(findObject(objects, 'Deployment', 'nova-scheduler'))).toContainEqual({
      from: 'nova-scheduler',
      to: 'placement-api',
      kind: 'ready',
    });
  });

  test('metadata and VNC proxy wait for the database sync', () => {
    // THEN
    expect(edgesOf(findObject(objects, 'Deployment', 'nova-metadata'))).toEqual(
      expect.arrayContaining([
        { from: 'nova-metadata', to: 'nova-api-db-sync', kind: 'completed' },
        { from: 'nova-metadata', to: 'neutron-metadata-secret', kind: 'completed' },
      ]),
    );
    expect(edgesOf(findObject(objects, 'Deployment', 'nova-vnc'))).toEqual(
      edgesFrom('nova-vnc', { ready: ['db'], completed: ['nova-cell-mapping', 'nova-cell1-db-sync'] }),
    );
  });

  test('cell setup (discover_hosts) waits for the API and every nova-compute', () => {
    // THEN
    expect(edgesOf(findObject(objects, 'Job', 'nova-cell-setup'))).toEqual(
      edgesFrom('nova-cell-setup', { ready: ['nova-api', 'nova-compute'] }),
    );
  });

  test('Neutron reaches Nova at run time: port events to the API, metadata to the metadata API', () => {
    // THEN
    expect(edgesOf(findObject(objects, 'Deployment', 'neutron-api'))).toContainEqual({
      from: 'neutron-api',
      to: 'nova-api',
      kind: 'runtime',
    });
    expect(edgesOf(findObject(objects, 'DaemonSet', 'neutron-ovn-metadata-agent'))).toContainEqual({
      from: 'neutron-ovn-metadata-agent',
      to: 'nova-metadata',
      kind: 'runtime',
    });
  });

  test('three databases with their own users, connections from Secrets', () => {
    // THEN
    const conductor = envOf(findObject(objects, 'Deployment', 'nova-conductor'));
    expect(conductor.OS_API_DATABASE__CONNECTION).toBe(
      'mysql+pymysql://nova_api:$(API_DB_PASSWORD)@db.openstack.svc:3306/nova_api?charset=utf8',
    );
    expect(conductor.OS_DATABASE__CONNECTION).toBe(
      'mysql+pymysql://nova_cell1:$(CELL_DB_PASSWORD)@db.openstack.svc:3306/nova_cell1?charset=utf8',
    );
    expect(conductor.OS_DEFAULT__TRANSPORT_URL).toBe(
      'rabbit://nova-cell1:$(MQ_PASSWORD)@mq.openstack.svc:5672/nova-cell1',
    );
    expect(envOf(findObject(objects, 'Job', 'nova-api-db-sync')).OS_API_DATABASE__CONNECTION).toBeDefined();
    expect(commandOf(findObject(objects, 'Job', 'nova-cell0-db-sync'))).toEqual([
      'nova-manage',
      'db',
      'sync',
      '--local_cell',
    ]);
    // the top level (API, metadata API, scheduler) records its services in cell0
    for (const [kind, name] of [
      ['Deployment', 'nova-api'],
      ['Deployment', 'nova-metadata'],
      ['Deployment', 'nova-scheduler'],
    ]) {
      expect(envOf(findObject(objects, kind, name)).OS_DATABASE__CONNECTION).toBe(
        'mysql+pymysql://nova_cell0:$(CELL0_DB_PASSWORD)@db.openstack.svc:3306/nova_cell0?charset=utf8',
      );
    }
    const mapping = envOf(findObject(objects, 'Job', 'nova-cell-mapping'));
    expect(mapping.CELL1_DATABASE).toBe(
      'mysql+pymysql://nova_cell1:$(CELL1_DB_PASSWORD)@db.openstack.svc:3306/nova_cell1?charset=utf8',
    );
    expect(mapping.CELL1_TRANSPORT).toBe(
      'rabbit://nova-cell1:$(CELL1_MQ_PASSWORD)@mq.openstack.svc:5672/nova-cell1',
    );
  });

  test("the API database's sync Job, which Nova's upgrade Jobs are made from, carries what nova-status upgrade check reads", () => {
    // THEN the template the upgrade finds first for nova (docs/upgrades.md, "Running the plan")
    const templates = objectsOfService(objects, 'nova').filter(
      (o) => o.kind === 'Job' && o.metadata.annotations?.[Annotations.UPGRADE_TEMPLATE] === 'schema-sync',
    );
    expect(templates[0].metadata.name).toMatch(/^nova-api-db-sync-/);
    const env = envOf(templates[0]);
    // … [placement] with the service user ("Placement API" asks Placement for its version)
    expect(env).toMatchObject({
      OS_PLACEMENT__AUTH_TYPE: 'password',
      OS_PLACEMENT__AUTH_URL: 'http://keystone-api.openstack.svc:5000/v3',
      OS_PLACEMENT__VALID_INTERFACES: 'internal',
      OS_PLACEMENT__USERNAME: { secretKeyRef: { name: 'nova-keystone-user', key: 'username' } },
      OS_PLACEMENT__PASSWORD: { secretKeyRef: { name: 'nova-keystone-user', key: 'password' } },
      // … and [service_user] ("Service User Token Configuration" fails without the token)
      OS_SERVICE_USER__SEND_SERVICE_USER_TOKEN: 'true',
      OS_SERVICE_USER__USERNAME: { secretKeyRef: { name: 'nova-keystone-user', key: 'username' } },
    });
  });

  test('renders nova.conf for the control plane and the hypervisors, with no credential in either', () => {
    // THEN
    const control = fileOf(objects, 'nova-api-config', 'nova.conf');
    expect(control).toContain('[placement]\nauth_type = password');
    expect(control).toContain('[neutron]\nauth_type = password');
    expect(control).toContain('service_metadata_proxy = true');
    const compute = fileOf(objects, 'nova-compute-config', 'nova.conf');
    expect(compute).toContain('[libvirt]\nvirt_type = kvm');
    expect(compute).toContain('novncproxy_base_url = http://nova-vnc.openstack.svc:6080/vnc_lite.html');
    expect(compute).toContain('compute_driver = libvirt.LibvirtDriver');
    expect(compute).toContain('[os_vif_ovs]\novsdb_connection = unix:/run/openvswitch/db.sock\n');
    // memcached only for the control plane: the fence does not open it to the host network
    expect(control).toMatch(/^\[cache\]\n(.*\n)*enabled = true$/m);
    expect(compute).not.toContain('[cache]');
    for (const conf of [control, compute])
      expect(conf).not.toMatch(/^(password|connection|transport_url|metadata_proxy_shared_secret)\s*=/m);
    expect(envOf(findObject(objects, 'DaemonSet', 'nova-compute')).OS_DEFAULT__MY_IP).toEqual({
      fieldRef: { fieldPath: 'status.hostIP' },
    });
  });
});

describe('Nova compute per-node configuration', () => {
  test('each class of hypervisors gets its own nova-compute DaemonSet, all requiring no OVN maintenance in every term', () => {
    // GIVEN
    const { cloud, nova } = novaCloud({
      compute: {
        configTemplates: [
          { nodeSelector: { 'example.com/gpu': 'true' }, config: { DEFAULT: { cpu_allocation_ratio: 4 } } },
          {
            nodeSelector: { 'compute.yaook.cloud/hypervisor-type': 'qemu' },
            config: { libvirt: { virt_type: 'qemu' } },
          },
        ],
      },
    });
    // WHEN
    const objects = synthObjects(cloud);
    // THEN
    const names = nova.compute[0].components.map((c) => c.componentName);
    expect(names).toHaveLength(4);
    expect(names[0]).toBe('nova-compute');
    for (const name of names) {
      const terms = termsOf(findObject(objects, 'DaemonSet', name));
      expect(terms.length).toBeGreaterThan(0);
      for (const term of terms) expect(term).toContainEqual(NO_OVN_MAINTENANCE);
      expect(edgesOf(findObject(objects, 'DaemonSet', name))).toContainEqual({
        from: name,
        to: 'nova-libvirt',
        kind: 'same-node',
      });
    }
    const both = names[3];
    expect(fileOf(objects, `${both}-config`, 'nova.conf')).toContain('cpu_allocation_ratio = 4');
    expect(fileOf(objects, `${both}-config`, 'nova.conf')).toContain('virt_type = qemu');
    expect(
      edgesOf(findObject(objects, 'Job', 'nova-cell-setup'))
        .map((e) => e.to)
        .sort(),
    ).toEqual(['nova-api', ...names].sort());
  });

  test('conflicting templates fail with the compute path, both templates and the option', () => {
    // GIVEN
    const { cloud } = novaCloud({
      compute: {
        configTemplates: [
          { nodeSelector: { 'example.com/gpu': 'true' }, config: { DEFAULT: { cpu_allocation_ratio: 4 } } },
          {
            nodeSelector: { 'topology.kubernetes.io/zone': 'a' },
            config: { DEFAULT: { cpu_allocation_ratio: 8 } },
          },
        ],
      },
    });
    // WHEN / THEN
    expect(errorOf(() => synthObjects(cloud))).toContain(
      '[prod/nova/cell1/compute] configTemplates[0] (nodeSelector {"example.com/gpu":"true"}) and configTemplates[1] ' +
        '(nodeSelector {"topology.kubernetes.io/zone":"a"}) can match the same node but set [DEFAULT] cpu_allocation_ratio to different values (4 and 8)',
    );
  });

  test('a template selecting the forced-downscale label fails naming the template', () => {
    // GIVEN
    const { cloud } = novaCloud({
      compute: {
        configTemplates: [{ nodeSelector: { 'state.yaook.cloud/forced-downscale': 'true' }, config: {} }],
      },
    });
    // WHEN / THEN
    expect(errorOf(() => synthObjects(cloud))).toContain(
      '[prod/nova/cell1/compute] configTemplates[0] (nodeSelector {"state.yaook.cloud/forced-downscale":"true"}) nodeSelector uses the reserved label',
    );
  });

  test('forcedDownscale empties nova-compute and libvirt with the reserved selector', () => {
    // GIVEN
    const { cloud } = novaCloud({ compute: { forcedDownscale: true } });
    // WHEN
    const objects = synthObjects(cloud);
    // THEN
    for (const name of ['nova-compute', 'nova-libvirt']) {
      expect(podSpecOf(findObject(objects, 'DaemonSet', name)).nodeSelector).toEqual({
        'state.yaook.cloud/forced-downscale': 'true',
      });
    }
  });
});

describe('Nova with two cells', () => {
  // GIVEN
  const { cloud, nova } = novaCloud({ cells: 2 });
  // WHEN
  const objects = synthObjects(cloud);

  test('the second cell has its own conductor, VNC proxy, database chain, vhost and nova-compute', () => {
    // THEN
    const names = workloads(objectsOfService(objects, 'nova')).map(
      (o) => o.metadata.annotations?.[Annotations.COMPONENT],
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'nova-cell2-conductor',
        'nova-cell2-vnc',
        'nova-cell2-compute',
        'nova-cell2-db-init',
        'nova-cell2-db-sync',
        'nova-cell2-mq-init',
      ]),
    );
    expect(nova.cells.map((c) => c.name)).toEqual(['cell1', 'cell2']);
    const conductor = envOf(findObject(objects, 'Deployment', 'nova-cell2-conductor'));
    expect(conductor.OS_DATABASE__CONNECTION).toBe(
      'mysql+pymysql://nova_cell2:$(CELL_DB_PASSWORD)@db.openstack.svc:3306/nova_cell2?charset=utf8',
    );
    expect(conductor.OS_DEFAULT__TRANSPORT_URL).toBe(
      'rabbit://nova-cell2:$(MQ_PASSWORD)@mq.openstack.svc:5672/nova-cell2',
    );
    expect(conductor.OS_API_DATABASE__CONNECTION).toBeUndefined();
    expect(fileOf(objects, 'nova-cell2-compute-config', 'nova.conf')).toContain(
      'novncproxy_base_url = http://nova-cell2-vnc.openstack.svc:6080/vnc_lite.html',
    );
  });

  test('hypervisors labelled cell2 go to cell 2, all others to cell 1', () => {
    // THEN
    expect(termsOf(findObject(objects, 'DaemonSet', 'nova-compute'))).toEqual(
      keyTerms(
        [HYPERVISOR],
        [NO_OVN_MAINTENANCE, { key: 'nova.stackwright.io/cell', operator: 'NotIn', values: ['cell2'] }],
      ),
    );
    expect(termsOf(findObject(objects, 'DaemonSet', 'nova-cell2-compute'))).toEqual(
      keyTerms(
        [HYPERVISOR],
        [NO_OVN_MAINTENANCE, { key: 'nova.stackwright.io/cell', operator: 'In', values: ['cell2'] }],
      ),
    );
  });

  test('cell 2 compute talks to its own conductor; the mapping records both cells', () => {
    // THEN
    expect(edgesOf(findObject(objects, 'DaemonSet', 'nova-cell2-compute'))).toContainEqual({
      from: 'nova-cell2-compute',
      to: 'nova-cell2-conductor',
      kind: 'ready',
    });
    const script = scriptOf(findObject(objects, 'Job', 'nova-cell-mapping'));
    expect(script).toContain('create_cell --name cell1');
    expect(script).toContain(
      'OS_DATABASE__CONNECTION="$CELL2_DATABASE" OS_DEFAULT__TRANSPORT_URL="$CELL2_TRANSPORT" nova-manage cell_v2 create_cell --name cell2 --verbose',
    );
    // map_cell0 derives cell0's URL from [database] connection: it gets the same user on `nova`
    expect(envOf(findObject(objects, 'Job', 'nova-cell-mapping')).CELL0_DERIVED_FROM).toBe(
      'mysql+pymysql://nova_cell0:$(CELL0_DB_PASSWORD)@db.openstack.svc:3306/nova?charset=utf8',
    );
    expect(nova.compute.map((c) => c.components[0].componentName)).toEqual([
      'nova-compute',
      'nova-cell2-compute',
    ]);
  });

  test('each cell is a construct of its own; its conductor and console proxy wait for the mapping', () => {
    // THEN the cell's components live in its subtree, with the names they had before cells were constructs …
    expect(nova.cells.map((c) => c.node.path)).toEqual(['prod/nova/cell1', 'prod/nova/cell2']);
    const namesIn = (index: number) =>
      Component.allIn(nova.cells[index])
        .map((c) => c.componentName)
        .sort();
    expect(namesIn(0)).toEqual([
      'nova-cell1-mq-credentials',
      'nova-cell1-mq-init',
      'nova-compute',
      'nova-conductor',
      'nova-vnc',
    ]);
    expect(namesIn(1)).toContain('nova-cell2-conductor');
    expect(nova.conductor).toBe(nova.cells[0].conductor);
    // … except its database chain, which Nova builds before the API database's (whose sync Job,
    // the template of the upgrade's Jobs, reads cell 1's connection) and hands to the cell
    expect(nova.cells.map((c) => c.database.sync.node.path)).toEqual([
      'prod/nova/cell1-db/cell1-db-sync',
      'prod/nova/cell2-db/cell2-db-sync',
    ]);
    expect(nova.cells.map((c) => c.database.sync.componentName)).toEqual([
      'nova-cell1-db-sync',
      'nova-cell2-db-sync',
    ]);
    for (const cell of nova.cells) {
      for (const component of [cell.conductor, cell.vncProxy]) {
        expect(edgesOf(findObject(objects, 'Deployment', component.componentName))).toContainEqual({
          from: component.componentName,
          to: 'nova-cell-mapping',
          kind: 'completed',
        });
      }
    }
    // AND the secrets and vhosts are named after the service, not after the cell construct
    expect(findObject(objects, 'Job', 'nova-cell2-db-credentials')).toBeDefined();
    expect(nova.cells[1].messaging.vhost).toBe('nova-cell2');
  });
});

describe('Nova wiring and validation', () => {
  test('Cinder, when given, is a runtime edge', () => {
    // GIVEN a stand-in volume service (any dependable of the same cloud)
    let cinder: Component | undefined;
    const { cloud, nova } = novaCloud((base) => {
      cinder = new Component(base.cloud, 'cinder-api');
      return { cinder };
    });
    // WHEN
    const objects = synthObjects(cloud);
    // THEN the edge is recorded without gating, on the API, the conductor and nova-compute
    for (const [kind, name] of [
      ['Deployment', 'nova-api'],
      ['Deployment', 'nova-conductor'],
      ['DaemonSet', 'nova-compute'],
    ]) {
      expect(edgesOf(findObject(objects, kind, name))).toContainEqual({
        from: name,
        to: 'cinder-api',
        kind: 'runtime',
      });
    }
    expect(nova.compute).toHaveLength(1);
  });

  test('a Nova without Keystone fails for JavaScript users with the path and the fix', () => {
    // GIVEN
    const { cloud, database, messaging, cache, placement, glance, neutron } = novaCloud();
    const props = { database, messaging, cache, placement, glance, neutron };
    // WHEN / THEN
    expect(errorOf(() => new Nova(cloud, 'nova2', props as unknown as NovaProps))).toContain(
      '[prod/nova2] missing required input "keystone": pass the Keystone service as `keystone`',
    );
  });

  test.each([
    [0, '[prod/nova] cells must be between 1 and 100, got 0'],
    [1.5, '[prod/nova] cells must be a whole number between 1 and 100, got 1.5'],
    [Number.NaN, '[prod/nova] cells must be a finite number between 1 and 100, got NaN'],
    [[], '[prod/nova] cells must list between 1 and 100 cells, got 0'],
  ])('cells: %s fails with the path', (cells, message) => {
    // GIVEN
    const { cloud } = novaCloud({ cells });
    // WHEN / THEN
    expect(errorOf(() => synthObjects(cloud))).toContain(message);
  });

  test('a Neutron whose OVN agent does not cover hypervisors fails naming the fix', () => {
    // GIVEN
    const { cloud } = novaCloud({}, { ovnAgent: { dependantKeys: [] } });
    // WHEN / THEN
    expect(errorOf(() => synthObjects(cloud))).toContain(
      "[prod/nova] nova-compute runs on compute.yaook.cloud/hypervisor nodes, but prod/neutron's OVN agent does not",
    );
  });

  test('a metadata agent pointing elsewhere fails naming the host to set', () => {
    // GIVEN
    const { cloud } = novaCloud({}, { ovnAgent: { novaMetadataHost: 'metadata' } });
    // WHEN / THEN
    expect(errorOf(() => synthObjects(cloud))).toContain(
      "pass ovnAgent: { novaMetadataHost: 'nova-metadata' } to Neutron",
    );
  });

  test('an unknown compute option fails with the path', () => {
    // GIVEN
    const { cloud } = novaCloud({ compute: { config: { libvirt: { virt: 'kvm' } } } });
    // WHEN / THEN
    expect(errorOf(() => synthObjects(cloud))).toContain(
      '[prod/nova] compute nova.conf: unknown option "virt" in [libvirt]',
    );
  });

  describe('on the generated option schema', () => {
    const objects = synthObjects(novaCloud().cloud);

    test('nova.conf has [service_user] and is mounted where nova-api reads it, beside the image files', () => {
      // THEN
      expect(fileOf(objects, 'nova-api-config', 'nova.conf')).toContain(
        '[service_user]\nauth_type = password\nauth_url = http://keystone-api.openstack.svc:5000/v3\nproject_domain_name = Default\n' +
          'project_name = service\nsend_service_user_token = true\nuser_domain_name = Default\n',
      );
      const api = (
        podSpecOf(findObject(objects, 'Deployment', 'nova-api')).containers as {
          volumeMounts: unknown[];
          env: unknown[];
        }[]
      )[0];
      expect(api.volumeMounts).toContainEqual({
        name: 'config',
        mountPath: '/etc/nova/nova.conf',
        subPath: 'nova.conf',
        readOnly: true,
      });
      expect(api.env).toContainEqual({
        name: 'OS_SERVICE_USER__PASSWORD',
        valueFrom: { secretKeyRef: { name: 'nova-keystone-user', key: 'password' } },
      });
    });

    test('nova-compute resolves cluster names from the host network', () => {
      // THEN
      const spec = podSpecOf(findObject(objects, 'DaemonSet', 'nova-compute'));
      expect(spec.hostNetwork).toBe(true);
      expect(spec.dnsPolicy).toBe('ClusterFirstWithHostNet');
    });

    test('an option in the wrong section names the section it belongs to', () => {
      // WHEN / THEN
      expect(() =>
        synthObjects(novaCloud({ config: { compute: { max_concurrent_builds: 4 } } }).cloud),
      ).toThrow(
        '[prod/nova] nova.conf: unknown option "max_concurrent_builds" in [compute]; it is an option of [DEFAULT]',
      );
    });
  });
});

describe('Nova compute virtType and libvirt in a container', () => {
  type Container = {
    name: string;
    command: string[];
    volumeMounts: { name: string; mountPath: string; subPath?: string }[];
  };
  const libvirtOf = (props: Partial<NovaProps>) => {
    const objects = synthObjects(novaCloud(props).cloud);
    const spec = podSpecOf(findObject(objects, 'DaemonSet', 'nova-libvirt'));
    return {
      objects,
      novaConf: fileOf(objects, 'nova-compute-config', 'nova.conf'),
      containers: spec.containers as Container[],
      volumes: spec.volumes as { name: string; hostPath?: { path: string; type: string } }[],
    };
  };
  const section = (conf: string, name: string) => conf.split(`[${name}]\n`)[1].split('\n[')[0];

  test('kvm by default: virt_type kvm, no cpu_mode, /dev/kvm and /dev/net/tun required by the libvirt pod', () => {
    // WHEN
    const libvirt = libvirtOf({});
    // THEN
    expect(section(libvirt.novaConf, 'libvirt')).toBe('virt_type = kvm\n');
    expect(libvirt.volumes).toContainEqual({
      name: 'dev-kvm',
      hostPath: { path: '/dev/kvm', type: 'CharDevice' },
    });
    expect(libvirt.volumes).toContainEqual({
      name: 'dev-net-tun',
      hostPath: { path: '/dev/net/tun', type: 'CharDevice' },
    });
    expect(libvirt.containers[0].volumeMounts).toContainEqual({ name: 'dev-kvm', mountPath: '/dev/kvm' });
  });

  test('qemu: TCG with cpu_mode none, and the libvirt pod does not require /dev/kvm', () => {
    // WHEN
    const libvirt = libvirtOf({ compute: { virtType: 'qemu' } });
    // THEN
    expect(section(libvirt.novaConf, 'libvirt')).toBe('cpu_mode = none\nvirt_type = qemu\n');
    expect(libvirt.volumes.map((v) => v.name)).not.toContain('dev-kvm');
    expect(libvirt.volumes.map((v) => v.name)).toContain('dev-net-tun');
  });

  test('libvirtd reads qemu.conf from the ConfigMap beside the image files, and virtlogd runs next to it', () => {
    // WHEN
    const libvirt = libvirtOf({});
    // THEN
    expect(fileOf(libvirt.objects, 'nova-libvirt-config', 'qemu.conf')).toBe(
      'namespaces = [ ]\nsecurity_driver = "none"\nstdio_handler = "logd"\n',
    );
    const [libvirtd, virtlogd] = libvirt.containers;
    expect(libvirtd.volumeMounts).toContainEqual({
      name: 'config',
      mountPath: '/etc/libvirt/qemu.conf',
      subPath: 'qemu.conf',
      readOnly: true,
    });
    expect(virtlogd.name).toBe('virtlogd');
    expect(virtlogd.command).toEqual(['virtlogd']);
    // virtlogd writes the console logs into the instance directories and listens beside libvirtd's sockets
    expect(virtlogd.volumeMounts.map((m) => m.mountPath)).toEqual([
      '/var/lib/nova',
      '/var/lib/nova/instances',
      '/var/lib/libvirt',
      '/run/libvirt',
    ]);
  });

  test("libvirtd reaches the node's Open vSwitch database: it plugs the instances' taps into br-int", () => {
    // WHEN
    const libvirt = libvirtOf({});
    // THEN
    expect(libvirt.volumes).toContainEqual({
      name: 'run-openvswitch',
      hostPath: { path: '/run/openvswitch', type: 'DirectoryOrCreate' },
    });
    expect(libvirt.containers[0].volumeMounts).toContainEqual({
      name: 'run-openvswitch',
      mountPath: '/run/openvswitch',
    });
  });

  test.each([
    [{ config: { libvirt: { virt_type: 'qemu' } } }, 'config'],
    [{ compute: { config: { libvirt: { virt_type: 'qemu' } } } }, 'compute.config'],
  ])('virt_type in %j fails pointing to compute.virtType', (props, name) => {
    // GIVEN
    const { cloud } = novaCloud(props);
    // WHEN / THEN
    expect(errorOf(() => synthObjects(cloud))).toContain(
      `[prod/nova] ${name} sets [libvirt] virt_type; set compute.virtType instead (it also picks the devices libvirt needs)`,
    );
  });

  test('an unknown virtType fails at construction with the path', () => {
    // WHEN / THEN
    expect(errorOf(() => novaCloud({ compute: { virtType: 'xen' as 'kvm' } }))).toContain(
      'compute.virtType must be one of "kvm", "qemu", got "xen"',
    );
  });
});

describe('Nova compute image', () => {
  test('compute.image runs nova-compute only; the control plane keeps the Nova image', () => {
    // GIVEN
    const { cloud } = novaCloud({ compute: { image: 'registry.example/nova-compute:2025.1' } });
    // WHEN
    const objects = synthObjects(cloud);
    // THEN
    const imageOf = (kind: string, name: string) =>
      (podSpecOf(findObject(objects, kind, name)).containers as { image: string }[])[0].image;
    expect(imageOf('DaemonSet', 'nova-compute')).toBe('registry.example/nova-compute:2025.1');
    expect(imageOf('Deployment', 'nova-conductor')).toBe('registry.yaook.cloud/yaook/nova:2025.1');
  });
});

describe('nova-compute as a node agent', () => {
  test("registers under the node's name, the OVN chassis' name, so Neutron binds its instances' ports", () => {
    // WHEN
    const objects = synthObjects(novaCloud().cloud);
    // THEN
    const [compute] = podSpecOf(findObject(objects, 'DaemonSet', 'nova-compute')).containers as {
      env: { name: string; valueFrom?: unknown }[];
    }[];
    expect(compute.env).toContainEqual({
      name: 'OS_DEFAULT__HOST',
      valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } },
    });
  });

  test('starts its privsep helpers with sudo, not through rootwrap, whose filters refuse its conf.d', () => {
    // WHEN
    const objects = synthObjects(novaCloud().cloud);
    // THEN
    expect(fileOf(objects, 'nova-compute-config', 'nova.conf')).toContain(
      '[workarounds]\ndisable_rootwrap = true\n',
    );
    expect(fileOf(objects, 'nova-api-config', 'nova.conf')).not.toContain('[workarounds]');
  });
});

describe('the instances directory', () => {
  test('is created on the node for nova-compute, which measures its disk before writing there', () => {
    // WHEN
    const objects = synthObjects(novaCloud().cloud);
    // THEN
    const spec = podSpecOf(findObject(objects, 'DaemonSet', 'nova-compute'));
    expect(spec.volumes).toContainEqual({
      name: 'var-lib-nova-instances',
      hostPath: { path: '/var/lib/nova/instances', type: 'DirectoryOrCreate' },
    });
  });
});

describe("nova-compute's node identity", () => {
  test('is kept on the node, so a restarted nova-compute finds it: its state_path is a host directory it mounts', () => {
    // WHEN
    const objects = synthObjects(novaCloud().cloud);
    // THEN nova.conf puts state_path (where compute_id is written) on the host's /var/lib/nova …
    const conf = fileOf(objects, 'nova-compute-config', 'nova.conf');
    expect(conf).toMatch(/^state_path = \/var\/lib\/nova$/m);
    // … which the compute container mounts from the node, not from the image
    const spec = podSpecOf(findObject(objects, 'DaemonSet', 'nova-compute'));
    const [compute] = spec.containers as { volumeMounts: { name: string; mountPath: string }[] }[];
    const mount = compute.volumeMounts.find((m) => m.mountPath === '/var/lib/nova');
    expect(spec.volumes).toContainEqual({
      name: mount?.name,
      hostPath: { path: '/var/lib/nova', type: 'DirectoryOrCreate' },
    });
  });
});

describe('libvirtd probes', () => {
  test("wait 30 s for virsh: a fresh libvirtd answers only after probing QEMU's capabilities", () => {
    // WHEN
    const objects = synthObjects(novaCloud().cloud);
    // THEN
    const [libvirtd] = podSpecOf(findObject(objects, 'DaemonSet', 'nova-libvirt')).containers as {
      readinessProbe: { timeoutSeconds: number };
      livenessProbe: { timeoutSeconds: number };
    }[];
    expect([libvirtd.readinessProbe.timeoutSeconds, libvirtd.livenessProbe.timeoutSeconds]).toEqual([30, 30]);
  });
});

describe('libvirtd transport', () => {
  test('libvirtd serves its unix sockets only: --listen would need TLS certificates no manifest provides', () => {
    // WHEN
    const objects = synthObjects(novaCloud().cloud);
    // THEN
    const [libvirtd] = podSpecOf(findObject(objects, 'DaemonSet', 'nova-libvirt')).containers as {
      command: string[];
    }[];
    expect(libvirtd.command).toEqual(['/bin/sh', '-ec', LIBVIRTD_START]);
    expect(LIBVIRTD_START.split('\n').at(-1)).toBe('exec libvirtd');
  });
});

describe('libvirtd cgroups', () => {
  /**
   * Runs LIBVIRTD_START against a fake `/sys/fs/cgroup` (the paths rewritten), `exec libvirtd`
   * replaced by printing the shell's pid, which it returns.
   */
  function startIn(root: string): string {
    const script = LIBVIRTD_START.replaceAll('/sys/fs/cgroup', root).replace(
      'exec libvirtd',
      () => 'echo $$',
    );
    return execFileSync('/bin/sh', ['-ec', script], { encoding: 'utf8' });
  }

  test('on a cgroup v1 node, libvirtd moves into a libvirtd cgroup of every hierarchy, cpuset included', () => {
    // GIVEN three v1 hierarchies (cpuset with its CPUs and memory nodes) and a file that is none
    const root = mkdtempSync(path.join(tmpdir(), 'cgroup-v1-'));
    for (const hierarchy of ['cpuset', 'memory', 'devices']) {
      mkdirSync(path.join(root, hierarchy));
      writeFileSync(path.join(root, hierarchy, 'cgroup.procs'), '');
    }
    writeFileSync(path.join(root, 'cpuset', 'cpuset.cpus'), '0-1\n');
    writeFileSync(path.join(root, 'cpuset', 'cpuset.mems'), '0\n');
    mkdirSync(path.join(root, 'not-a-hierarchy'));
    // WHEN
    const pid = startIn(root);
    // THEN each hierarchy has the cgroup with the shell's PID; cpuset's has the root's CPUs and memory nodes
    for (const hierarchy of ['cpuset', 'memory', 'devices'])
      expect(readFileSync(path.join(root, hierarchy, 'libvirtd', 'cgroup.procs'), 'utf8')).toBe(pid);
    expect(readFileSync(path.join(root, 'cpuset', 'libvirtd', 'cpuset.cpus'), 'utf8')).toBe('0-1\n');
    expect(readFileSync(path.join(root, 'cpuset', 'libvirtd', 'cpuset.mems'), 'utf8')).toBe('0\n');
    expect(existsSync(path.join(root, 'not-a-hierarchy', 'libvirtd'))).toBe(false);
    rmSync(root, { recursive: true });
  });

  test('on a cgroup v2 node, libvirtd moves into one libvirtd cgroup at the root', () => {
    // GIVEN the unified hierarchy, with a child cgroup of the pods
    const root = mkdtempSync(path.join(tmpdir(), 'cgroup-v2-'));
    writeFileSync(path.join(root, 'cgroup.controllers'), 'cpu memory pids\n');
    writeFileSync(path.join(root, 'cgroup.procs'), '');
    mkdirSync(path.join(root, 'kubepods'));
    writeFileSync(path.join(root, 'kubepods', 'cgroup.procs'), '');
    // WHEN
    const pid = startIn(root);
    // THEN
    expect(readFileSync(path.join(root, 'libvirtd', 'cgroup.procs'), 'utf8')).toBe(pid);
    expect(existsSync(path.join(root, 'kubepods', 'libvirtd'))).toBe(false);
    rmSync(root, { recursive: true });
  });
});
