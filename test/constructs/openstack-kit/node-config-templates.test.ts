import { App } from 'cdk8s';
import {
  excludingTerms,
  NodeConfigTemplate,
  nodeConfigClasses,
  NodeConfiguredAgent,
  nodeConfigTemplateProblems,
  nodeConfigTemplatesRule,
  OsloSchema,
  renderOslo,
  mergeOslo,
  selectorsCanOverlap,
  WorkerService,
} from '../../../constructs';
import { Cloud, Component, Service } from '../../../lib/model';
import { placement, requiringNoOvnMaintenance, SchedulingKey } from '../../../lib/scheduling';
import { findObject, synthObjects } from '../../../lib/testing';
import { errorOf, fileOf, termsOf } from '../support/compute-network-fixture';

const SCHEMA: OsloSchema = {
  DEFAULT: { cpu_allocation_ratio: 'float', reserved_host_memory_mb: 'int' },
  libvirt: { virt_type: 'string' },
};
const HYPERVISOR = 'compute.yaook.cloud/hypervisor';

const gpu: NodeConfigTemplate = {
  nodeSelector: { 'example.com/gpu': 'true' },
  config: { DEFAULT: { reserved_host_memory_mb: 4096 } },
};
const zoneA: NodeConfigTemplate = {
  nodeSelector: { 'topology.kubernetes.io/zone': 'a' },
  config: { DEFAULT: { cpu_allocation_ratio: 4 } },
};
const zoneB: NodeConfigTemplate = {
  nodeSelector: { 'topology.kubernetes.io/zone': 'b' },
  config: { DEFAULT: { cpu_allocation_ratio: 8 } },
};

describe('selectorsCanOverlap', () => {
  test.each([
    [{}, { a: '1' }, true],
    [{ a: '1' }, { b: '2' }, true],
    [{ a: '1' }, { a: '1', b: '2' }, true],
    [{ a: '1' }, { a: '2' }, false],
    [{ a: '1', b: '2' }, { b: '3', c: '4' }, false],
  ])('%j and %j -> %s', (a, b, expected) => {
    // WHEN / THEN
    expect(selectorsCanOverlap(a, b)).toBe(expected);
    expect(selectorsCanOverlap(b, a)).toBe(expected);
  });
});

