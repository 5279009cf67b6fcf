import { KubeObject, objectRef } from '../../graph';
import {
  ApiAvailabilitySource,
  ApplyOptions,
  ApplyOutcome,
  ClusterPort,
  DeleteOptions,
  WatchKey,
  WatchListener,
} from '../ports';
import { ExponentialBackOff } from '../timing';
import { toApplyConflict } from './apply-conflict';
import { connect, ConnectionOptions } from './connection';
import { aboutObject, KubeApiError, NoMatchError } from './errors';
import { RequestCounter } from './request-counter';
import { RestMapper } from './rest-mapper';
import { serverVersion } from './server-version';
import { resourcePath, ResourceMapping, typedBy } from './rest-mapping';
import { ListResult, RawWatchEvent, WatchSource } from './shared-watch';
import { KubeTransport, RetryPolicy, TransportHealthOptions } from './transport';
import { WatchRegistry } from './watch-registry';

export interface KubeClusterOptions extends ConnectionOptions, TransportHealthOptions {
  readonly retry?: RetryPolicy;
  /** `User-Agent` of every request. @default 'stackwright' */
  readonly userAgent?: string;
  /** Back-off factory for watches (one instance per watch). */
  readonly watchBackOff?: () => ExponentialBackOff;
  /** How long an unused watch keeps streaming. @default 30000 */
  readonly watchLingerMs?: number;
  /** Told about watch errors that are retried (for `--verbose` logs). */
  readonly onWatchError?: (key: WatchKey, error: unknown) => void;
}

/** Server-side timeout of one watch request; randomised so many watches do not reconnect together. */
const WATCH_TIMEOUT_SECONDS = () => 240 + Math.floor(Math.random() * 120);

/**
 * The `ClusterPort` over a real API server: server-side apply with a field manager, dry runs,
 * deletes with a propagation policy, and ONE shared watch per (apiVersion, kind, namespace)
 * whatever the number of subscribers. Every request is counted (`requests`).
 *
 * @example
 * const cluster = await KubeCluster.connect({ kubeconfig: process.env.KUBECONFIG });
 * try { await cluster.apply(object, { fieldManager: 'stackwright', force: false, dryRun: false }); }
 * finally { cluster.close(); }
 */
export class KubeCluster implements ClusterPort {
  private readonly watches = new WatchRegistry(
    (key) => this.watchSource(key),
    (key) => ({
      backOff: this.options.watchBackOff?.(),
      lingerMs: this.options.watchLingerMs ?? 30_000,
      onError: (error) => this.options.onWatchError?.(key, error),
    }),
  );
  /** resourceVersion our own last apply returned, per object: tells `unchanged` from `configured`. */
  private readonly appliedVersions = new Map<string, string>();
  readonly mapper: RestMapper;

  constructor(
    readonly transport: KubeTransport,
    private readonly options: KubeClusterOptions = {},
  ) {
    this.mapper = new RestMapper(transport);
  }

  /** Resolves the kubeconfig and returns a port; no request is sent yet. */
  static async connect(options: KubeClusterOptions = {}): Promise<KubeCluster> {
    const connection = await connect(options);
    return new KubeCluster(new KubeTransport(connection, options.retry, options.userAgent, options), options);
  }

  /** Whether the API server answers (see `KubeTransport.availability`). */
  get availability(): ApiAvailabilitySource {
    return this.transport.availability;
  }

  /** Requests sent so far, by verb. */
  get requests(): RequestCounter {
    return this.transport.counter;
  }

  /**
   * `GET /version`: proves within seconds that the server is reachable, is a Kubernetes API server
   * and that the credentials work (see `serverVersion`).
   */
  serverVersion(): Promise<string> {
    return serverVersion(this.transport);
  }

  /** The REST mapping of a kind (cached discovery). */
  mapping(apiVersion: string, kind: string): Promise<ResourceMapping> {
    return this.mapper.resolve(apiVersion, kind);
  }

  /** The mapping of the object's kind, or undefined when the API server does not serve the kind. */
  private async mappingIfServed(
    object: Pick<KubeObject, 'apiVersion' | 'kind'>,
  ): Promise<ResourceMapping | undefined> {
    try {
      return await this.mapping(object.apiVersion, object.kind);
    } catch (error) {
      if (error instanceof NoMatchError) return undefined;
      throw error;
    }
  }

  async apply(object: KubeObject, options: ApplyOptions): Promise<ApplyOutcome> {
    const ref = objectRef(object);
    const mapping = await this.mapping(object.apiVersion, object.kind);
    const path = resourcePath(mapping, this.namespaceOf(object, mapping), object.metadata.name);
    let response;
    try {
      response = await this.transport.request({
        method: 'PATCH',
        path,
        query: {
          fieldManager: options.fieldManager,
          force: options.force ? 'true' : undefined,
          dryRun: options.dryRun ? 'All' : undefined,
        },
        // JSON is YAML: the apply content type accepts it and no YAML serialiser is needed.
        contentType: 'application/apply-patch+yaml',
        body: object,
        verb: options.dryRun ? 'dry-run' : 'apply',
      });
    } catch (error) {
      throw toApplyConflict(ref, error) ?? aboutObject(ref, error);
    }
    const live = response.body as KubeObject;
    const rv = typeof live.metadata?.resourceVersion === 'string' ? live.metadata.resourceVersion : undefined;
    let action: ApplyOutcome['action'];
    if (response.status === 201) action = 'created';
    else if (options.dryRun) action = 'configured';
    else action = rv !== undefined && this.knownVersions(object).includes(rv) ? 'unchanged' : 'configured';
    if (!options.dryRun && rv !== undefined) this.appliedVersions.set(ref, rv);
    return { ref, action, live };
  }

