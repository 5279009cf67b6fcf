import { NoMatchError } from './errors';
import {
  joinApiVersion,
  mappingKey,
  parseAggregatedDiscovery,
  parseResourceList,
  ResourceMapping,
  splitApiVersion,
} from './rest-mapping';
import { KubeApiError } from './errors';
import { KubeTransport } from './transport';

const AGGREGATED_DISCOVERY =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
/** A miss re-reads discovery at most this often: a CRD applied moments ago shows up within it. */
const MIN_REFRESH_INTERVAL_MS = 500;

/** The part of the transport the mapper needs (a fake in unit tests). */
export type DiscoveryClient = Pick<KubeTransport, 'request'>;

/**
 * Maps kinds to resources from the API server's discovery, cached for the life of the port.
 * The first lookup reads aggregated discovery (`/api` + `/apis`: two requests for the whole
 * cluster); a miss re-reads it (rate-limited), then tries the group version's legacy document, and
 * only then reports `NoMatchError`. Call `invalidate()` when a CRD becomes established.
 */
export class RestMapper {
  private readonly table = new Map<string, ResourceMapping>();
  private loaded: Promise<void> | undefined;
  private lastRefresh = 0;

  constructor(
    private readonly client: DiscoveryClient,
    private readonly now: () => number = Date.now,
  ) {}

  /** The mapping for a kind, re-reading discovery once on a miss. */
  async resolve(apiVersion: string, kind: string): Promise<ResourceMapping> {
    await this.ensureLoaded();
    const key = mappingKey(apiVersion, kind);
    const cached = this.table.get(key);
    if (cached) return cached;
    if (this.now() - this.lastRefresh >= MIN_REFRESH_INTERVAL_MS) {
      this.invalidate();
      await this.ensureLoaded();
      const refreshed = this.table.get(key);
      if (refreshed) return refreshed;
    }
    await this.loadGroupVersion(apiVersion);
    const legacy = this.table.get(key);
    if (legacy) return legacy;
    throw new NoMatchError(apiVersion, kind);
  }

  /** Forget cached discovery (after a CRD was established or removed). */
  invalidate(): void {
    this.loaded = undefined;
  }

  private ensureLoaded(): Promise<void> {
    if (!this.loaded) {
      this.lastRefresh = this.now();
      this.loaded = this.loadAggregated().catch((error: unknown) => {
        this.loaded = undefined;
        throw error;
      });
    }
    return this.loaded;
  }

  private async loadAggregated(): Promise<void> {
    const [core, groups] = await Promise.all(
      ['/api', '/apis'].map((path) =>
        this.client.request({ method: 'GET', path, accept: AGGREGATED_DISCOVERY, verb: 'get' }),
      ),
    );
    const coreMappings = parseAggregatedDiscovery(core.body);
    const groupMappings = parseAggregatedDiscovery(groups.body);
    // An old server: fall back to per-group-version documents, fetched lazily on first use.
    if (!coreMappings || !groupMappings) return;
    // Discovery lists the preferred version first; keep every version so any apiVersion resolves.
    for (const m of [...coreMappings, ...groupMappings])
      this.table.set(mappingKey(joinApiVersion(m.group, m.version), m.kind), m);
  }

  private async loadGroupVersion(apiVersion: string): Promise<void> {
    const { group } = splitApiVersion(apiVersion);
    const path = group === '' ? `/api/${apiVersion}` : `/apis/${apiVersion}`;
    try {
      const response = await this.client.request({ method: 'GET', path, verb: 'get' });
      for (const m of parseResourceList(response.body))
        this.table.set(mappingKey(joinApiVersion(m.group, m.version), m.kind), m);
    } catch (error) {
      if (!(error instanceof KubeApiError && error.status === 404)) throw error;
    }
  }
}
