// Synthesises every cloud the configuration check covers (the reference cloud, the minimal
// control plane and the examples) from the compiled library into OUT_DIR, one YAML file each.
// Each cloud in an App of its own: they all use the namespace `openstack`, and one App refuses two
// clouds that would overwrite each other's objects there.
// Usage: node scripts/openstack/render-clouds.js OUT_DIR (after `npm run build`).
const { App } = require('cdk8s');

const root = '../../dist-lib';
const clouds = [
  (app) => require(`${root}/stacks/reference-cloud`).referenceCloud(app),
  (app) => require(`${root}/stacks/minimal-control-plane`).minimalControlPlane(app),
  (app) => require(`${root}/examples/multi-cell-cloud`).multiCellCloud(app),
  (app) => require(`${root}/examples/custom-service`).cloudWithUsageReports(app),
];
for (const build of clouds) {
  const app = new App({ outdir: process.argv[2] });
  build(app);
  app.synth();
}
