import { KubeObject } from '../../graph';
import { ReadinessResult } from '../ports';
import { asArray, asRecord, asString, current, inProgress, spec, status } from './object-fields';

/** Options of the Service rule. */
export interface ServiceReadinessOptions {
  /**
   * Wait for a LoadBalancer Service to get an ingress address. Off by default: it is slow and
   * clusters without a load-balancer controller never assign one.
   * @default false
   */
  readonly waitForLoadBalancer?: boolean;
}

/**
 * Service: Current once it has a cluster IP (or is headless / ExternalName). A LoadBalancer
 * Service additionally waits for an ingress address only when asked to.
 */
export function serviceReadiness(live: KubeObject, options: ServiceReadinessOptions = {}): ReadinessResult {
  const sp = spec(live);
  const type = asString(sp.type) ?? 'ClusterIP';
  if (type === 'ExternalName') return current(`ExternalName ${asString(sp.externalName) ?? ''}`.trim());
  const clusterIP = asString(sp.clusterIP);
  if (!clusterIP) return inProgress('waiting for a cluster IP');
  if (type !== 'LoadBalancer')
    return current(clusterIP === 'None' ? 'headless service' : `cluster IP ${clusterIP}`);
  const ingress = asArray(asRecord(status(live).loadBalancer).ingress).map((i) => {
    const entry = asRecord(i);
    return asString(entry.ip) ?? asString(entry.hostname) ?? '?';
  });
  if (ingress.length > 0) return current(`load balancer at ${ingress.join(', ')}`);
  if (options.waitForLoadBalancer)
    return inProgress('waiting for the load balancer to get an ingress address');
  return current(`cluster IP ${clusterIP}; load balancer ingress not assigned yet (not waited for)`);
}

/** The Service rule that waits for a load balancer ingress. */
export function serviceReadinessWaitingForLoadBalancer(live: KubeObject): ReadinessResult {
  return serviceReadiness(live, { waitForLoadBalancer: true });
}
