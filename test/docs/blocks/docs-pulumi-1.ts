// docs/pulumi.md, TypeScript block 1, written by test/docs/code-blocks.test.ts (UPDATE_DOCS=1): edit the doc.
import { Cloud } from 'stackwright';
import { StackwrightCloud } from 'stackwright/pulumi';
declare const cloud: Cloud;
// ---- the block
new StackwrightCloud('openstack', {
  source: cloud,
  componentAliases: { 'keystone-api': ['keystone'] }, // new name: [old names]
});
export {};
