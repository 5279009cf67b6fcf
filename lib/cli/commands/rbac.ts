import { stringify } from 'yaml';
import {
  deployerBindings,
  deployerNameProblems,
  deployerRbac,
  DeployerSubject,
  deployerSubjectProblems,
} from '../../runtime/deployer-rbac';
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
  options: { name?: string; serviceAccount?: string; cloud?: string },
): number {
  // Usage errors before anything is read: a name the API server would refuse prints nothing.
  const subject = options.serviceAccount ? subjectOf(options.serviceAccount) : undefined;
  if (options.name !== undefined) {
    const problems = deployerNameProblems(options.name);
    if (problems.length > 0) throw new UsageError(`--name: ${problems.join('; ')}`);
  }
  const { graph } = loadGraph(io, dir, options.cloud);
  const name = options.name ?? `stackwright-deployer-${inventoryLocation(graph).cloud}`;
  const rbac = deployerRbac(graph, name);
  const bindings = subject ? deployerBindings(rbac, name, subject) : [];
  io.stdout.write([rbac.clusterRole, ...rbac.roles, ...bindings].map((o) => stringify(o)).join('---\n'));
  return ExitCode.OK;
}

/** `--service-account NAMESPACE/NAME` as the subject of the bindings. */
function subjectOf(serviceAccount: string): DeployerSubject {
  const parts = serviceAccount.split('/');
  if (parts.length !== 2)
    throw new UsageError(`--service-account must be NAMESPACE/NAME, got ${JSON.stringify(serviceAccount)}`);
  const subject = { namespace: parts[0], serviceAccount: parts[1] };
  const problems = deployerSubjectProblems(subject);
  if (problems.length > 0) throw new UsageError(`--service-account: ${problems.join('; ')}`);
  return subject;
}
