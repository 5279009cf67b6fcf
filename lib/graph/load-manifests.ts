import * as fs from 'fs';
import * as path from 'path';
import { CORE_SCHEMA, loadAll, YAMLException } from 'js-yaml';
import { isKubeObject, KubeObject, objectRef } from './manifest';

/**
 * The largest document read: the API server refuses requests over 3 MiB (and etcd stores at most
 * 1.5 MiB per object), so a bigger one could never be applied. Checked before parsing, which
 * would take many times its size in memory.
 */
export const MAX_DOCUMENT_BYTES = 3 * 1024 * 1024;

/** The largest manifest file read: over a thousand objects of the largest size apply can take. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** Where each loaded object came from (`dist/cloud.k8s.yaml: document 3`), for messages. */
const sources = new WeakMap<object, string>();

/** Where a loaded object came from, or its `Kind/namespace/name` for objects not read from a file. */
export function objectSource(object: KubeObject): string {
  return sources.get(object) ?? objectRef(object);
}

/**
 * Reads every `*.yaml`/`*.yml` file of a directory (sorted by name, as cdk8s numbers its files in
 * dependency order) or a single file, and returns the objects in file order.
 */
export function loadManifests(fileOrDirectory: string): KubeObject[] {
  if (!fs.existsSync(fileOrDirectory))
    throw new Error(
      `${fileOrDirectory} does not exist; run \`npx cdk8s synth\` first, or pass the manifests directory`,
    );
  const stat = fs.statSync(fileOrDirectory);
  const files = stat.isDirectory()
    ? fs
        .readdirSync(fileOrDirectory)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
        .map((f) => path.join(fileOrDirectory, f))
    : [fileOrDirectory];
  if (files.length === 0)
    throw new Error(`no *.yaml files in ${fileOrDirectory}; run \`npx cdk8s synth\` first`);
  for (const file of files) {
    const size = regularFileSize(file);
    if (size > MAX_FILE_BYTES)
      throw new Error(
        `${file} is ${mebibytes(size)}, more than the ${mebibytes(MAX_FILE_BYTES)} a manifest file may have; split it into several files`,
      );
  }
  return files.flatMap((file) => parseManifestText(fs.readFileSync(file, 'utf8'), file));
}

/**
 * The size of a manifest file, which must be a regular file (a link to one is read as that file):
 * a directory named `x.yaml`, a device (`/dev/zero` never ends), a FIFO (blocks until a writer
 * comes) or a dangling link is refused by name, before it is opened.
 */
function regularFileSize(file: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new Error(`${file} is a link to ${fs.readlinkSync(file)}, which does not exist; remove the link`);
  }
  if (!stat.isFile()) {
    const what = stat.isDirectory()
      ? 'a directory'
      : stat.isFIFO()
        ? 'a FIFO'
        : stat.isSocket()
          ? 'a socket'
          : 'a device';
    throw new Error(
      `${file} is ${what}, not a manifest file; remove it or rename it so it does not end in .yaml`,
    );
  }
  return stat.size;
}

/**
 * Parses multi-document YAML into objects, naming the file and document on errors.
 *
 * js-yaml with the YAML 1.2 core schema (what cdk8s writes: no timestamps, no merge keys) parses
 * the reference cloud 4-6x faster than the `yaml` package's document model, which keeps every
 * node's source range; `deploy` pays for the parse before its first request.
 */
export function parseManifestText(text: string, source: string): KubeObject[] {
  assertDocumentSizes(text, source);
  let documents: unknown[];
  try {
    documents = loadAll(text, undefined, { schema: CORE_SCHEMA, filename: source });
  } catch (error) {
    if (error instanceof YAMLException) throw new Error(`${source}: ${error.message}`);
    throw error;
  }
  assertNoAliasBomb(documents, text.length, source);
  const objects: KubeObject[] = [];
  documents.forEach((value, index) => {
    if (value === null || value === undefined) return;
    if (!isKubeObject(value)) {
      throw new Error(
        `${source}: document ${index + 1} is not a Kubernetes object (apiVersion, kind, metadata.name)`,
      );
    }
    sources.set(value, `${source}: document ${index + 1} (${objectRef(value)})`);
    objects.push(value);
  });
  return objects;
}

/**
 * Refuses documents that are bigger than their text: YAML aliases (`*a`) repeat what they point
 * to, so a few hundred bytes can stand for billions of values (an alias bomb) that every reader
 * after the parser (the contract, the export, the apply) would walk. Without aliases a document has
 * fewer values than characters, so that is the budget. (Nesting is bounded by js-yaml's `maxDepth`.)
 */
function assertNoAliasBomb(documents: readonly unknown[], budget: number, source: string): void {
  let left = budget + 1024;
  documents.forEach((document, index) => {
    const stack: unknown[] = [document];
    while (stack.length > 0) {
      const node = stack.pop();
      if (--left < 0)
        throw new Error(
          `${source}: document ${index + 1} holds more values than its text has characters: YAML aliases (*name) repeat what they point to; write the document without aliases`,
        );
      if (typeof node === 'object' && node !== null)
        for (const child of Object.values(node)) stack.push(child);
    }
  });
}

/**
 * Refuses a document over {@link MAX_DOCUMENT_BYTES} before parsing it. Documents are found by
 * their `---` lines, as YAML separates them; the count is in UTF-16 units, close enough to bytes
 * for a limit this far above any real object.
 */
function assertDocumentSizes(text: string, source: string): void {
  const separator = /^---[ \t]*(?:#.*)?$/gm;
  let start = 0;
  let index = 0;
  for (let match = separator.exec(text); ; match = separator.exec(text)) {
    const end = match ? match.index : text.length;
    if (end - start > MAX_DOCUMENT_BYTES) {
      throw new Error(
        `${source}: document ${index + 1} is ${mebibytes(end - start)}, more than the ${mebibytes(MAX_DOCUMENT_BYTES)} ` +
          'the API server accepts for one object; keep large data out of manifests (a volume, an image, or several objects)',
      );
    }
    if (!match) return;
    if (end > 0 || index > 0) index++;
    start = match.index + match[0].length;
  }
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
