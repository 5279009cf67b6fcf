import { k8s } from 'cdk8s-plus-33';
import { Cloud, Component } from '../../lib/model';

/**
 * The identity of the Jobs that create credentials in the cluster: a ServiceAccount allowed to
 * read and create Secrets in the cloud's namespace, nothing else. One per cloud, created on first use.
 */
export class SecretWriter extends Component {
  /** The cloud's secret writer, created the first time it is asked for. */
  static of(cloud: Cloud): SecretWriter {
    const existing = cloud.node.tryFindChild(SecretWriter.ID);
    return existing instanceof SecretWriter ? existing : new SecretWriter(cloud);
  }

  private static readonly ID = 'secret-writer';

  readonly serviceAccountName: string;

  private constructor(cloud: Cloud) {
    super(cloud, SecretWriter.ID);
    this.serviceAccountName = this.componentName;
    const metadata = { name: this.componentName };
    new k8s.KubeServiceAccount(this, 'service-account', { metadata, automountServiceAccountToken: false });
    new k8s.KubeRole(this, 'role', {
      metadata,
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'create'] }],
    });
    new k8s.KubeRoleBinding(this, 'role-binding', {
      metadata,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: this.componentName },
      subjects: [{ kind: 'ServiceAccount', name: this.componentName, namespace: cloud.namespace }],
    });
  }
}
