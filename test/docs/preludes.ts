/**
 * What a doc's fragment takes as given (`<!-- check: prelude=NAME -->` before its block): the
 * imports and the values its text talks about, declared, so the fragment type-checks as written.
 */
export const PRELUDES: Readonly<Record<string, string>> = {
  /** A cloud and the inputs every OpenStack service takes. */
  cloud: `import { App } from 'cdk8s';
import { Cloud, Glance, Keystone, MariaDB, Memcached, Neutron, Nova, Placement, RabbitMQ } from 'stackwright';
declare const app: App;
declare const cloud: Cloud;
declare const inputs: {
  keystone: Keystone;
  database: MariaDB;
  messaging: RabbitMQ;
  cache: Memcached;
  placement: Placement;
  glance: Glance;
  neutron: Neutron;
};`,
  /** An App to build a cloud in. */
  app: `import { App } from 'cdk8s';
import { Cloud, MariaDB, Memcached, RabbitMQ } from 'stackwright';
declare const app: App;`,
  /** A cloud for a Pulumi program. */
  pulumi: `import { Cloud } from 'stackwright';
import { StackwrightCloud } from 'stackwright/pulumi';
declare const cloud: Cloud;`,
};
