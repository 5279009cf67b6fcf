import { KubeObject, objectRef } from '../../graph';
import { asArray, asNumber, asRecord, asString } from '../readiness/object-fields';
import { ClusterEvent, involvedRef } from './events/cluster-event';

/**
 * The objects whose Events explain a component: its own objects, the ReplicaSets its Deployments
 * own, the pods behind its workloads and the PersistentVolumeClaims they mount. An Event concerns
 * the component when it is about one of them — the same incarnation when both carry a uid, so the
 * Events of a deleted and re-created object of the same name do not count.
 */
export class InvolvedObjects {
  private readonly uids = new Map<string, string | undefined>();

  /** Adds an object (by `Kind/namespace/name`, and uid when it has one). */
  add(object: KubeObject): void {
    this.uids.set(objectRef(object), asString(object.metadata.uid));
  }

  /** Adds a PersistentVolumeClaim by name (one a pod mounts, or a StatefulSet's claim template makes). */
  addClaim(namespace: string, name: string): void {
    const ref = `PersistentVolumeClaim/${namespace}/${name}`;
    if (!this.uids.has(ref)) this.uids.set(ref, undefined);
  }

  /** The namespaces of the objects, sorted. */
  namespaces(): string[] {
    return [...new Set([...this.uids.keys()].map((ref) => ref.split('/')[1]))].sort();
  }

  /** True when `event` is about one of the objects. */
  concerns(event: ClusterEvent): boolean {
    const ref = involvedRef(event);
    if (!this.uids.has(ref)) return false;
    const uid = this.uids.get(ref);
    return uid === undefined || event.involved.uid === undefined || uid === event.involved.uid;
  }
}

/** True when `owner` is among the owner references of `child` (by uid, or by kind and name). */
export function isOwnedBy(child: KubeObject, owner: KubeObject): boolean {
  return asArray(child.metadata.ownerReferences).some((raw) => {
    const ref = asRecord(raw);
    const uid = asString(ref.uid);
    const ownerUid = asString(owner.metadata.uid);
    if (uid !== undefined && ownerUid !== undefined) return uid === ownerUid;
    return asString(ref.kind) === owner.kind && asString(ref.name) === owner.metadata.name;
  });
}

/** The claims a pod mounts: named claims, and the claims of its generic ephemeral volumes. */
export function claimsOfPod(pod: KubeObject): string[] {
  return asArray(asRecord(pod.spec).volumes).flatMap((raw) => {
    const volume = asRecord(raw);
    const claim = asString(asRecord(volume.persistentVolumeClaim).claimName);
    if (claim) return [claim];
    if (volume.ephemeral !== undefined) return [`${pod.metadata.name}-${asString(volume.name) ?? ''}`];
    return [];
  });
}

/** The claims a StatefulSet's volumeClaimTemplates make: `<template>-<statefulset>-<ordinal>`. */
export function claimsOfStatefulSet(statefulSet: KubeObject): string[] {
  const spec = asRecord(statefulSet.spec);
  const replicas = asNumber(spec.replicas) ?? 1;
  return asArray(spec.volumeClaimTemplates).flatMap((raw) => {
    const template = asString(asRecord(asRecord(raw).metadata).name);
    if (!template) return [];
    return Array.from({ length: replicas }, (_, i) => `${template}-${statefulSet.metadata.name}-${i}`);
  });
}
