import { ClusterUnreachableError } from '../cluster-unreachable-error';
import { KubeApiError } from './errors';
import { KubeTransport } from './transport';

/** How long `serverVersion` gives a server that has not answered yet. */
const FIRST_CONTACT_TIMEOUT_MS = 5_000;

/**
 * `GET /version`: proves within seconds that the server is reachable, is a Kubernetes API server
 * (a web server answering 404 or HTML is not) and that the credentials work. Returns its gitVersion.
 */
export async function serverVersion(transport: KubeTransport): Promise<string> {
  const { server, context } = transport.connection;
  const notKubernetes = (what: string) =>
    new ClusterUnreachableError(
      `${server} is not a Kubernetes API server: GET /version ${what}; check the server of context ${context} in the kubeconfig`,
    );
  let response;
  try {
    response = await transport.request({
      method: 'GET',
      path: '/version',
      verb: 'get',
      timeoutMs: FIRST_CONTACT_TIMEOUT_MS,
    });
  } catch (error) {
    // 401/403 are Kubernetes refusing the credentials, 5xx a server in trouble: said as they are.
    if (error instanceof KubeApiError && error.status < 500 && error.status !== 401 && error.status !== 403)
      throw notKubernetes(`answered HTTP ${error.status}`);
    throw error;
  }
  const body = response.body as { gitVersion?: unknown } | undefined;
  if (typeof body !== 'object' || body === null || typeof body.gitVersion !== 'string')
    throw notKubernetes(`answered HTTP ${response.status} without version information`);
  return body.gitVersion;
}