describe('nodeConfigClasses', () => {
  test('no templates: one class for every node, unnamed', () => {
    // WHEN
    const classes = nodeConfigClasses([]);
    // THEN
    expect(classes).toEqual([{ templates: [], nodeSelector: {}, exclusions: [], config: {}, suffix: '' }]);
  });

  test('exclusive selectors: one class each, plus the nodes matching neither', () => {
    // WHEN
    const classes = nodeConfigClasses([zoneA, zoneB]);
    // THEN
    expect(classes.map((c) => [c.templates, c.nodeSelector, c.exclusions])).toEqual([
      [[], {}, [{ 'topology.kubernetes.io/zone': 'a' }, { 'topology.kubernetes.io/zone': 'b' }]],
      [[0], { 'topology.kubernetes.io/zone': 'a' }, []],
      [[1], { 'topology.kubernetes.io/zone': 'b' }, []],
    ]);
  });

  test('overlapping selectors: every combination that can meet on a node, with merged options', () => {
    // WHEN
    const classes = nodeConfigClasses([gpu, zoneA]);
    // THEN
    expect(classes.map((c) => c.templates)).toEqual([[], [0], [1], [0, 1]]);
    const both = classes[3];
    expect(both.nodeSelector).toEqual({ 'example.com/gpu': 'true', 'topology.kubernetes.io/zone': 'a' });
    expect(both.exclusions).toEqual([]);
    expect(both.config).toEqual({ DEFAULT: { reserved_host_memory_mb: 4096, cpu_allocation_ratio: 4 } });
    expect(classes[1].exclusions).toEqual([{ 'topology.kubernetes.io/zone': 'a' }]);
    expect(classes[2].exclusions).toEqual([{ 'example.com/gpu': 'true' }]);
  });

  test('a selector inside another is no class of its own, and implied exclusions are dropped', () => {
    // GIVEN {a} and {a, b}: every node matching {a, b} matches {a}
    const broad: NodeConfigTemplate = { nodeSelector: { a: '1' }, config: {} };
    const narrow: NodeConfigTemplate = { nodeSelector: { a: '1', b: '2' }, config: {} };
    // WHEN
    const classes = nodeConfigClasses([broad, narrow]);
    // THEN
    expect(classes.map((c) => [c.templates, c.exclusions])).toEqual([
      [[], [{ a: '1' }]],
      [[0], [{ b: '2' }]],
      [[0, 1], []],
    ]);
  });

  test('an empty selector applies everywhere: no class without it, and its class keeps the plain name', () => {
    // GIVEN
    const everywhere: NodeConfigTemplate = { nodeSelector: {}, config: { libvirt: { virt_type: 'kvm' } } };
    // WHEN
    const classes = nodeConfigClasses([everywhere, gpu]);
    // THEN
    expect(classes.map((c) => [c.templates, c.suffix === ''])).toEqual([
      [[0], true],
      [[0, 1], false],
    ]);
  });

  test('names depend on selectors only: reordering templates or changing options keeps every suffix', () => {
    // GIVEN
    const forward = nodeConfigClasses([gpu, zoneA, zoneB]);
    const changed = { ...zoneA, config: { DEFAULT: { cpu_allocation_ratio: 2 } } };
    // WHEN
    const backward = nodeConfigClasses([zoneB, changed, gpu]);
    // THEN
    const bySuffix = (classes: typeof forward) =>
      classes.map((c) => `${c.suffix}=${JSON.stringify(c.nodeSelector)}`).sort();
    expect(bySuffix(backward)).toEqual(bySuffix(forward));
    expect(forward.map((c) => c.suffix).filter((s) => s !== '')).toEqual(
      forward.slice(1).map((c) => c.suffix),
    );
    expect(new Set(forward.map((c) => c.suffix)).size).toBe(forward.length);
    expect(forward.every((c) => /^([0-9a-f]{6})?$/.test(c.suffix))).toBe(true);
  });

  test('a scope narrows the classes to its labels and keeps off excluded label sets', () => {
    // GIVEN a cell of nodes labelled cell=c2, and cell 1 as every other node
    const cellTemplate: NodeConfigTemplate = { nodeSelector: { cell: 'c3', gpu: 'true' }, config: {} };
    // WHEN
    const cell2 = nodeConfigClasses([gpu, cellTemplate], { required: { cell: 'c2' } });
    const cell1 = nodeConfigClasses([gpu], { excluded: [{ cell: 'c2' }, { cell: 'c3' }] });
    // THEN the cell-3 template plays no part in cell 2, and the cell label does not name the class
    expect(cell2.map((c) => [c.templates, c.nodeSelector, c.suffix === ''])).toEqual([
      [[], { cell: 'c2' }, true],
      [[0], { cell: 'c2', 'example.com/gpu': 'true' }, false],
    ]);
    expect(cell1.map((c) => c.exclusions)).toEqual([
      [{ 'example.com/gpu': 'true' }, { cell: 'c2' }, { cell: 'c3' }],
      [{ cell: 'c2' }, { cell: 'c3' }],
    ]);
  });
});

