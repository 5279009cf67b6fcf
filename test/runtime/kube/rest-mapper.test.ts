import { NoMatchError } from '../../../lib/runtime/kube/errors';
import { RestMapper } from '../../../lib/runtime/kube/rest-mapper';
import { KubeRequest, KubeResponse } from '../../../lib/runtime/kube/transport';

function discovery(kinds: { group: string; kind: string; resource: string }[]) {
  return {
    kind: 'APIGroupDiscoveryList',
    items: kinds.map((k) => ({
      metadata: { name: k.group },
      versions: [
        {
          version: 'v1',
          resources: [{ resource: k.resource, responseKind: { kind: k.kind }, scope: 'Namespaced' }],
        },
      ],
    })),
  };
}

/** Answers discovery requests from a mutable list of installed kinds, recording the paths. */
function fakeServer(installed: { group: string; kind: string; resource: string }[]) {
  const paths: string[] = [];
  const client = {
    async request(req: KubeRequest): Promise<KubeResponse> {
      paths.push(req.path);
      if (req.path === '/api')
        return { status: 200, body: discovery(installed.filter((k) => k.group === '')) };
      if (req.path === '/apis')
        return { status: 200, body: discovery(installed.filter((k) => k.group !== '')) };
      return {
        status: 200,
        body: { kind: 'APIResourceList', groupVersion: req.path.replace(/^\/apis?\//, ''), resources: [] },
      };
    },
  };
  return { client, paths };
}

describe('RestMapper', () => {
  test('discovers the whole cluster with two requests and then answers from its cache', async () => {
    // GIVEN a server with core and apps kinds
    const server = fakeServer([
      { group: '', kind: 'ConfigMap', resource: 'configmaps' },
      { group: 'apps', kind: 'Deployment', resource: 'deployments' },
    ]);
    const mapper = new RestMapper(server.client);

    // WHEN two kinds are resolved
    const configMap = await mapper.resolve('v1', 'ConfigMap');
    const deployment = await mapper.resolve('apps/v1', 'Deployment');

    // THEN both map, and only /api and /apis were read
    expect(configMap.resource).toBe('configmaps');
    expect(deployment).toEqual({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
      resource: 'deployments',
      namespaced: true,
    });
    expect(server.paths.sort()).toEqual(['/api', '/apis']);
  });

  test('re-reads discovery on a miss, so a CRD installed during the run resolves', async () => {
    // GIVEN a mapper that has already read discovery, at a time the CRD did not exist
    const installed = [{ group: '', kind: 'ConfigMap', resource: 'configmaps' }];
    const server = fakeServer(installed);
    let now = 0;
    const mapper = new RestMapper(server.client, () => now);
    await mapper.resolve('v1', 'ConfigMap');

    // WHEN the CRD is installed and its kind resolved a second later
    installed.push({ group: 'example.com', kind: 'Widget', resource: 'widgets' });
    now = 1000;
    const widget = await mapper.resolve('example.com/v1', 'Widget');

    // THEN the miss triggered a fresh discovery
    expect(widget.resource).toBe('widgets');
    expect(server.paths.filter((p) => p === '/apis')).toHaveLength(2);
  });

  test('reports NoMatchError naming the kind when nothing serves it', async () => {
    // GIVEN a server without the kind
    const mapper = new RestMapper(fakeServer([]).client);

    // WHEN / THEN
    await expect(mapper.resolve('example.com/v1', 'Widget')).rejects.toThrow(NoMatchError);
    await expect(mapper.resolve('example.com/v1', 'Widget')).rejects.toThrow(/example.com\/v1 Widget/);
  });
});
