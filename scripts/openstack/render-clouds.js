// Synthesises every cloud the configuration check covers (the reference cloud, the minimal
// control plane and the examples) from the compiled library into OUT_DIR, one YAML file each.
// Usage: node scripts/openstack/render-clouds.js OUT_DIR (after `npm run build`).
const { App } = require('cdk8s');

const root = '../../dist-lib';
const app = new App({ outdir: process.argv[2] });
require(`${root}/stacks/reference-cloud`).referenceCloud(app);
require(`${root}/stacks/minimal-control-plane`).minimalControlPlane(app);
require(`${root}/examples/multi-cell-cloud`).multiCellCloud(app);
require(`${root}/examples/custom-service`).cloudWithUsageReports(app);
app.synth();