  /** Deletes; a 404 counts as done. Resolves when the API server accepted the delete. */
  async delete(object: KubeObject, options: DeleteOptions = {}): Promise<void> {
    const mapping = await this.mappingIfServed(object);
    if (!mapping) return; // its type is gone (CRD deleted), so is the object
    try {
      await this.transport.request({
        method: 'DELETE',
        path: resourcePath(mapping, this.namespaceOf(object, mapping), object.metadata.name),
        body: {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          propagationPolicy: options.propagationPolicy ?? 'Background',
        },
        verb: 'delete',
      });
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) return;
      throw aboutObject(objectRef(object), error);
    }
    this.appliedVersions.delete(objectRef(object));
  }

  async get(object: KubeObject): Promise<KubeObject | undefined> {
    const mapping = await this.mappingIfServed(object);
    if (!mapping) return undefined; // no such type, so no such object
    try {
      const response = await this.transport.request({
        method: 'GET',
        path: resourcePath(mapping, this.namespaceOf(object, mapping), object.metadata.name),
        verb: 'get',
      });
      return typedBy(response.body as KubeObject, mapping);
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) return undefined;
      throw aboutObject(objectRef(object), error);
    }
  }

  async list(key: WatchKey, labelSelector?: string): Promise<KubeObject[]> {
    return [...(await this.listWithVersion(key, labelSelector)).items];
  }

  /** Every Event of `namespace` (core/v1), one LIST; diagnosis picks those about its objects. */
  async events(namespace: string): Promise<KubeObject[]> {
    return this.list({ apiVersion: 'v1', kind: 'Event', namespace });
  }

  watch(key: WatchKey, onEvent: WatchListener): () => void {
    return this.watches.of(key).subscribe(onEvent);
  }

  /**
   * The live object from the shared watch's snapshot (starting the watch and waiting for its first
   * LIST if needed): what `deploy` compares against, one LIST per kind and namespace instead of
   * one GET per object.
   */
  async observed(object: KubeObject): Promise<KubeObject | undefined> {
    const mapping = await this.mappingIfServed(object);
    if (!mapping) return undefined;
    const namespace = this.namespaceOf(object, mapping);
    const watch = this.watches.of({ apiVersion: object.apiVersion, kind: object.kind, namespace });
    // Hold a subscription while waiting, so the watch cannot linger out in between.
    const release = watch.subscribe(() => undefined);
    try {
      await watch.whenSynced();
      return watch.cached(namespace, object.metadata.name);
    } finally {
      release();
    }
  }

  /** Number of open shared watches (what "one watch per kind and namespace" is checked against). */
  get watchCount(): number {
    return this.watches.size;
  }

  /** Forgets discovery, e.g. after a CRD was established. */
  invalidateDiscovery(): void {
    this.mapper.invalidate();
  }

  /** Stops every watch and closes idle connections. Call when done, or the process stays alive. */
  close(): void {
    this.watches.stopAll();
    this.transport.close();
  }

  private watchSource(key: WatchKey): WatchSource {
    return {
      // A type that is not served yet (CRD still installing) is retried with back-off, not watched as empty.
      list: (signal: AbortSignal) => this.listWithVersion(key, undefined, signal, false),
      watch: async (
        resourceVersion: string,
        onEvent: (event: RawWatchEvent) => void,
        signal: AbortSignal,
      ) => {
        const mapping = await this.mapping(key.apiVersion, key.kind);
        await this.transport.stream(
          resourcePath(mapping, key.namespace),
          {
            watch: 'true',
            resourceVersion,
            allowWatchBookmarks: 'true',
            timeoutSeconds: String(WATCH_TIMEOUT_SECONDS()),
          },
          (line) => {
            const event = line as RawWatchEvent;
            if (event.type !== 'ERROR' && event.type !== 'BOOKMARK')
              typedBy(event.object as KubeObject, mapping);
            onEvent(event);
          },
          signal,
        );
      },
    };
  }

  private async listWithVersion(
    key: WatchKey,
    labelSelector?: string,
    signal?: AbortSignal,
    unknownKindIsEmpty = true,
  ): Promise<ListResult> {
    const mapping = unknownKindIsEmpty
      ? await this.mappingIfServed(key)
      : await this.mapping(key.apiVersion, key.kind);
    if (!mapping) return { items: [], resourceVersion: '0' };
    const response = await this.transport.request({
      method: 'GET',
      path: resourcePath(mapping, key.namespace),
      query: { labelSelector },
      verb: 'list',
      signal,
    });
    const body = response.body as { items?: KubeObject[]; metadata?: { resourceVersion?: string } };
    return {
      items: (body.items ?? []).map((item) => typedBy(item, mapping)),
      resourceVersion: body.metadata?.resourceVersion ?? '0',
    };
  }

  private knownVersions(object: KubeObject): string[] {
    const versions: string[] = [];
    const applied = this.appliedVersions.get(objectRef(object));
    if (applied) versions.push(applied);
    const rv = this.watches.cachedIfSynced(object)?.metadata.resourceVersion;
    if (typeof rv === 'string') versions.push(rv);
    return versions;
  }

  private namespaceOf(object: KubeObject, mapping: ResourceMapping): string | undefined {
    if (!mapping.namespaced) return undefined;
    if (!object.metadata.namespace) {
      throw new Error(
        `${objectRef(object)}: ${object.kind} is namespaced but the object has no metadata.namespace`,
      );
    }
    return object.metadata.namespace;
  }
}
