// docs/testing.md, TypeScript block 2, written by test/docs/code-blocks.test.ts (UPDATE_DOCS=1): edit the doc.
import { Testing } from 'cdk8s';
import { referenceCloud, tempestConfig } from 'stackwright';

const cloud = referenceCloud(Testing.app(), 'prod', { services: { ironic: { enabled: false } } });
// The ids of an image and a flavour you created once the cloud runs.
const tempest = tempestConfig(cloud, { imageRef: 'IMAGE-ID', flavorRef: 'FLAVOR-ID' });
// tempest.file: etc/tempest.conf of a Tempest workspace (`tempest init`), no credential in it.
// tempest.secretEnv: { OS_AUTH__ADMIN_PASSWORD: <Keystone's admin Secret> }: set it from the Secret.
if (tempest.tempestVersion !== '43.0.0') throw new Error('2025.1 is tested by Tempest 43.0.0');
export {};
