// docs/pulumi.md:162, written by test/docs/code-blocks.test.ts (UPDATE_DOCS=1): edit the doc, not this file.
import { Cloud } from 'stackwright';
import { StackwrightCloud } from 'stackwright/pulumi';
declare const cloud: Cloud;
// ---- the block
new StackwrightCloud('openstack', {
  source: cloud,
  componentAliases: { 'keystone-api': ['keystone'] }, // new name: [old names]
});
export {};
