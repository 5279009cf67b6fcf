import * as fs from 'fs';
import * as path from 'path';
import { CORE_SCHEMA, loadAll, YAMLException } from 'js-yaml';
import { KubeObject } from './manifest';

/**
 * Reads every `*.yaml`/`*.yml` file of a directory (sorted by name, as cdk8s numbers its files in
 * dependency order) or a single file, and returns the objects in file order.
 */
export function loadManifests(fileOrDirectory: string): KubeObject[] {
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
  return files.flatMap((file) => parseManifestText(fs.readFileSync(file, 'utf8'), file));
}

/**
 * Parses multi-document YAML into objects, naming the file and document on errors.
 *
 * js-yaml with the YAML 1.2 core schema (what cdk8s writes: no timestamps, no merge keys) parses
 * the reference cloud 4-6x faster than the `yaml` package's document model, which keeps every
 * node's source range; `deploy` pays for the parse before its first request.
 */
export function parseManifestText(text: string, source: string): KubeObject[] {
  let documents: unknown[];
  try {
    documents = loadAll(text, undefined, { schema: CORE_SCHEMA, filename: source });
  } catch (error) {
    if (error instanceof YAMLException) throw new Error(`${source}: ${error.message}`);
    throw error;
  }
  const objects: KubeObject[] = [];
  documents.forEach((value, index) => {
    if (value === null || value === undefined) return;
    if (!isKubeObject(value)) {
      throw new Error(
        `${source}: document ${index + 1} is not a Kubernetes object (apiVersion, kind, metadata.name)`,
      );
    }
    objects.push(value);
  });
  return objects;
}

function isKubeObject(value: unknown): value is KubeObject {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const metadata = v.metadata as Record<string, unknown> | undefined;
  return typeof v.apiVersion === 'string' && typeof v.kind === 'string' && typeof metadata?.name === 'string';
}
