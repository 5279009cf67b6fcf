import * as fs from 'fs';
import * as path from 'path';
import { FileRefusedError, mebibytes, parseYamlDocuments, readRegularFile } from '../files';
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
 * dependency order) or a single file, and returns the objects in file order. Each file is read
 * the careful way (`readRegularFile`): a directory, FIFO, socket or device named `*.yaml` is
 * refused by name, a link is not followed out of the directory, and no file gives more than
 * {@link MAX_FILE_BYTES}, whatever `stat` says.
 */
export function loadManifests(fileOrDirectory: string): KubeObject[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(fileOrDirectory);
  } catch {
    throw new FileRefusedError(
      fileOrDirectory,
      `${fileOrDirectory} does not exist; run \`npx cdk8s synth\` first, or pass the manifests directory`,
    );
  }
  const files = stat.isDirectory()
    ? fs
        .readdirSync(fileOrDirectory)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
        .map((f) => path.join(fileOrDirectory, f))
    : [fileOrDirectory];
  if (files.length === 0)
    throw new Error(`no *.yaml files in ${fileOrDirectory}; run \`npx cdk8s synth\` first`);
  const within = stat.isDirectory() ? fileOrDirectory : undefined;
  return files.flatMap((file) =>
    parseManifestText(
      readRegularFile(file, {
        what: 'manifest file',
        maxBytes: MAX_FILE_BYTES,
        tooBigFix: 'split it into several files',
        within,
      }),
      file,
    ),
  );
}

/**
 * Parses multi-document YAML into objects, naming the file and document on errors; the parse is
 * the shared, limited one (`parseYamlDocuments`: nesting and alias expansion bounded).
 */
export function parseManifestText(text: string, source: string): KubeObject[] {
  assertDocumentSizes(text, source);
  const documents = parseYamlDocuments(text, source);
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
