import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { stringify } from 'yaml';
import { KubeObject } from '../../lib/graph';
import { CliCluster, CliIo } from '../../lib/cli/io';
import { InMemoryCluster } from '../../lib/testing/in-memory-cluster';

/** Captured output of one stream. */
export class Captured {
  text = '';
  constructor(readonly isTTY = false) {}
  write(text: string): void {
    this.text += text;
  }
  lines(): string[] {
    return this.text.split('\n').filter((l) => l.length > 0);
  }
}

export interface TestIo extends CliIo {
  readonly stdout: Captured;
  readonly stderr: Captured;
  /** How many times the cluster was opened. */
  opened: number;
  /** The options of the last `openCluster`. */
  openedWith?: Parameters<CliIo['openCluster']>[0];
}

/** A CLI environment over an in-memory cluster (or a failing connect), with captured output. */
export function testIo(
  options: {
    cluster?: InMemoryCluster;
    connectError?: Error;
    cwd?: string;
    tty?: boolean;
    answer?: boolean;
  } = {},
): TestIo {
  const io: TestIo = {
    stdout: new Captured(options.tty),
    stderr: new Captured(),
    env: { CI: 'true' },
    cwd: options.cwd ?? os.tmpdir(),
    now: () => Date.now(),
    opened: 0,
    openCluster: async (openOptions) => {
      io.openedWith = openOptions;
      if (options.connectError) throw options.connectError;
      io.opened += 1;
      const port = options.cluster ?? new InMemoryCluster();
      const cluster: CliCluster = { port, context: 'test-context', close: () => undefined };
      return cluster;
    },
    confirm: async () => options.answer ?? false,
    runShell: async () => 0,
  };
  return io;
}

/** Writes objects as one multi-document YAML file in a fresh directory and returns the directory. */
export function manifestDir(objects: readonly KubeObject[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-cli-'));
  fs.writeFileSync(path.join(dir, 'cloud.k8s.yaml'), objects.map((o) => stringify(o)).join('---\n'));
  return dir;
}
