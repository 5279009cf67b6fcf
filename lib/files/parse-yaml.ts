import { CORE_SCHEMA, LoadOptions, loadAll, YAMLException } from 'js-yaml';

/**
 * The deepest nesting of mappings and sequences accepted, aliases included. Kubernetes objects
 * (CRD schemas are the deepest) stay far below it; past it, parsers and every recursive walk
 * afterwards risk the stack.
 */
export const MAX_YAML_DEPTH = 128;

/**
 * How many values aliases may add to a file. Without aliases a file cannot hold more values than
 * it has bytes, so that is the budget, plus this: aliases for shared labels are fine, a 769-byte
 * file of nested aliases that expands to a billion values ("billion laughs") is not.
 */
const MAX_YAML_ALIAS_VALUES = 10_000;

/** YAML that cannot be read: the message names the file and, where known, line and column. */
export class YamlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'YamlError';
  }
}

/** js-yaml 4.3 options its type declarations do not list yet. */
interface LimitedLoadOptions extends LoadOptions {
  readonly maxDepth: number;
}

/**
 * Every YAML text Stackwright reads goes through here: the YAML 1.2 core schema (what cdk8s
 * writes: no timestamps, no merge keys, no custom tags), nesting limited to {@link MAX_YAML_DEPTH}
 * and alias expansion to the file's size plus {@link MAX_YAML_ALIAS_VALUES}, so a small hostile
 * file is refused at once instead of growing into gigabytes in whatever walks it next.
 *
 * js-yaml rather than the `yaml` package's document model: it parses the reference cloud 4-6x
 * faster, and `deploy` pays for the parse before its first request.
 */
export function parseYamlDocuments(text: string, source: string): unknown[] {
  let documents: unknown[];
  const options: LimitedLoadOptions = { schema: CORE_SCHEMA, filename: source, maxDepth: MAX_YAML_DEPTH };
  try {
    documents = loadAll(text, undefined, options);
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    if (error.reason.startsWith('nesting exceeded maxDepth')) {
      throw new YamlError(`${source}: ${tooDeep(`at line ${error.mark.line + 1}`)}`);
    }
    throw new YamlError(`${source}: ${error.message}`);
  }
  assertExpansion(documents, text.length + MAX_YAML_ALIAS_VALUES, source);
  return documents;
}

/** A file of one YAML document (a config file): its value, `undefined` when it is empty. */
export function parseYamlDocument(text: string, source: string): unknown {
  const documents = parseYamlDocuments(text, source);
  if (documents.length > 1) {
    throw new YamlError(
      `${source} holds ${documents.length} YAML documents; it must hold one (remove the '---' lines)`,
    );
  }
  return documents[0];
}

/**
 * Walks the values as every later reader will, aliases expanded, without recursion: refuses more
 * than `budget` values or a nesting deeper than {@link MAX_YAML_DEPTH} (aliases can stack one
 * deep value into another past the parser's own limit).
 */
function assertExpansion(documents: readonly unknown[], budget: number, source: string): void {
  const stack: [unknown, number][] = documents.map((d) => [d, 0]);
  let values = 0;
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [value, depth] = next;
    if (++values > budget) {
      throw new YamlError(
        `${source}: its aliases expand it to more than ${budget} values (${MAX_YAML_ALIAS_VALUES} more than its size allows); ` +
          'write the values out instead of nesting aliases',
      );
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_YAML_DEPTH) throw new YamlError(`${source}: ${tooDeep('through its aliases')}`);
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth + 1]);
  }
}

function tooDeep(where: string): string {
  return `nesting deeper than ${MAX_YAML_DEPTH} levels ${where}; no Kubernetes object or Stackwright file nests this deep: flatten it`;
}
