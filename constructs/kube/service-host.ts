import { IConstruct } from 'constructs';
import { Cloud } from '../../lib/model';

/**
 * `host`, completed to the DNS name of a Service of the cloud when it is a bare Service name
 * (`nova-metadata` -> `nova-metadata.<namespace>.svc`); a host with a dot (`api.example.com`, an
 * address) is taken as given. What a node agent connects to must resolve from the agents' namespace.
 */
export function completeServiceHost(scope: IConstruct, host: string): string {
  return host.includes('.') || host.includes(':') ? host : Cloud.of(scope).serviceHost(host);
}

/** `url` with its host completed like {@link completeServiceHost}: `http://glance-api:9292` -> `http://glance-api.<namespace>.svc:9292`. */
export function completeServiceUrl(scope: IConstruct, url: string): string {
  // Only a bare name (letters, digits, '-') right after the scheme, up to the port or path.
  return url.replace(
    /^([a-z][a-z0-9+.-]*:\/\/)([a-z0-9-]+)(?=[:/]|$)/i,
    (_, scheme: string, host: string) => `${scheme}${completeServiceHost(scope, host)}`,
  );
}

/**
 * The in-cluster URL of a Service of the cloud, resolvable from both of its namespaces:
 * `http://<name>.<namespace>.svc:<port><path>`. The one way a construct builds such a URL.
 */
export function serviceUrl(scope: IConstruct, name: string, port: number, path = ''): string {
  return `http://${Cloud.of(scope).serviceHost(name)}:${port}${path}`;
}
