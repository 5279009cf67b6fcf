import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { connect } from '../../../lib/runtime/kube/connection';
import { ClusterUnreachableError } from '../../../lib/runtime/kube/errors';
import { billionLaughs } from '../../support/hostile-yaml';

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

  describe('a kubeconfig that cannot be used names the file and the fix, never a TypeError', () => {
    /** A kubeconfig file with `text`, in a fresh folder. */
    const kubeconfig = (text: string): string => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-kubeconfig-')), 'config');
      fs.writeFileSync(file, text);
      return file;
    };
    const FIX = 'point --kubeconfig (or KUBECONFIG) at a working kubeconfig';

    test.each([
      ['an empty file', '', 'the file is empty'],
      ['a comment only', '# nothing here\n', 'the file is empty'],
      ['a list', '- a\n- b\n', 'is not a kubeconfig (a mapping with clusters, contexts and users)'],
      ['clusters that are not a list', 'clusters: 5\n', 'clusters must be a list'],
      ['a null cluster', 'clusters:\n- null\n', 'clusters[0] must be a mapping with a name'],
      [
        'a server that is a number',
        'clusters:\n- {name: c, cluster: {server: 5}}\n',
        'clusters[0].cluster.server must be text',
      ],
      ['a context without its body', 'contexts:\n- {name: x}\n', 'contexts[0].context must be a mapping'],
    ])('%s', async (_title, text, problem) => {
      // GIVEN
      const file = kubeconfig(text);

      // WHEN
      const error: unknown = await connect({ kubeconfig: file }, {}).catch((e: unknown) => e);

      // THEN
      expect(error).toBeInstanceOf(ClusterUnreachableError);
      expect((error as Error).message).toBe(
        `kubeconfig ${file}: ${problem}; ${FIX}, e.g. what \`kubectl config view --raw\` prints for your cluster`,
      );
    });

    test('a FIFO named as the certificate authority is refused, not read forever', async () => {
      // GIVEN
      const file = kubeconfig(
        'clusters:\n- {name: c, cluster: {server: "https://c:6443", certificate-authority: ca.pem}}\n' +
          'contexts:\n- {name: x, context: {cluster: c, user: u}}\nusers:\n- {name: u, user: {token: t}}\ncurrent-context: x\n',
      );
      execFileSync('mkfifo', [path.join(path.dirname(file), 'ca.pem')]);

      // WHEN / THEN
      await expect(connect({ kubeconfig: file }, {})).rejects.toThrow(
        `kubeconfig ${file}: clusters[0].cluster.certificate-authority ${path.dirname(file)}/ca.pem is a FIFO (named pipe), not a regular file; ${FIX}`,
      );
    });

    test('a kubeconfig that is a link to /dev/zero is refused by name', async () => {
      const link = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-kubeconfig-')), 'config');
      fs.symlinkSync('/dev/zero', link);
      await expect(connect({ kubeconfig: link }, {})).rejects.toThrow(
        `${link} is a symbolic link to /dev/zero, which is a character device, not a regular file`,
      );
    });

    test('nested aliases in a kubeconfig are refused by the shared YAML limits', async () => {
      const file = kubeconfig(billionLaughs());
      await expect(connect({ kubeconfig: file }, {})).rejects.toThrow(
        `kubeconfig ${file}: its aliases expand it`,
      );
    });
  });
});
