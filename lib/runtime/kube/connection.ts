import * as fs from 'fs';
import * as https from 'https';
import * as os from 'os';
import * as path from 'path';
import { loadClientNode } from './client-node';
import { ClusterUnreachableError } from './errors';
import { KubeconfigFileError, loadKubeconfigFile } from './kubeconfig-file';

/** Where to find the cluster. Mirrors kubectl: `--kubeconfig`, then `$KUBECONFIG`, then `~/.kube/config`. */
export interface ConnectionOptions {
  /** Path of a kubeconfig file; wins over `$KUBECONFIG`. */
  readonly kubeconfig?: string;
  /** Context to use instead of the kubeconfig's current context. */
  readonly context?: string;
}

/** Everything needed to talk HTTPS to one API server, resolved from a kubeconfig. */
export interface KubeConnection {
  /** Base URL without a trailing slash, e.g. `https://127.0.0.1:16443`. */
  readonly server: string;
  readonly context: string;
  /** TLS material and auth headers for `https.request`. */
  readonly tls: Pick<https.RequestOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized' | 'servername'>;
  /** Resolves the auth headers; called again after a 401 (exec plugins and OIDC tokens expire). */
  authHeaders(): Promise<Record<string, string>>;
}

/**
 * Resolves a kubeconfig into a `KubeConnection`. Throws `ClusterUnreachableError` when there is no
 * kubeconfig at all, since falling back to `localhost:8080` (what client-node does) would only
 * produce a confusing "connection refused" later.
 */
export async function connect(
  options: ConnectionOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<KubeConnection> {
  const { KubeConfig } = loadClientNode();
  const kc = new KubeConfig();
  const file = options.kubeconfig ?? firstKubeconfigFromEnv(env) ?? defaultKubeconfig();
  if (!file) {
    throw new ClusterUnreachableError(
      'no kubeconfig: pass --kubeconfig <file>, set KUBECONFIG, or create ~/.kube/config',
    );
  }
  if (!fs.existsSync(file)) throw new ClusterUnreachableError(`kubeconfig ${file} does not exist`);
  try {
    if (options.kubeconfig) loadKubeconfigFile(kc, options.kubeconfig);
    else if (env.KUBECONFIG) {
      // Like kubectl: every file of the list, merged; the first one's current context wins.
      const [first, ...rest] = env.KUBECONFIG.split(path.delimiter).filter((f) => f.length > 0);
      loadKubeconfigFile(kc, first);
      for (const other of rest.filter((f) => fs.existsSync(f))) {
        const more = new KubeConfig();
        loadKubeconfigFile(more, other);
        kc.mergeConfig(more, true);
      }
    } else loadKubeconfigFile(kc, file);
  } catch (error) {
    if (error instanceof KubeconfigFileError) throw new ClusterUnreachableError(error.message);
    throw new ClusterUnreachableError(`cannot read kubeconfig ${file}: ${errorMessage(error)}`);
  }
  if (options.context) {
    if (!kc.getContexts().some((c) => c.name === options.context)) {
      throw new ClusterUnreachableError(
        `context "${options.context}" is not in ${file}; known: ${
          kc
            .getContexts()
            .map((c) => c.name)
            .join(', ') || 'none'
        }`,
      );
    }
    kc.setCurrentContext(options.context);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster)
    throw new ClusterUnreachableError(
      `kubeconfig ${file} has no cluster for context "${kc.getCurrentContext()}"`,
    );

  const resolved: https.RequestOptions = { headers: {} };
  await kc.applyToHTTPSOptions(resolved);
  return {
    server: cluster.server.replace(/\/+$/, ''),
    context: kc.getCurrentContext(),
    tls: {
      ca: resolved.ca,
      cert: resolved.cert,
      key: resolved.key,
      rejectUnauthorized: resolved.rejectUnauthorized,
      servername: resolved.servername,
    },
    authHeaders: async () => {
      const fresh: https.RequestOptions = { headers: {} };
      await kc.applyToHTTPSOptions(fresh);
      return headersOf(fresh);
    },
  };
}

function firstKubeconfigFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  return env.KUBECONFIG?.split(path.delimiter).find((f) => f.length > 0);
}

function defaultKubeconfig(): string | undefined {
  const file = path.join(os.homedir(), '.kube', 'config');
  return fs.existsSync(file) ? file : undefined;
}

function headersOf(options: https.RequestOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const raw = options.headers;
  if (raw && !Array.isArray(raw)) {
    for (const [name, value] of Object.entries(raw)) if (value !== undefined) headers[name] = String(value);
  }
  if (options.auth) headers.Authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
  return headers;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
