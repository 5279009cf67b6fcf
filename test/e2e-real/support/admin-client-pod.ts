import { Keystone } from '../../../constructs/openstack/keystone';
import { envFromSecret, SecretRef } from '../../../constructs/kube/secret-ref';
import { LOCAL_IMAGES } from './images';
import { realNodeName } from './cli';

export interface AdminClientOptions {
  /** An image with openstacksdk. @default LOCAL_IMAGES.openstackClient */
  readonly image?: string;
  /** More variables, read from Secrets (e.g. a generated tempest.conf's `secretEnv`). @default - none */
  readonly secretEnv?: Readonly<Record<string, SecretRef>>;
}

/**
 * What the client pod requests. It stands in for a user's machine, so it must not wait for the CPU
 * itself: without requests a pod is BestEffort, and the kubelet gives that class 2 CPU shares
 * against the hundreds of the cloud's pods. Under an upgrade's load the API load's own loops then
 * went unscheduled for seconds: its throughput fell from 13 to 1.5 requests/s while Jobs started,
 * and one request "timed out" after 10.3 s (a measuring error, not the cloud's). At 200m it weighs
 * more than any pod of the cloud, and it only uses that when its loops have work.
 */
const CLIENT_POD_REQUESTS = { cpu: '200m', memory: '128Mi' };

/**
 * A pod with openstacksdk as the cloud's admin, through the cloud's Services, on the real node
 * (without a Yaook key of its own it could land on a kwok node, where nothing runs). It complies
 * with Pod Security `restricted`, which the cloud's namespace enforces, like the cloud's own pods.
 */
export function adminClientPod(
  keystone: Keystone,
  name: string,
  namespace: string,
  command: string[],
  options: AdminClientOptions = {},
) {
  const password = keystone.adminCredentials.ref('password');
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: {
      restartPolicy: 'Never',
      nodeSelector: { 'kubernetes.io/hostname': realNodeName() },
      securityContext: {
        runAsUser: 42424,
        runAsGroup: 42424,
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      containers: [
        {
          name: 'client',
          image: options.image ?? LOCAL_IMAGES.openstackClient,
          imagePullPolicy: 'IfNotPresent',
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
          command,
          resources: { requests: CLIENT_POD_REQUESTS },
          env: [
            {
              name: 'OS_AUTH_URL',
              value: `http://${keystone.api.serviceObject.name}:${keystone.api.port}/v3`,
            },
            { name: 'OS_USERNAME', value: 'admin' },
            {
              name: 'OS_PASSWORD',
              valueFrom: { secretKeyRef: { name: password.secretName, key: password.key } },
            },
            { name: 'OS_PROJECT_NAME', value: 'admin' },
            { name: 'OS_USER_DOMAIN_NAME', value: 'Default' },
            { name: 'OS_PROJECT_DOMAIN_NAME', value: 'Default' },
            { name: 'OS_REGION_NAME', value: keystone.region },
            { name: 'OS_INTERFACE', value: 'internal' },
            { name: 'HOME', value: '/tmp' },
            ...Object.entries(options.secretEnv ?? {}).map(([variable, ref]) => envFromSecret(variable, ref)),
          ],
          volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
        },
      ],
      volumes: [{ name: 'tmp', emptyDir: {} }],
    },
  };
}
