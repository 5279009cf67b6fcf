import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { connect } from '../../../lib/runtime/kube/connection';
import { ClusterUnreachableError } from '../../../lib/runtime/cluster-unreachable-error';

function kubeconfigFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-kubeconfig-'));
  const file = path.join(dir, 'config');
  fs.writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- {name: one, cluster: {server: "https://one.example:6443/"}}',
      '- {name: two, cluster: {server: "https://two.example:6443"}}',
      'users:',
      '- {name: alice, user: {token: secret-token}}',
      'contexts:',
      '- {name: first, context: {cluster: one, user: alice}}',
      '- {name: second, context: {cluster: two, user: alice}}',
      'current-context: first',
    ].join('\n'),
  );
  return file;
}

describe('connect', () => {
  test('reads --kubeconfig, uses its current context, and resolves the token', async () => {
    // WHEN
    const connection = await connect({ kubeconfig: kubeconfigFile() }, {});

    // THEN
    expect(connection.server).toBe('https://one.example:6443');
    expect(connection.context).toBe('first');
    expect(await connection.authHeaders()).toMatchObject({ Authorization: 'Bearer secret-token' });
  });

  test('switches to --context, and falls back to $KUBECONFIG', async () => {
    const connection = await connect({ context: 'second' }, { KUBECONFIG: kubeconfigFile() });
    expect(connection.server).toBe('https://two.example:6443');
    expect(connection.context).toBe('second');
  });

  test('names the known contexts when --context is wrong', async () => {
    await expect(connect({ kubeconfig: kubeconfigFile(), context: 'third' }, {})).rejects.toThrow(
      /context "third" is not in .*known: first, second/,
    );
  });

  test('says how to get a kubeconfig when the file is missing', async () => {
    await expect(connect({ kubeconfig: '/nonexistent/config' }, {})).rejects.toThrow(ClusterUnreachableError);
    await expect(connect({ kubeconfig: '/nonexistent/config' }, {})).rejects.toThrow(
      '/nonexistent/config does not exist',
    );
  });
});
