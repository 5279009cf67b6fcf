import { Construct } from 'constructs';
import { assertNoProblems, Component, propsProblems, PropsSpec, Service } from '../../lib/model';
import { PodPlacement, SchedulingKey } from '../../lib/scheduling';
import { GeneratedSecret } from '../kube/generated-secret';

/** How an infrastructure service is built: its label, its props and their rules. */
export interface InfraServiceOptions<P> {
  /** The `app.kubernetes.io/name` label of the service's objects, e.g. `mariadb`. */
  readonly appName: string;
  readonly props: P;
  /** The rules `props` are checked with, before anything is built. */
  readonly propsSpec: PropsSpec<P>;
}

/**
 * The base of the infrastructure services (MariaDB, RabbitMQ, Memcached, the OVSDB cluster): their
 * props are checked at the boundary, before anything is built, like every construct's.
 */
export abstract class InfraService extends Service {
  protected constructor(scope: Construct, id: string, options: InfraServiceOptions<object>) {
    super(scope, id, { appName: options.appName });
    assertNoProblems(this, propsProblems(options.props, options.propsSpec as PropsSpec<object>));
  }
}

/**
 * An infrastructure service served by one clustered component, `server` (a StatefulSet of members
 * behind its Services): what the services that use it depend on.
 */
export abstract class ClusteredServer extends InfraService {
  readonly server: Component;

  protected constructor(
    scope: Construct,
    id: string,
    options: InfraServiceOptions<object> & { readonly placement: PodPlacement },
  ) {
    super(scope, id, options);
    this.server = new Component(this, 'default', { placement: options.placement });
  }

  /**
   * A Secret of random values generated in the cluster (administrator passwords, cookies), which
   * the server waits for.
   */
  protected generatedSecret(id: string, keys: readonly string[]): GeneratedSecret {
    const secret = new GeneratedSecret(this, id, {
      operatorKey: SchedulingKey.OPERATOR_ANY,
      keys: [...keys],
    });
    this.server.dependsOn(secret, 'completed');
    return secret;
  }

  protected get entryPoints(): readonly Component[] {
    return [this.server];
  }
}
