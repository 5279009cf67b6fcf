// docs/validation.md, TypeScript block 1, written by test/docs/code-blocks.test.ts (UPDATE_DOCS=1): edit the doc.
import { Construct } from 'constructs';
import { assertNoProblems, propsProblems, PropsSpec, Rules } from 'stackwright';

export interface ProxyProps {
  /** @default 2 */
  readonly replicas?: number;
  /** @default 'docker.io/library/haproxy:3.0' */
  readonly image?: string;
}

const PROXY_PROPS: PropsSpec<ProxyProps> = {
  replicas: Rules.count({ min: 1, max: 10 }),
  image: Rules.image(),
};

export class Proxy extends Construct {
  constructor(scope: Construct, id: string, props: ProxyProps = {}) {
    super(scope, id);
    // before anything is built:
    assertNoProblems(this, propsProblems(props, PROXY_PROPS));
  }
}
export {};
