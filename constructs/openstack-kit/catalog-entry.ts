/**
 * Where a service with an API stands in Keystone's catalogue, declared once in its descriptor: the
 * registration registers `http://<service>-api.<namespace>.svc:<port><path>` under `type` and
 * `name`, and the API built by `serveApi` listens on `port`.
 *
 * @example
 * catalog: { type: 'volumev3', name: 'cinder', port: 8776, path: '/v3/%(project_id)s' }
 */
export interface CatalogEntry {
  /** Catalogue type, e.g. `image`, `compute`, `placement`. */
  readonly type: string;
  /** Name in the catalogue, e.g. `glance`; also the service user's name. */
  readonly name: string;
  /** The port the API listens on. */
  readonly port: number;
  /**
   * Appended to the API's URL in the catalogue, e.g. `/v2.1` or `/v3/%(project_id)s`.
   * @default '' (the API's root)
   */
  readonly path?: string;
}
