import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';

const run = promisify(execFile);

/** `kubectl` of the test cluster with a fixed kubeconfig; resolves with stdout, rejects with stderr. */
export type Kubectl = (...args: string[]) => Promise<string>;

export function kubectlFor(kubectl: string, kubeconfig: string): Kubectl {
  return async (...args) => {
    try {
      const { stdout } = await run(kubectl, args, {
        env: { ...process.env, KUBECONFIG: kubeconfig },
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout;
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? '';
      throw new Error(`kubectl ${args.join(' ')} failed: ${stderr.trim() || String(error)}`);
    }
  };
}

/** `kubectl apply --server-side` of plain objects (through a temporary file: execFile has no stdin). */
export async function applyObjects(
  kubectl: Kubectl,
  fieldManager: string,
  objects: readonly unknown[],
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-apply-'));
  try {
    const file = path.join(dir, 'objects.json');
    fs.writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
    await kubectl('apply', '--server-side', `--field-manager=${fieldManager}`, '-f', file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