describe('nodeConfigTemplateProblems', () => {
  test('overlapping templates that set one option differently: an error naming both and the option', () => {
    // GIVEN
    const dense: NodeConfigTemplate = {
      nodeSelector: { 'example.com/gpu': 'true' },
      config: { DEFAULT: { cpu_allocation_ratio: 1 } },
    };
    // WHEN
    const problems = nodeConfigTemplateProblems([zoneA, zoneB, dense], SCHEMA, 'nova.conf');
    // THEN zone a and zone b never meet; gpu meets both
    expect(problems).toEqual([
      'configTemplates[0] (nodeSelector {"topology.kubernetes.io/zone":"a"}) and configTemplates[2] (nodeSelector {"example.com/gpu":"true"}) ' +
        'can match the same node but set [DEFAULT] cpu_allocation_ratio to different values (4 and 1); make their nodeSelectors exclusive ' +
        '(require one label with a different value in each) or set the option in one template only',
      'configTemplates[1] (nodeSelector {"topology.kubernetes.io/zone":"b"}) and configTemplates[2] (nodeSelector {"example.com/gpu":"true"}) ' +
        'can match the same node but set [DEFAULT] cpu_allocation_ratio to different values (8 and 1); make their nodeSelectors exclusive ' +
        '(require one label with a different value in each) or set the option in one template only',
    ]);
  });

  test('equal values and exclusive selectors are fine', () => {
    // GIVEN
    const same: NodeConfigTemplate = {
      nodeSelector: { 'example.com/gpu': 'true' },
      config: { DEFAULT: { cpu_allocation_ratio: 4 } },
    };
    // WHEN / THEN
    expect(
      nodeConfigTemplateProblems(
        [zoneA, zoneB, { ...same, nodeSelector: { 'topology.kubernetes.io/zone': 'c' } }],
        SCHEMA,
        'nova.conf',
      ),
    ).toEqual([]);
    expect(nodeConfigTemplateProblems([zoneA, same], SCHEMA, 'nova.conf')).toEqual([]);
  });

  test('the forced-downscale label and unknown options name the template', () => {
    // GIVEN
    const reserved: NodeConfigTemplate = {
      nodeSelector: { 'state.yaook.cloud/forced-downscale': 'true' },
      config: {},
    };
    const unknownOption: NodeConfigTemplate = {
      nodeSelector: { 'example.com/gpu': 'true' },
      config: { DEFAULT: { cpu_ratio: 2 } },
    };
    // WHEN
    const problems = nodeConfigTemplateProblems([reserved, unknownOption], SCHEMA, 'nova.conf');
    // THEN
    expect(problems[0]).toContain(
      'configTemplates[0] (nodeSelector {"state.yaook.cloud/forced-downscale":"true"}) nodeSelector uses the reserved label state.yaook.cloud/forced-downscale',
    );
    expect(problems).toContain(
      'configTemplates[1] (nodeSelector {"example.com/gpu":"true"}): nova.conf: unknown option "cpu_ratio" in [DEFAULT] (not defined by the service, or removed); [DEFAULT] has cpu_allocation_ratio, reserved_host_memory_mb',
    );
  });

  test('at the boundary, a bad label key and a line break in an option name the template by index', () => {
    // WHEN
    const problems = nodeConfigTemplatesRule(
      [{ nodeSelector: { 'bad key!': 'x' }, config: { DEFAULT: { my_ip: '10.0.0.1\n[libvirt]' } } }],
      'configTemplates',
    );
    // THEN
    expect(problems).toEqual([
      expect.stringContaining('configTemplates[0].nodeSelector: "bad key!" is not a valid label key'),
      expect.stringContaining('configTemplates[0].config: [DEFAULT] my_ip'),
    ]);
  });
});

describe('excludingTerms', () => {
  test('single-label exclusions fold into one NotIn; multi-label ones multiply the terms out', () => {
    // GIVEN a placement with a key, a group key and a required label
    const where = requiringNoOvnMaintenance(
      placement(SchedulingKey.COMPUTE_HYPERVISOR, SchedulingKey.ANY_INFRA),
    );
    // WHEN
    const terms = excludingTerms(where, [{ cell: 'c2' }, { cell: 'c3' }, { a: '1', b: '2' }]);
    // THEN
    const keep = [
      { key: 'maintenance.yaook.cloud/ovn-maintenance', operator: 'In', values: ['not-required'] },
      { key: 'cell', operator: 'NotIn', values: ['c2', 'c3'] },
    ];
    expect(terms).toEqual([
      [{ key: HYPERVISOR, operator: 'Exists' }, ...keep, { key: 'a', operator: 'NotIn', values: ['1'] }],
      [{ key: HYPERVISOR, operator: 'Exists' }, ...keep, { key: 'b', operator: 'NotIn', values: ['2'] }],
      [
        { key: 'infra.yaook.cloud/any', operator: 'Exists' },
        ...keep,
        { key: 'a', operator: 'NotIn', values: ['1'] },
      ],
      [
        { key: 'infra.yaook.cloud/any', operator: 'Exists' },
        ...keep,
        { key: 'b', operator: 'NotIn', values: ['2'] },
      ],
    ]);
  });
});

/** A service with one node-configured agent, built as a DaemonSet WorkerService rendering `agent.conf`. */
class AgentService extends Service {
  readonly agent: NodeConfiguredAgent;
  constructor(scope: Cloud, id: string, templates: NodeConfigTemplate[]) {
    super(scope, id);
    this.agent = new NodeConfiguredAgent(this, 'agent', {
      placement: requiringNoOvnMaintenance(placement(SchedulingKey.COMPUTE_HYPERVISOR)),
      templates,
      schema: SCHEMA,
      file: 'agent.conf',
      build: (classScope, classId, nodeClass) =>
        new WorkerService(classScope, classId, {
          placement: nodeClass.placement,
          image: 'example/agent:1',
          command: ['example-agent'],
          workload: 'DaemonSet',
          connectedTo: [5672],
          config: {
            mountPath: '/etc/agent',
            files: {
              'agent.conf': renderOslo(
                mergeOslo({ DEFAULT: { cpu_allocation_ratio: 16 } }, nodeClass.config),
              ),
            },
          },
        }),
    });
  }
  protected get entryPoints(): readonly Component[] {
    return this.agent.components;
  }
}

