import * as fs from 'fs';
import * as path from 'path';
import type { KubeConfig } from '@kubernetes/client-node';
import { fileKind, parseYamlDocument, readRegularFile } from '../../files';

/** The largest kubeconfig read; real ones, certificates inlined, are a few kilobytes. */
const MAX_KUBECONFIG_BYTES = 16 * 1024 * 1024;

/** A kubeconfig that cannot be used as it is: the message names the file, what is wrong and the fix. */
export class KubeconfigFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigFileError';
  }
}

const FIX =
  'point --kubeconfig (or KUBECONFIG) at a working kubeconfig, e.g. what `kubectl config view --raw` prints for your cluster';

/**
 * Loads one kubeconfig file into `kc` the careful way: read by type and size
 * (`readRegularFile`), parsed with the shared YAML limits, its shape checked (an empty file or
 * `clusters: 5` used to surface as a raw TypeError from the client), and the files it names
 * (CA, client certificate and key, token) checked to be regular files, since the client reads
 * them without a limit and a FIFO there would hang every request.
 */
export function loadKubeconfigFile(kc: KubeConfig, file: string): void {
  let text: string;
  let value: unknown;
  try {
    text = readRegularFile(file, {
      what: 'kubeconfig',
      maxBytes: MAX_KUBECONFIG_BYTES,
      tooBigFix: 'a kubeconfig is a few kilobytes: point --kubeconfig at the right file',
    });
    value = parseYamlDocument(text, `kubeconfig ${file}`);
  } catch (error) {
    throw new KubeconfigFileError(`${error instanceof Error ? error.message : String(error)}; ${FIX}`);
  }
  const problems = kubeconfigProblems(value, path.dirname(path.resolve(file)));
  if (problems.length > 0)
    throw new KubeconfigFileError(`kubeconfig ${file}: ${problems.join('; ')}; ${FIX}`);
  kc.loadFromString(text);
  kc.makePathsAbsolute(path.dirname(file));
}

/** The lists of a kubeconfig, the key of each entry's body, and the fields that must be text. */
const LISTS = {
  clusters: { body: 'cluster', text: ['server'], files: ['certificate-authority'] },
  contexts: { body: 'context', text: ['cluster'], files: [] },
  users: { body: 'user', text: [], files: ['client-certificate', 'client-key', 'tokenFile'] },
} as const;

/** What is wrong with a parsed kubeconfig, empty when the client can use it. */
function kubeconfigProblems(value: unknown, directory: string): string[] {
  if (value === undefined || value === null) return ['the file is empty'];
  if (!isRecord(value)) return ['is not a kubeconfig (a mapping with clusters, contexts and users)'];
  const problems: string[] = [];
  const current = value['current-context'];
  if (current !== undefined && current !== null && typeof current !== 'string')
    problems.push('current-context must be a context name');
  for (const [list, spec] of Object.entries(LISTS)) {
    const entries = value[list];
    if (entries === undefined || entries === null) continue;
    if (!Array.isArray(entries)) {
      problems.push(`${list} must be a list`);
      continue;
    }
    entries.forEach((entry: unknown, i) => {
      const where = `${list}[${i}]`;
      if (!isRecord(entry) || typeof entry.name !== 'string' || entry.name === '') {
        problems.push(`${where} must be a mapping with a name`);
        return;
      }
      const body = entry[spec.body];
      if ((body === undefined || body === null) && spec.body === 'user') return;
      if (!isRecord(body)) {
        problems.push(`${where}.${spec.body} must be a mapping`);
        return;
      }
      for (const field of spec.text)
        if (typeof body[field] !== 'string' || body[field] === '')
          problems.push(`${where}.${spec.body}.${field} must be text`);
      for (const field of spec.files) {
        const named = body[field];
        if (named === undefined) continue;
        const problem =
          typeof named === 'string'
            ? referencedFileProblem(path.resolve(directory, named))
            : 'must be a path';
        if (problem) problems.push(`${where}.${spec.body}.${field} ${problem}`);
      }
    });
  }
  return problems;
}

/** A file the kubeconfig names must be a regular file (links followed: the user wrote the path). */
function referencedFileProblem(file: string): string | undefined {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(file);
  } catch {
    return `${file} does not exist`;
  }
  return stats.isFile() ? undefined : `${file} is ${fileKind(stats)}, not a regular file`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
