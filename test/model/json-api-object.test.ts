import { readFileSync } from 'fs';
import { join } from 'path';
import { App, Chart, IResolver, JsonPatch, Lazy, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-33';
import { JsonApiObject, KubeKind } from '../../lib/model';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the generator is a plain Node script
const { generate } = require('../../scripts/dev/k8s-json-names.js') as { generate: () => string };

/** Props that exercise every conversion: renamed fields, map keys that look renamed, unions, a Lazy. */
function serviceProps(): k8s.KubeServiceProps {
  return {
    metadata: { name: 'api', labels: { clusterIp: 'a label, not a field' } },
    spec: {
      clusterIp: 'None',
      // a token as an object literal: cdk8s' ImplicitTokenResolver calls its resolve()
      externalName: { resolve: () => 'db.example.com' } as unknown as string,
      selector: { hostIp: 'a selector key, not a field' },
      sessionAffinityConfig: { clientIp: { timeoutSeconds: 60 } },
      ports: Lazy.any({ produce: () => [{ port: 80, targetPort: k8s.IntOrString.fromString('http') }] }),
    },
  };
}

function podProps(): k8s.KubePodProps {
  return {
    metadata: { name: 'agent' },
    spec: {
      hostPid: true,
      hostIpc: true,
      containers: [
        {
          name: 'agent',
          ports: [{ containerPort: 80, hostIp: '127.0.0.1' }],
          resources: {
            requests: { cpu: k8s.Quantity.fromString('100m'), memory: k8s.Quantity.fromNumber(1024) },
          },
          livenessProbe: { tcpSocket: { port: k8s.IntOrString.fromNumber(80) } },
        },
      ],
      volumes: [
        {
          name: 'info',
          downwardApi: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] },
        },
      ],
    },
  };
}

describe('JsonApiObject', () => {
  /** The JSON of `props` rendered by the typed class and by a JsonApiObject. */
  function bothWays<P extends object>(kind: KubeKind<P>, props: () => P): [string, string] {
    const typed = new kind(Testing.chart(), 'typed', props()).toJson();
    const plain = new JsonApiObject(Testing.chart(), 'plain', kind, props()).toJson();
    return [JSON.stringify(plain), JSON.stringify(typed)];
  }

  test('renders a Service as its typed k8s class does, key order included', () => {
    // GIVEN / WHEN the same props rendered both ways
    const [plain, typed] = bothWays(k8s.KubeService, serviceProps);
    // THEN
    expect(plain).toEqual(typed);
    expect(plain).toContain('"clusterIP":"None"');
    expect(plain).toContain('"clusterIp":"a label, not a field"');
    expect(plain).toContain('"externalName":"db.example.com"');
  });

  test('renders a Pod as its typed k8s class does, key order included', () => {
    // GIVEN / WHEN the same props rendered both ways
    const [plain, typed] = bothWays(k8s.KubePod, podProps);
    // THEN
    expect(plain).toEqual(typed);
    expect(plain).toContain('"hostPID":true');
    expect(plain).toContain('"memory":1024');
  });

  test('renders as cdk8s does with JSON patches and with resolvers of the App', () => {
    // GIVEN a patched object, and one in an App with a resolver of its own
    const patched = (chart: Chart) => {
      const object = new JsonApiObject(chart, 'pod', k8s.KubePod, podProps());
      object.addJsonPatch(JsonPatch.add('/spec/hostNetwork', true));
      return object;
    };
    const upper: IResolver = {
      resolve: (context) => {
        if (context.value === 'agent') context.replaceValue('AGENT');
      },
    };
    const withResolver = new Chart(new App({ resolvers: [upper] }), 'chart');
    // WHEN rendered
    const patchedJson = JSON.stringify(patched(Testing.chart()).toJson());
    const resolved = new JsonApiObject(withResolver, 'pod', k8s.KubePod, podProps()).toJson();
    // THEN cdk8s' own rendering applied both
    expect(patchedJson).toContain('"hostNetwork":true');
    expect(resolved.spec.containers[0].name).toBe('AGENT');
    expect(JSON.stringify(resolved)).toContain('"hostPID":true');
  });

  test('leaves the props it was given as they were, and keeps them as its manifest', () => {
    // GIVEN
    const props = podProps();
    const before = JSON.stringify(props);
    // WHEN
    const object = new JsonApiObject(Testing.chart(), 'pod', k8s.KubePod, props);
    object.toJson();
    // THEN
    expect(JSON.stringify(props)).toEqual(before);
    expect(object.manifest).toMatchObject({ apiVersion: 'v1', kind: 'Pod', spec: { hostPid: true } });
    expect(JsonApiObject.isJsonApiObject(object)).toBe(true);
    expect(JsonApiObject.isJsonApiObject(new k8s.KubePod(Testing.chart(), 'typed', props))).toBe(false);
  });

  test('refuses a field whose JSON name depends on its type', () => {
    // GIVEN a CRD version's `schema` (kept) that JSON schema props spell `$schema`
    const chart: Chart = Testing.chart();
    new JsonApiObject(chart, 'crd', k8s.KubeCustomResourceDefinition, {
      metadata: { name: 'things.example.com' },
      spec: {
        group: 'example.com',
        names: { kind: 'Thing', plural: 'things' },
        scope: 'Namespaced',
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openApiv3Schema: { type: 'object' } } },
        ],
      },
    });
    // WHEN rendered THEN refused, naming the object
    expect(() => Testing.synth(chart)).toThrow(
      /construct at path 'test\/crd'.*field "schema" has another JSON name in some Kubernetes types/,
    );
  });

  test("the field tables are the ones of the installed cdk8s-plus' converters", () => {
    // GIVEN the checked-in tables WHEN generated again THEN nothing changed
    // (regenerate: node scripts/dev/k8s-json-names.js > lib/model/generated/k8s-json-names.ts)
    const checkedIn = readFileSync(join(__dirname, '../../lib/model/generated/k8s-json-names.ts'), 'utf8');
    expect(checkedIn).toEqual(generate());
  });
});
