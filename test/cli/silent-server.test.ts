import { spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import { AddressInfo } from 'net';
import * as path from 'path';
import { stringify } from 'yaml';
import { ExitCode } from '../../lib/cli/exit-codes';
import { component, deployment, namespace } from '../runtime/support/manifests';
import { manifestDir } from './support';

// The `stackwright` process against a server that accepts TCP connections and never answers (a
// frozen API server, a black-holed load balancer). docs/cli.md promises exit 3 after the 5 s
// first-contact timeout; the process used to print that error and then live on for the whole
// --api-loss-timeout, because the liveness probe marked the never-reached server "lost" after the
// port was closed. The API-loss timeout is set to 10 minutes here, so a process that waits for it
// cannot pass: the bound below (60 s) is 12 times the promise and a tenth of the timeout.

const REPO = path.resolve(__dirname, '..', '..');
const BOUND_MS = 60_000;

test(
  'a server that accepts and never answers: exit 3 with the reason, without waiting for the API-loss timeout',
  async () => {
    // GIVEN a TCP server that accepts connections and says nothing, and a kubeconfig naming it
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const server = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const dir = manifestDir([namespace(), ...component('memcached', {}, deployment('memcached'))]);
    const kubeconfig = path.join(dir, 'kubeconfig');
    fs.writeFileSync(
      kubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'silent', cluster: { server, 'insecure-skip-tls-verify': true } }],
        users: [{ name: 'u', user: { token: 't' } }],
        contexts: [{ name: 'silent', context: { cluster: 'silent', user: 'u' } }],
        'current-context': 'silent',
      }),
    );

    // WHEN `stackwright status` runs as a process, with a 10-minute API-loss timeout
    const child = spawn(
      process.execPath,
      [
        path.join(REPO, 'bin', 'stackwright.js'),
        'status',
        dir,
        '--kubeconfig',
        kubeconfig,
        '--api-loss-timeout',
        '10m',
      ],
      { cwd: REPO, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const bound = setTimeout(() => child.kill('SIGKILL'), BOUND_MS);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (c, s) => resolve([c, s])),
    );
    clearTimeout(bound);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));

    // THEN the process ended by itself (not killed at the bound), with exit 3 and the reason only
    // (no Node warning either: DEP0040 for punycode was printed on Node 24 before)
    expect({ code, signal, stderr }).toEqual({
      code: ExitCode.UNREACHABLE,
      signal: null,
      stderr: `stackwright: cannot reach the API server at ${server} (context silent): ETIMEDOUT no answer within 5000 ms\n`,
    });
  },
  BOUND_MS + 30_000,
);
