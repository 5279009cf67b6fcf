import { stringify } from 'yaml';
import { deployerBindings, deployerRbac, DeployerSubject } from '../../runtime/deployer-rbac';
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
  const subject = options.serviceAccount ? subjectOf(options.serviceAccount) : undefined;
  const { graph } = loadGraph(io, dir);
  const name = options.name ?? `stackwright-deployer-${inventoryLocation(graph).cloud}`;
  const rbac = deployerRbac(graph, name);
  const bindings = subject ? deployerBindings(rbac, name, subject) : [];
  io.stdout.write([rbac.clusterRole, ...rbac.roles, ...bindings].map((o) => stringify(o)).join('---\n'));
  return ExitCode.OK;
}

/** `--service-account NAMESPACE/NAME` as the subject of the bindings. */
function subjectOf(serviceAccount: string): DeployerSubject {
  const match = /^([a-z0-9-]+)\/([a-z0-9.-]+)$/.exec(serviceAccount);
  if (!match) throw new UsageError(`--service-account must be NAMESPACE/NAME, got "${serviceAccount}"`);
  return { namespace: match[1], serviceAccount: match[2] };
}
