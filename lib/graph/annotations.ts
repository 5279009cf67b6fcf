import { EdgeKind, isEdgeKind } from './edge-kind';

/**
 * The manifest contract: every synthesised object carries these annotations, so a tool can rebuild
 * the component graph from YAML alone (`stackwright deploy dist/`, the Pulumi adapter, exporters).
 */
export const ANNOTATION_PREFIX = 'stackwright.io';

export const Annotations = {
  /** The cloud (root construct) the object belongs to. */
  CLOUD: `${ANNOTATION_PREFIX}/cloud`,
  /** The component that owns the object, e.g. `keystone-api`. Unique within a cloud. */
  COMPONENT: `${ANNOTATION_PREFIX}/component`,
  /** The service the component belongs to, e.g. `keystone`. */
  SERVICE: `${ANNOTATION_PREFIX}/service`,
  /** The construct path of the component, for error messages that point back at the code. */
  CONSTRUCT_PATH: `${ANNOTATION_PREFIX}/construct-path`,
  /** The component's edges, `name:kind` joined by commas and sorted, e.g. `keystone-db-sync:completed,memcached:ready`. */
  DEPENDS_ON: `${ANNOTATION_PREFIX}/depends-on`,
  /**
   * What a release upgrade derives its one-off Jobs from (docs/upgrades.md): `schema-sync` on a
   * service's schema migration Job (its pod template runs the recipe's checks and schema steps),
   * `cell-schema-sync` on the migration Job of each further cell, a database of the service's own
   * that the schema-sync pod's commands do not reach (Nova's cells 2 and up: its pod runs the
   * recipe's per-cell steps), `backup` on the database backup CronJob (its Job template runs before
   * the first schema step).
   */
  UPGRADE_TEMPLATE: `${ANNOTATION_PREFIX}/upgrade-template`,
  /**
   * `exists`: the runtime waits for the object to exist, not for its kind's readiness — for an
   * object that becomes ready only when something later uses it (a PersistentVolumeClaim of a
   * StorageClass that binds on first consumer, mounted only by a CronJob's pods). The only value.
   */
  WAIT: `${ANNOTATION_PREFIX}/wait`,
} as const;

/** The values of {@link Annotations.UPGRADE_TEMPLATE}. */
export const UPGRADE_TEMPLATE_ROLES = ['schema-sync', 'cell-schema-sync', 'backup'] as const;

/** One of {@link UPGRADE_TEMPLATE_ROLES}. */
export type UpgradeTemplateRole = (typeof UPGRADE_TEMPLATE_ROLES)[number];

/** One edge of the component graph: `from` needs `to`. */
export interface Edge {
  readonly from: string;
  readonly to: string;
  readonly kind: EdgeKind;
}

/** Encodes a component's outgoing edges into the `depends-on` annotation value (sorted, stable). */
export function encodeDependsOn(edges: readonly Pick<Edge, 'to' | 'kind'>[]): string {
  return [...edges]
    .map((e) => `${e.to}:${e.kind}`)
    .sort()
    .join(',');
}

/**
 * Decodes the `depends-on` annotation. Throws with the offending text when it is malformed, since a
 * hand-edited manifest is the only way to get there and the deploy must not guess.
 */
export function decodeDependsOn(from: string, value: string | undefined): Edge[] {
  if (!value) return [];
  return value.split(',').map((item) => {
    const separator = item.lastIndexOf(':');
    const to = item.slice(0, separator);
    const kind = item.slice(separator + 1);
    if (separator <= 0 || !isEdgeKind(kind)) {
      throw new Error(
        `component ${from}: malformed ${Annotations.DEPENDS_ON} entry "${item}"; expected "<component>:<ready|completed|same-node|runtime>"`,
      );
    }
    return { from, to, kind };
  });
}
