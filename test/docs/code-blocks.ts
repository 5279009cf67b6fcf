import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { PRELUDES } from './preludes';

/** The repository's root, whose README.md and docs/*.md hold the blocks. */
export const ROOT = join(__dirname, '..', '..');
/** Where each block is written as a TypeScript file, which `npm test`'s tsc type-checks. */
export const BLOCKS_DIR = join(__dirname, 'blocks');

/** One TypeScript block of the docs, as the file that checks it. */
export interface CodeBlock {
  /** The file's name in BLOCKS_DIR, e.g. `docs-pulumi-2.ts`. */
  readonly file: string;
  /** `README.md:42`: where the block starts. */
  readonly source: string;
  /** Marked `<!-- check: run -->`: a complete program the tests run. */
  readonly run: boolean;
  readonly content: string;
}

const FENCE = /^```(ts|typescript)\s*$/;
const MARK = /^<!-- check: (run|prelude=([a-z-]+)) -->$/;

/** Every TypeScript block of README.md and docs/*.md, in order. */
export function codeBlocks(): CodeBlock[] {
  const docs = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      // docs/reference.md is generated from the sources: its blocks are the JSDoc `@example`s,
      // fragments shown as written there (scripts/docs/api-reference.js).
      .filter((f) => f.endsWith('.md') && f !== 'reference.md')
      .sort()
      .map((f) => `docs/${f}`),
  ];
  return docs.flatMap((doc) => blocksOf(doc, readFileSync(join(ROOT, doc), 'utf8')));
}

function blocksOf(doc: string, text: string): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i])) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    if (end < 0) throw new Error(`${doc}:${i + 1}: the code block is not closed`);
    // The mark is the line before the fence (prettier puts a blank line between them).
    let before = i - 1;
    while (before > 0 && lines[before].trim() === '') before--;
    const mark = MARK.exec(lines[before] ?? '');
    const prelude = mark?.[2];
    if (prelude !== undefined && PRELUDES[prelude] === undefined) {
      throw new Error(`${doc}:${before + 1}: no prelude "${prelude}" in test/docs/preludes.ts`);
    }
    const name = doc === 'README.md' ? 'readme' : doc.replace(/^docs\//, 'docs-').replace(/\.md$/, '');
    const source = `${doc}:${i + 1}`;
    blocks.push({
      file: `${name}-${blocks.length + 1}.ts`,
      source,
      run: mark?.[1] === 'run',
      content: [
        // No line number here: an edit above the block must not make its file stale.
        `// ${doc}, TypeScript block ${blocks.length + 1}, written by test/docs/code-blocks.test.ts (UPDATE_DOCS=1): edit the doc.`,
        ...(prelude ? [PRELUDES[prelude], '// ---- the block'] : []),
        ...lines.slice(i + 1, end),
        'export {};',
        '',
      ].join('\n'),
    });
    i = end;
  }
  return blocks;
}
