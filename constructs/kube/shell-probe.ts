import { k8s } from 'cdk8s-plus-33';

/**
 * A probe that runs `command` with `/bin/sh -c` every 10 s (5 s timeout): for agents whose health
 * is a command line (`ovs-vsctl show`, a socket test) rather than a port.
 */
export function shellProbe(command: string, initialDelaySeconds: number, failureThreshold = 3): k8s.Probe {
  return {
    exec: { command: ['/bin/sh', '-c', command] },
    initialDelaySeconds,
    periodSeconds: 10,
    timeoutSeconds: 5,
    failureThreshold,
  };
}
