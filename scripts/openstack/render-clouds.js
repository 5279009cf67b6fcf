// Synthesises every cloud the configuration check covers (the reference cloud, the minimal
// control plane and the examples) from the TypeScript sources through bin/ts-register.js, as `cdk8s
// synth` does (no build of its own; the transpile cache is warm after any synthesis), into OUT_DIR,
// one YAML file each, at RELEASE (default: the package's default release). Each cloud in an App of
// its own: they all use the namespace `openstack`, and one App refuses two clouds that would
// overwrite each other's objects there. The custom-service example fixes its cloud's release (the default), so it is
// rendered only at that release; its Keystone and Gnocchi are in the reference cloud too.
// Usage: node --require ./bin/ts-register.js scripts/openstack/render-clouds.js OUT_DIR [RELEASE]
const { App } = require('cdk8s');

const root = '../..';
const { DEFAULT_RELEASE } = require(`${root}/lib/graph`);
const release = process.argv[3] ?? DEFAULT_RELEASE;
const clouds = [
  (app) => require(`${root}/stacks/reference-cloud`).referenceCloud(app, undefined, { release }),
  (app) => require(`${root}/stacks/minimal-control-plane`).minimalControlPlane(app, undefined, { release }),
  (app) => require(`${root}/examples/multi-cell-cloud`).multiCellCloud(app, undefined, { release }),
  ...(release === DEFAULT_RELEASE
    ? [(app) => require(`${root}/examples/custom-service`).cloudWithUsageReports(app)]
    : []),
];
for (const build of clouds) {
  const app = new App({ outdir: process.argv[2] });
  build(app);
  app.synth();
}
