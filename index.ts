/** The `stackwright` package: the model, the scheduling vocabulary, the manifest contract and the construct library. */
export * from './lib';
export * from './constructs';
