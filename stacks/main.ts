import { App } from 'cdk8s';
import { referenceCloud } from './reference-cloud';

/**
 * Entry point of `cdk8s synth` (see cdk8s.yaml). Validation errors are printed without a stack
 * trace, one per line with the construct path, and nothing is written.
 */
function main(): void {
  const app = new App();
  referenceCloud(app);
  app.synth();
}

try {
  main();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
