import { k8s } from 'cdk8s-plus-33';
import { shellWord } from '../kube/shell-word';
import { SecretRef } from '../kube/secret-ref';
import { shown } from '../../lib/graph';

/**
 * An existing Ceph cluster, reached as one cephx user. Stackwright deploys nothing for it and gates
 * nothing on it; the keyring stays in a Secret the user provides.
 *
 * @example
 * const ceph: CephClient = { monitors: ['10.0.0.1:6789'], user: 'cinder', keyring: { secretName: 'ceph-cinder', key: 'keyring' } };
 */
export interface CephClient {
  /** Monitor addresses (`host` or `host:port`), rendered into `ceph.conf` as `mon_host`. */
  readonly monitors: readonly string[];
  /** The cephx user without the `client.` prefix, e.g. `cinder`. */
  readonly user: string;
  /** The Secret key holding the user's keyring file (`[client.<user>]` with its `key = ...`). */
  readonly keyring: SecretRef;
}

/** Where a Ceph client's files are mounted in a pod. */
export const CEPH_CONFIG_DIR = '/etc/ceph';

/** `ceph.conf` text for a client: the monitors and the keyring path. */
export function renderCephConf(client: CephClient): string {
  return [
    '[global]',
    `mon_host = ${client.monitors.map((m) => shellWord(m, 'Ceph monitor')).join(',')}`,
    `keyring = ${shellWord(cephKeyringPath(client), 'keyring path')}`,
    '',
  ].join('\n');
}

/** Path of the client's keyring inside the pod. */
export function cephKeyringPath(client: CephClient): string {
  return `${CEPH_CONFIG_DIR}/ceph.client.${client.user}.keyring`;
}

/**
 * The keyring Secret as a volume and a read-only mount of just that file, so a pod can mount
 * several clients' keyrings (and `ceph.conf` from its ConfigMap) side by side.
 */
export function cephKeyringVolume(
  client: CephClient,
  volumeName: string,
): { volume: k8s.Volume; mount: k8s.VolumeMount } {
  const file = `ceph.client.${client.user}.keyring`;
  return {
    volume: {
      name: volumeName,
      secret: { secretName: client.keyring.secretName, items: [{ key: client.keyring.key, path: file }] },
    },
    mount: { name: volumeName, mountPath: cephKeyringPath(client), subPath: file, readOnly: true },
  };
}

/** Problems with a Ceph client's settings (empty when valid), phrased with the fix. */
export function cephClientProblems(client: CephClient | undefined, where: string): string[] {
  if (typeof client !== 'object' || client === null)
    return [`${where} must be { monitors, user, keyring }, got ${shown(client)}`];
  const problems: string[] = [];
  if (!Array.isArray(client.monitors) || client.monitors.length === 0)
    problems.push(`${where}.monitors is empty; list the Ceph monitors, e.g. ['10.0.0.1:6789']`);
  for (const monitor of Array.isArray(client.monitors) ? client.monitors : []) {
    if (typeof monitor !== 'string' || !/^[A-Za-z0-9.:[\]-]+$/.test(monitor))
      problems.push(
        `${where}.monitors: ${shown(monitor)} is not a monitor address; write host or host:port, e.g. '10.0.0.1:6789'`,
      );
  }
  if (
    typeof client.user !== 'string' ||
    !/^[A-Za-z0-9_.-]+$/.test(client.user) ||
    client.user.startsWith('client.')
  ) {
    problems.push(
      `${where}.user ${JSON.stringify(client.user)} is not a cephx user name; give it without the "client." prefix, e.g. 'cinder'`,
    );
  }
  return problems;
}

/**
 * A Ceph pool and client, `{ pool, ceph }`, checked at the boundary of the construct that renders
 * its `ceph.conf` (Gnocchi's storage, Cinder's backends and backup).
 */
export function cephPoolProblems(
  value: { pool?: unknown; ceph?: CephClient } | undefined,
  where: string,
): string[] {
  return [
    ...(typeof value?.pool === 'string' && /^[A-Za-z0-9_.-]+$/.test(value.pool)
      ? []
      : [
          `${where}.pool ${shown(value?.pool)} is not a Ceph pool name; use letters, digits, '_', '.' and '-'`,
        ]),
    ...cephClientProblems(value?.ceph, `${where}.ceph`),
  ];
}
