import * as pulumi from '@pulumi/pulumi';
import { App } from 'cdk8s';
import { Keystone, MariaDB, SecretRef } from '../constructs';
import { StackwrightCloud } from '../lib/pulumi';
import { CONFIG_NAMESPACE, parseStackConfig } from './pulumi-stack-config';
import { referenceCloud } from './reference-cloud';

/** What `pulumi stack output` shows after `pulumi up`. */
interface PulumiMainOutputs {
  readonly namespace: string;
  /** Component names in dependency order. */
  readonly components: string[];
  /** Number of Kubernetes objects under Pulumi's management. */
  readonly objects: number;
  /** The Secret holding the Keystone admin password (`kubectl get secret … -o jsonpath='{.data.password}'`). */
  readonly adminCredentialsSecret: string;
}

/**
 * The Pulumi program (`Pulumi.yaml` runs it from source through `bin/pulumi-program.js`): the
 * reference cloud, configured from the stack's config under the `stackwright:` namespace. What users
 * change goes through `pulumi config set`; `parseStackConfig` checks every key before anything is
 * built (keys and examples: docs/pulumi.md).
 *
 * Options: `namespace` (default `openstack`), `release`, `imageRegistry`, `toolboxImage`,
 * `labels` (an object), `resourcePrefix`, and `services.<service>.{replicas,image,enabled}`.
 * Credentials, always set with `--secret`: `adminPassword` (required: the Keystone admin's
 * password) and `databasePassword` (optional: the MariaDB root password). A credential given here
 * is created by Pulumi as a Secret, encrypted in the state; the cloud's generator Job for that
 * Secret then finds it and leaves it alone. Credentials not given here are generated inside the
 * cluster on first deploy and never leave it.
 *
 * Pulumi calls the exported function; its result becomes the stack outputs.
 */
function pulumiMain(): PulumiMainOutputs {
  const settings = parseStackConfig(pulumi.runtime.allConfig());
  const config = new pulumi.Config(CONFIG_NAMESPACE);
  const cloud = referenceCloud(new App(), 'openstack', settings.cloud);

  // The Secrets the constructs would otherwise generate in the cluster; found in the tree, not by
  // name, so renaming a construct cannot silently detach a configured password.
  const keystone = only(
    cloud.node.findAll().filter((c): c is Keystone => c instanceof Keystone),
    'Keystone',
  );
  const database = only(
    cloud.node.findAll().filter((c): c is MariaDB => c instanceof MariaDB),
    'MariaDB',
  );
  const credentials: Record<string, Record<string, pulumi.Output<string>>> = {};
  const provide = (ref: SecretRef, value: pulumi.Output<string>) => {
    credentials[ref.secretName] = { ...credentials[ref.secretName], [ref.key]: value };
  };
  provide(keystone.adminCredentials.ref('password'), config.requireSecret('adminPassword'));
  const databasePassword = config.getSecret('databasePassword');
  if (databasePassword !== undefined) provide(database.adminPassword, databasePassword);

  const deployed = new StackwrightCloud('openstack', {
    source: cloud,
    credentials,
    resourcePrefix: settings.resourcePrefix,
  });
  return {
    namespace: settings.cloud.namespace,
    components: deployed.plan.components.map((c) => c.name),
    objects: deployed.plan.objects.length,
    adminCredentialsSecret: keystone.adminCredentials.secretName,
  };
}

function only<T>(found: T[], what: string): T {
  if (found.length !== 1)
    throw new Error(
      `the reference cloud has ${found.length} ${what} services; the Pulumi program expects exactly one`,
    );
  return found[0];
}

export = pulumiMain;
