/** Namespaces Kubernetes itself uses: a cloud there mixes its objects with the cluster's own. */
export const RESERVED_NAMESPACES: readonly string[] = [
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
];

/** Problems with putting a cloud in `namespace` without saying so (`allowReservedNamespace: true`). */
export function reservedNamespaceProblems(namespace: unknown, allowed: boolean): string[] {
  if (allowed || typeof namespace !== 'string' || !RESERVED_NAMESPACES.includes(namespace)) return [];
  return [
    `namespace "${namespace}" is reserved for the cluster's own objects; use a namespace of the cloud's own (e.g. 'openstack'), or pass allowReservedNamespace: true to mean it`,
  ];
}
