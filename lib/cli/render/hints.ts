import { failureCauses, FailureCause, RunMode, RunResult } from '../../runtime';

/** How a deletion is run again. */
const rerunDeletion = (mode: 'destroy' | 'prune') =>
  mode === 'destroy' ? 'run destroy again' : 'run deploy --prune again';

/**
 * What a person can do next about each kind of failure, read from the typed causes (never from the
 * prose of a reason). Declared for every cause, so a new cause cannot ship without its hint.
 */
const NEXT_STEP: Readonly<Record<FailureCause, (mode: RunMode) => string>> = {
  conflict: (mode) =>
    mode === 'deploy'
      ? 'another field manager owns fields Stackwright sets: find it with `kubectl get <object> --show-managed-fields`, or re-run with --force-conflicts to take them over'
      : 'another field manager owns fields Stackwright sets: deploy --force-conflicts takes them over',
  'apply-rejected': (mode) =>
    mode === 'destroy' || mode === 'prune'
      ? `the API server refused a deletion (the reason quotes it): check that you may delete it (\`kubectl auth can-i delete <kind> -n <namespace>\`), then ${rerunDeletion(mode)}`
      : 'the API server refused an object (the reason quotes it): fix the stack or the manifest, synthesise again and re-run',
  'object-failed': () =>
    'a workload or Job failed (see the diagnosis): `kubectl logs` / `kubectl describe` the pods it names, fix, and re-run',
  'quota-exceeded': () =>
    'a ResourceQuota forbids the pods (the diagnosis names it): raise it with your cluster admin, or lower the requests, then re-run',
  'storage-class-missing': () =>
    'a volume names a StorageClass the cluster does not have: create it (or mark one default), or set the storage class in the stack',
  'admission-denied': () =>
    'an admission webhook refused the pods (the diagnosis quotes it): satisfy its policy or exempt the namespace, then re-run',
  'pod-security': () =>
    "the namespace's Pod Security level forbids these pods: label the namespace for the level the diagnosis names, or move the workload",
  'service-account-missing': () =>
    'the pods name a ServiceAccount that does not exist: deploy the component that owns it first, or fix the name',
  unschedulable: () =>
    'no node can take the pods (the diagnosis says why): label or add nodes, or relax the placement, then re-run',
  'image-pull': () =>
    'an image cannot be pulled: check its name and tag, the registry and the pull secret, then re-run',
  'crash-loop': () =>
    'a container keeps crashing: read `kubectl logs --previous` of the pod the diagnosis names, fix the configuration, re-run',
  'job-failed': () =>
    'a Job ran out of retries: read the logs of its last pod, fix the cause, delete the Job (`kubectl delete job <name>`) and re-run',
  'cluster-unreachable': (mode) =>
    mode === 'destroy' || mode === 'prune'
      ? `the API server stopped answering and did not come back in time: check the cluster, then ${rerunDeletion(mode)} (what is gone stays gone), or wait longer with --api-loss-timeout`
      : 'the API server stopped answering and did not come back in time: check the cluster, then re-run (verified components are skipped), or wait longer with --api-loss-timeout',
  timeout: (mode) =>
    mode === 'deploy'
      ? 'a component was still converging at its limit: read the diagnosis, then raise --component-timeout or keep watching with `stackwright verify <dir> --wait 10m`'
      : mode === 'verify'
        ? 'a component was not ready in time: read the diagnosis, or give it longer with --wait'
        : `an object was still there at the limit, usually held by a finalizer (\`kubectl get <object> -o jsonpath='{.metadata.finalizers}'\` names it): let its controller finish, or remove the finalizer if that controller is gone, then ${rerunDeletion(mode)}` +
          (mode === 'destroy' ? ' (or allow longer with --component-timeout)' : ''),
  blocked: (mode) =>
    mode === 'destroy' || mode === 'prune'
      ? `kept units are deleted once the unit they wait for is gone: fix its failure and ${rerunDeletion(mode)}`
      : 'blocked components start once the failure they wait for is fixed and the command is run again',
  aborted: (mode) =>
    mode === 'deploy'
      ? 'the run was stopped: run deploy again; components already verified are skipped as unchanged'
      : mode === 'verify'
        ? 'the run was stopped: run verify again'
        : `the run was stopped: ${rerunDeletion(mode)}; what is already deleted stays deleted`,
  internal: () =>
    'an unexpected error inside Stackwright: please report it with the output of the same command and --json',
};

/**
 * One line per distinct failure cause of a run (deploy, verify, destroy or prune), in the order
 * the causes first appear, worded for the command that is run again.
 */
export function nextSteps(result: RunResult): string[] {
  return [...new Set(failureCauses(result))].map((cause) => NEXT_STEP[cause](result.mode));
}
