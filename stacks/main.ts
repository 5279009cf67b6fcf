import { App } from 'cdk8s';
import { referenceCloud } from './reference-cloud';

/**
 * Entry point of `cdk8s synth` (see cdk8s.yaml). Needs no try/catch: on bad input the cloud prints
 * each problem once with its construct path, writes nothing and exits 1 (docs/validation.md).
 */
const app = new App();
referenceCloud(app);
app.synth();
