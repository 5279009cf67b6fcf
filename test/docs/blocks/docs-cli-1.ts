// docs/cli.md, TypeScript block 1, written by test/docs/code-blocks.test.ts (UPDATE_DOCS=1): edit the doc.
import { deploy } from 'stackwright/runtime';

async function main(): Promise<void> {
  const result = await deploy('dist/', { concurrency: 8, prune: true, onEvent: (e) => console.log(e.type) });
  if (!result.ok) console.error(result.rollout.components.filter((c) => c.state !== 'verified'));
  process.exitCode = result.ok ? 0 : 1;
}
void main();
export {};
