import { stringify } from 'yaml';
import { KubeObject } from '../../graph';
import { deployerRbac } from '../../runtime/deployer-rbac';
import { inventoryLocation } from '../../runtime/inventory/inventory';
import { ExitCode } from '../exit-codes';
import { CliIo } from '../io';
import { loadGraph, UsageError } from './common';

/**
 * `stackwright rbac [dir]`: the least-privilege Roles and ClusterRole for whoever deploys the
 * synthesised cloud (see `deployerRbac`), as YAML on stdout for `kubectl apply -f -`. With
 * `--service-account NAMESPACE/NAME`, also the bindings that give them to that ServiceAccount.
 */
export function rbacCommand(
  io: CliIo,
  dir: string | undefined,
  options: { name?: string; serviceAccount?: string },
): number {
  const { graph } = loadGraph(io, dir);
  const name = options.name ?? `stackwright-deployer-${inventoryLocation(graph).cloud}`;
  const { roles, clusterRole } = deployerRbac(graph, name);
  const bindings = options.serviceAccount ? bindingsFor(options.serviceAccount, roles, name) : [];
  io.stdout.write([clusterRole, ...roles, ...bindings].map((o) => stringify(o)).join('---\n'));
  return ExitCode.OK;
}

function bindingsFor(serviceAccount: string, roles: readonly KubeObject[], name: string): KubeObject[] {
  const match = /^([a-z0-9-]+)\/([a-z0-9.-]+)$/.exec(serviceAccount);
  if (!match) {
    throw new UsageError(`--service-account must be NAMESPACE/NAME, got "${serviceAccount}"`);
  }
  const subjects = [{ kind: 'ServiceAccount', namespace: match[1], name: match[2] }];
  const roleRef = (kind: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: roleRef('ClusterRole'),
      subjects,
    } as KubeObject,
    ...roles.map(
      (role) =>
        ({
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name, namespace: role.metadata.namespace },
          roleRef: roleRef('Role'),
          subjects,
        }) as KubeObject,
    ),
  ];
}
