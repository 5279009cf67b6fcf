import { KubeObject } from '../../../graph';
import { asNumber, asRecord, asString } from '../../readiness/object-fields';

/**
 * A core/v1 Event reduced to what the rules read. Events written through the newer
 * events.k8s.io API (the scheduler's) carry their count and time in `series` and `eventTime`;
 * both shapes end up here alike.
 */
export interface ClusterEvent {
  /** `Normal` or `Warning`. */
  readonly type: string;
  /** The reporter's reason, e.g. `FailedCreate`, `ProvisioningFailed`, `FailedScheduling`, `BackOff`. */
  readonly reason: string;
  readonly message: string;
  /** The object it is about. */
  readonly involved: {
    readonly kind: string;
    readonly name: string;
    readonly namespace?: string;
    readonly uid?: string;
  };
  /** How often it happened (the API server folds repeats into one Event). */
  readonly count: number;
  /** When it was last seen, ms since the epoch; undefined when the Event carries no time. */
  readonly lastSeen?: number;
}

/** Reads a core/v1 Event (either writer's shape). */
export function clusterEvent(raw: KubeObject): ClusterEvent {
  const e = raw as unknown as Record<string, unknown>;
  const involved = asRecord(e.involvedObject ?? e.regarding);
  const series = asRecord(e.series);
  const time =
    asString(series.lastObservedTime) ??
    asString(e.lastTimestamp) ??
    asString(e.eventTime) ??
    asString(e.firstTimestamp) ??
    raw.metadata.creationTimestamp;
  const parsed = typeof time === 'string' ? Date.parse(time) : NaN;
  return {
    type: asString(e.type) ?? 'Normal',
    reason: asString(e.reason) ?? '',
    message: (asString(e.message) ?? asString(e.note) ?? '').trim(),
    involved: {
      kind: asString(involved.kind) ?? '',
      name: asString(involved.name) ?? '',
      ...(asString(involved.namespace) ? { namespace: asString(involved.namespace) } : {}),
      ...(asString(involved.uid) ? { uid: asString(involved.uid) } : {}),
    },
    count: asNumber(series.count) ?? asNumber(e.count) ?? 1,
    ...(Number.isNaN(parsed) ? {} : { lastSeen: parsed }),
  };
}

/** `Kind/namespace/name` of the object an event is about (as `objectRef` writes it). */
export function involvedRef(event: ClusterEvent): string {
  const { kind, namespace, name } = event.involved;
  return namespace ? `${kind}/${namespace}/${name}` : `${kind}/${name}`;
}

/** `kind name` for sentences: `ReplicaSet keystone-api-7d9f`. */
export function involvedName(event: ClusterEvent): string {
  return `${event.involved.kind} ${event.involved.name}`;
}

/** The namespace of the object an event is about, for the `kubectl -n` of a fix: `default` when it names none. */
export function involvedNamespace(event: ClusterEvent): string {
  return event.involved.namespace ?? 'default';
}
