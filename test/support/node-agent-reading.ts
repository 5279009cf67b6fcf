import { k8s } from 'cdk8s-plus-33';
import { copySecretsForNodeAgent } from '../../constructs/kube/agent-secret-copy';
import { Cloud, Component } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';

/**
 * A node agent of `cloud` (component `agent`, on the hypervisors) whose pod reads `key` of
 * `secretName` from the environment, so the cloud copies that Secret into the agents' namespace.
 */
export function nodeAgentReading(cloud: Cloud, secretName: string, key: string): Component {
  const agent = new Component(cloud, 'agent', { placement: placement(SchedulingKey.COMPUTE_HYPERVISOR) });
  cloud.addNodeAgent(agent);
  const env = [{ name: 'FROM_SECRET', valueFrom: { secretKeyRef: { name: secretName, key } } }];
  copySecretsForNodeAgent(agent, {
    spec: { containers: [{ name: 'main', image: 'example/agent:1', env }] },
  } as k8s.PodTemplateSpec);
  return agent;
}
