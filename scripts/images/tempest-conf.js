// Prints the tempest.conf the SDK generates (constructs/tempest) for the reference cloud, with
// placeholder image and flavour ids: what scripts/images/check.sh validates against the Tempest
// installed in the tempest image. Every service the SDK knows is in the reference cloud, so every
// section the generator can write is in the file.
// Usage: node scripts/images/tempest-conf.js (after `npm run build`).
const { App } = require('cdk8s');

const root = '../../dist-lib';
const { referenceCloud } = require(`${root}/stacks/reference-cloud`);
const { tempestConfig } = require(`${root}/constructs/tempest`);
const cloud = referenceCloud(new App());
process.stdout.write(tempestConfig(cloud, { imageRef: 'image-id', flavorRef: 'flavor-id' }).file);