describe('NodeConfiguredAgent', () => {
  function agentCloud(templates: NodeConfigTemplate[]) {
    const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
    const service = new AgentService(cloud, 'hv', templates);
    return { cloud, service };
  }

  test('each class is its own DaemonSet and ConfigMap, restricted to its nodes and kept off the others', () => {
    // GIVEN two overlapping templates
    const { cloud, service } = agentCloud([gpu, zoneA]);
    // WHEN
    const objects = synthObjects(cloud);
    // THEN four DaemonSets: no template, gpu only, zone a only, both
    const [plain, gpuOnly, zoneOnly, both] = service.agent.classes.map((c) =>
      c.suffix ? `hv-agent-${c.suffix}` : 'hv-agent',
    );
    expect(
      objects
        .filter((o) => o.kind === 'DaemonSet')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual([plain, gpuOnly, zoneOnly, both].sort());
    const ovn = { key: 'maintenance.yaook.cloud/ovn-maintenance', operator: 'In', values: ['not-required'] };
    const exists = { key: HYPERVISOR, operator: 'Exists' };
    expect(termsOf(findObject(objects, 'DaemonSet', plain))).toEqual([
      [
        exists,
        ovn,
        { key: 'example.com/gpu', operator: 'NotIn', values: ['true'] },
        { key: 'topology.kubernetes.io/zone', operator: 'NotIn', values: ['a'] },
      ],
    ]);
    expect(termsOf(findObject(objects, 'DaemonSet', gpuOnly))).toEqual([
      [
        exists,
        { key: 'example.com/gpu', operator: 'In', values: ['true'] },
        ovn,
        { key: 'topology.kubernetes.io/zone', operator: 'NotIn', values: ['a'] },
      ],
    ]);
    expect(termsOf(findObject(objects, 'DaemonSet', both))).toEqual([
      [
        exists,
        { key: 'example.com/gpu', operator: 'In', values: ['true'] },
        ovn,
        { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] },
      ],
    ]);
    expect(fileOf(objects, `${both}-config`, 'agent.conf')).toBe(
      '[DEFAULT]\ncpu_allocation_ratio = 4\nreserved_host_memory_mb = 4096\n',
    );
    expect(fileOf(objects, `${plain}-config`, 'agent.conf')).toBe('[DEFAULT]\ncpu_allocation_ratio = 16\n');
    expect(service.agent.dependencyTargets.map((c) => c.componentName)).toEqual([
      plain,
      gpuOnly,
      zoneOnly,
      both,
    ]);
  });

  test('conflicting templates fail synthesis with the agent path, both templates and the option', () => {
    // GIVEN
    const { cloud } = agentCloud([
      zoneA,
      { nodeSelector: { 'example.com/gpu': 'true' }, config: { DEFAULT: { cpu_allocation_ratio: 1 } } },
    ]);
    // WHEN
    const message = errorOf(() => synthObjects(cloud));
    // THEN
    expect(message).toContain(
      '[prod/hv/agent] configTemplates[0] (nodeSelector {"topology.kubernetes.io/zone":"a"}) and configTemplates[1] (nodeSelector {"example.com/gpu":"true"}) can match the same node but set [DEFAULT] cpu_allocation_ratio to different values (4 and 1)',
    );
  });

  test('a template selecting the forced-downscale label fails naming the template, and is not synthesised', () => {
    // GIVEN
    const { cloud, service } = agentCloud([
      { nodeSelector: { 'state.yaook.cloud/forced-downscale': 'true' }, config: {} },
    ]);
    // WHEN
    const message = errorOf(() => synthObjects(cloud));
    // THEN
    expect(message).toContain(
      '[prod/hv/agent] configTemplates[0] (nodeSelector {"state.yaook.cloud/forced-downscale":"true"}) nodeSelector uses the reserved label state.yaook.cloud/forced-downscale',
    );
    expect(message).not.toContain('the placement uses the reserved label');
    expect(service.agent.components.map((c) => c.componentName)).toEqual(['hv-agent']);
  });
});
