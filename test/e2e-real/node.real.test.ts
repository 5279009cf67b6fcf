/**
 * The real node itself (scripts/cluster/real-node.sh): registered Ready with the control profile's
 * Yaook keys, a dynamically provisioned volume that an unprivileged pod can write through its
 * fsGroup, cluster DNS and the `kubernetes` Service from a pod, and `kubectl logs` through the kubelet.
 */
import { uniqueSuffix } from '../e2e/support/kube';
import { applyObject, kubectl, realNodeName, succeededPodLog } from './support/cli';
import { LOCAL_IMAGES } from './support/images';

const namespace = `sw-node-${uniqueSuffix()}`;

beforeAll(() => {
  kubectl('create', 'namespace', namespace);
});

afterAll(() => {
  kubectl('delete', 'namespace', namespace, '--wait=false');
});

interface NodeList {
  items: {
    metadata: { name: string; labels: Record<string, string> };
    status: { conditions: { type: string; status: string }[] };
  }[];
}

test('the real node is Ready and is the only node with the control profile keys', () => {
  // WHEN
  const nodes = (JSON.parse(kubectl('get', 'nodes', '-o', 'json')) as NodeList).items;
  // THEN
  const withDbKey = nodes.filter((n) => n.metadata.labels['infra.yaook.cloud/db'] === 'true');
  expect(withDbKey.map((n) => n.metadata.name)).toEqual([realNodeName()]);
  expect(withDbKey[0].status.conditions.find((c) => c.type === 'Ready')?.status).toBe('True');
  expect(withDbKey[0].metadata.labels['any.yaook.cloud/api']).toBe('true');
});

test('an unprivileged pod writes its fsGroup-owned volume, resolves Services and is logged', () => {
  // GIVEN a claim of the default StorageClass and a pod as uid 42424
  applyObject({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '64Mi' } } },
  });
  applyObject({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'writer', namespace },
    spec: {
      restartPolicy: 'Never',
      nodeSelector: { 'kubernetes.io/hostname': realNodeName() },
      securityContext: { runAsUser: 42424, runAsGroup: 42424, fsGroup: 42424, runAsNonRoot: true },
      containers: [
        {
          name: 'writer',
          image: LOCAL_IMAGES.minbase,
          imagePullPolicy: 'IfNotPresent',
          command: [
            'sh',
            '-ec',
            'echo written > /data/file; cat /data/file; stat -c %g /data; getent hosts kubernetes.default.svc.cluster.local | cut -d" " -f1',
          ],
          securityContext: {
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
          },
          volumeMounts: [{ name: 'data', mountPath: '/data' }],
        },
      ],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
    },
  });
  // WHEN
  const log = succeededPodLog(namespace, 'writer', '180s');
  // THEN
  expect(log).toEqual(['written', '42424', '10.96.0.1']);
  const volume = kubectl(
    'get',
    'pv',
    kubectl('-n', namespace, 'get', 'pvc', 'data', '-o', 'jsonpath={.spec.volumeName}'),
    '-o',
    'jsonpath={.spec.storageClassName} {.spec.local.path}',
  );
  expect(volume).toMatch(/^local-path \/.+/);
});
