import { k8s } from 'cdk8s-plus-33';
import { Cloud, Component, JsonApiObject } from '../../lib/model';

/**
 * Gives one component its own identity on the Kubernetes API: a ServiceAccount, a Role with
 * exactly `rules` and the RoleBinding between them, all named after the component and owned by
 * it (applied with it, deleted with it). Returns the ServiceAccount's name.
 *
 * One identity per component, never a shared one: a token mounted in one Job then grants only
 * what that Job needs (a generator Job: its own Secret, see {@link GeneratedSecret}).
 */
export function jobIdentity(component: Component, rules: readonly k8s.PolicyRule[]): string {
  const name = component.componentName;
  const metadata = { name };
  new JsonApiObject(component, 'service-account', k8s.KubeServiceAccount, {
    metadata,
    automountServiceAccountToken: false,
  });
  new JsonApiObject(component, 'role', k8s.KubeRole, { metadata, rules: [...rules] });
  new JsonApiObject(component, 'role-binding', k8s.KubeRoleBinding, {
    metadata,
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    subjects: [{ kind: 'ServiceAccount', name, namespace: Cloud.of(component).namespace }],
  });
  return name;
}
