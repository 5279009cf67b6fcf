// docs/pulumi.md, TypeScript block 4, written by test/docs/code-blocks.test.ts (UPDATE_DOCS=1): edit the doc.
import { graphFromManifests, loadManifests } from 'stackwright';
import { dependencyPlan, summarisePlan } from 'stackwright/pulumi';
console.table(summarisePlan(dependencyPlan(graphFromManifests(loadManifests('dist/')))));
export {};
