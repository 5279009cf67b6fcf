import { Construct, IConstruct } from 'constructs';
import { Component, IDependable, ServiceScope } from './component';
import { closest, mark, SERVICE_MARKER, hasMarker } from './markers';
import {
  assertNoProblems,
  dnsLabelProblems,
  freeConstructId,
  propsProblems,
  PropsSpec,
  Rules,
} from './validation';

export interface ServiceProps {
  /**
   * A disabled service synthesises none of its components.
   * @default true
   */
  readonly enabled?: boolean;
  /**
   * The `app.kubernetes.io/name` label of the service's objects: what the application is, the same
   * for every instance (`app.kubernetes.io/instance` carries the service name). Declared, not taken
   * from the class name, which minifiers and subclasses change.
   * @default the service name
   */
  readonly appName?: string;
}

const SERVICE_PROPS: PropsSpec<ServiceProps> = {
  enabled: Rules.bool(),
  appName: Rules.dnsLabel(),
};

/**
 * An OpenStack service (Keystone, Nova, …) or an infra service (MariaDB, RabbitMQ, …): a group of
 * components with typed inputs. Passing a service as another service's input depends on its entry
 * points, e.g. Glance on `keystone-api`.
 */
export abstract class Service extends Construct implements IDependable, ServiceScope {
  static isService(x: unknown): x is Service {
    return hasMarker(x, SERVICE_MARKER);
  }

  /**
   * The name the objects built in `scope` are named after: the service's it is part of (the closest
   * service at or above it, however deep), else the scope's own id.
   */
  static nameFor(scope: IConstruct): string {
    return (closest(scope, SERVICE_MARKER) as ServiceScope | undefined)?.serviceName ?? scope.node.id;
  }

  /** The service's name: the construct id. Component and object names start with it. */
  readonly serviceName: string;
  /** The `app.kubernetes.io/name` label of the service's objects. */
  readonly appName: string;
  private readonly _enabled: boolean;

  constructor(scope: Construct, id: string, props: ServiceProps = {}) {
    super(scope, freeConstructId(scope, id));
    mark(this, SERVICE_MARKER);
    // Component names are `<service>-<role>`: 40 leaves room for the longest role and suffixes.
    assertNoProblems(this, [
      ...dnsLabelProblems(id, 'service name', 40),
      ...propsProblems(props, SERVICE_PROPS),
    ]);
    this.serviceName = id;
    this.appName = props.appName ?? id;
    this._enabled = props.enabled ?? true;
  }

  get enabled(): boolean {
    return this._enabled;
  }

  /** The components a dependant waits for when it depends on the whole service (its API, usually). */
  protected abstract get entryPoints(): readonly Component[];

  get dependencyTargets(): readonly Component[] {
    return this.entryPoints;
  }

  /** Every component of this service, in tree order. */
  get components(): Component[] {
    return Component.allIn(this);
  }
}
