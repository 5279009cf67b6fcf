import { k8s } from 'cdk8s-plus-33';
import { Component, JsonApiObject } from '../../lib/model';
import { copySecretsForNodeAgent } from './agent-secret-copy';
import { podTemplate, PodTemplateOptions } from './pod-template';

/**
 * The DaemonSet of a node agent that runs in the host's namespaces (hypervisor, virtual switch):
 * `hostAgent` pods, rolled one node at a time so a restart interrupts one node's instances at most,
 * in the cloud's agent namespace with copies of the Secrets they read. Say at the call site why the
 * agent needs the host.
 */
export function hostAgentDaemonSet(
  component: Component,
  pod: Omit<PodTemplateOptions, 'hostAgent'>,
): JsonApiObject<k8s.KubeDaemonSetProps> {
  const template = podTemplate(component, { ...pod, hostAgent: true });
  copySecretsForNodeAgent(component, template);
  return new JsonApiObject(component, 'daemonset', k8s.KubeDaemonSet, {
    metadata: { name: component.componentName },
    spec: {
      selector: { matchLabels: component.selectorLabels },
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: k8s.IntOrString.fromNumber(1) },
      },
      template,
    },
  });
}

/** A directory of the node mounted into a host agent's pod (created when missing unless `type` says otherwise). */
export function hostDirectory(name: string, path: string, type = 'DirectoryOrCreate'): k8s.Volume {
  return { name, hostPath: { path, type } };
}

/**
 * The node's kernel modules, for agents that may load one (Open vSwitch's, KVM's, TUN). Created when
 * missing: a kernel with everything it needs built in (a VM such as the test cluster's real node)
 * has no `/lib/modules`, and then there is nothing to load.
 */
export function hostKernelModules(): k8s.Volume {
  return hostDirectory('lib-modules', '/lib/modules');
}
