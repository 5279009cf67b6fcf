// docs/pulumi.md, TypeScript block 3, written by test/docs/code-blocks.test.ts (UPDATE_DOCS=1): edit the doc.
import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { App } from 'cdk8s';
import { referenceCloud } from 'stackwright';
import { StackwrightCloud } from 'stackwright/pulumi';

const config = new pulumi.Config();
const cloud = referenceCloud(new App(), 'prod'); // your Cloud (a cdk8s Chart); here the reference cloud

new StackwrightCloud('prod', {
  source: cloud, // or synthesised objects, or a path: 'dist/'
  provider: new k8s.Provider('prod', { context: config.require('context') }),
  credentials: { 'keystone-admin-credentials': { password: config.requireSecret('adminPassword') } },
});
export {};
