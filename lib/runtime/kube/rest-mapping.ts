/**
 * REST mapping: which URL serves a kind. Built from the API server's discovery documents; pure
 * parsing here, the caching `RestMapper` is in `rest-mapper.ts`.
 */

/** How one kind is served. */
export interface ResourceMapping {
  /** `''` for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Plural resource name used in URLs, e.g. `deployments`. */
  readonly resource: string;
  readonly namespaced: boolean;
}

/** `apps/v1` + `Deployment` -> `apps/v1/Deployment`; the key of a mapping table. */
export function mappingKey(apiVersion: string, kind: string): string {
  return `${apiVersion}/${kind}`;
}

/** Splits `apps/v1` into group and version; `v1` is the core group. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The inverse of `splitApiVersion`. */
export function joinApiVersion(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/**
 * Parses an aggregated discovery document (`apidiscovery.k8s.io/v2` `APIGroupDiscoveryList`, served
 * by `/api` and `/apis` since Kubernetes 1.30): every group, version and top-level resource in one
 * response, which is what makes discovery cost two requests instead of one per group version.
 * Returns undefined when the document is not aggregated (an old server answered `APIGroupList`).
 */
export function parseAggregatedDiscovery(document: unknown): ResourceMapping[] | undefined {
  const doc = asRecord(document);
  if (!doc || doc.kind !== 'APIGroupDiscoveryList' || !Array.isArray(doc.items)) return undefined;
  const mappings: ResourceMapping[] = [];
  for (const item of doc.items) {
    const group = String(asRecord(asRecord(item)?.metadata)?.name ?? '');
    const versions = asRecord(item)?.versions;
    if (!Array.isArray(versions)) continue;
    for (const v of versions) {
      const version = String(asRecord(v)?.version ?? '');
      const resources = asRecord(v)?.resources;
      if (!version || !Array.isArray(resources)) continue;
      for (const r of resources) {
        const record = asRecord(r);
        const responseKind = asRecord(record?.responseKind);
        const resource = record?.resource;
        const kind = responseKind?.kind;
        if (typeof resource !== 'string' || typeof kind !== 'string' || resource.includes('/')) continue;
        mappings.push({ group, version, kind, resource, namespaced: record?.scope === 'Namespaced' });
      }
    }
  }
  return mappings;
}

/**
 * Parses a legacy `APIResourceList` (`/api/v1`, `/apis/<group>/<version>`), skipping subresources
 * such as `deployments/status`.
 */
export function parseResourceList(document: unknown): ResourceMapping[] {
  const doc = asRecord(document);
  if (!doc || typeof doc.groupVersion !== 'string' || !Array.isArray(doc.resources)) return [];
  const { group, version } = splitApiVersion(doc.groupVersion);
  const mappings: ResourceMapping[] = [];
  for (const r of doc.resources) {
    const record = asRecord(r);
    if (typeof record?.name !== 'string' || typeof record.kind !== 'string' || record.name.includes('/'))
      continue;
    mappings.push({
      group,
      version,
      kind: record.kind,
      resource: record.name,
      namespaced: record.namespaced === true,
    });
  }
  return mappings;
}

/**
 * The URL path of a collection or one object: `/api/v1/namespaces/ns/configmaps/name`,
 * `/apis/rbac.authorization.k8s.io/v1/clusterroles/name`. A namespaced kind without a namespace
 * addresses the collection across all namespaces.
 */
export function resourcePath(mapping: ResourceMapping, namespace?: string, name?: string): string {
  const base = mapping.group === '' ? `/api/${mapping.version}` : `/apis/${mapping.group}/${mapping.version}`;
  const scope = mapping.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const object = name === undefined ? '' : `/${encodeURIComponent(name)}`;
  return `${base}${scope}/${mapping.resource}${object}`;
}

/** List items and watch objects may omit apiVersion/kind: sets them from the mapping. */
export function typedBy<T extends object>(object: T, mapping: ResourceMapping): T {
  const typed = object as { apiVersion?: string; kind?: string };
  if (!typed.apiVersion)
    typed.apiVersion = mapping.group === '' ? mapping.version : `${mapping.group}/${mapping.version}`;
  if (!typed.kind) typed.kind = mapping.kind;
  return object;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
