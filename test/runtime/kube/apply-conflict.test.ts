import { ApplyConflictError } from '../../../lib/runtime/ports';
import { parseApplyConflicts, toApplyConflict } from '../../../lib/runtime/kube/apply-conflict';
import { KubeApiError, KubeStatus } from '../../../lib/runtime/kube/errors';

/** A 409 as kube-apiserver 1.36 returns it for a server-side apply conflict. */
const CONFLICT: KubeStatus = {
  kind: 'Status',
  status: 'Failure',
  message:
    'Apply failed with 2 conflicts: conflicts with "kubectl-edit" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name="api"].image',
  reason: 'Conflict',
  details: {
    name: 'keystone-api',
    kind: 'deployments',
    causes: [
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "kubectl-edit" using apps/v1',
        field: '.spec.replicas',
      },
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "helm" with subresource "scale" using apps/v1',
        field: '.spec.template.spec.containers[name="api"].image',
      },
    ],
  },
  code: 409,
};

describe('parseApplyConflicts', () => {
  test('names every other manager and field from the status causes', () => {
    // WHEN
    const conflicts = parseApplyConflicts(CONFLICT);

    // THEN
    expect(conflicts).toEqual([
      { manager: 'kubectl-edit', field: '.spec.replicas' },
      { manager: 'helm', field: '.spec.template.spec.containers[name="api"].image' },
    ]);
  });

  test('falls back to the summary message when the causes are missing', () => {
    // GIVEN the same status without details
    const summaryOnly: KubeStatus = { ...CONFLICT, details: undefined };

    // WHEN / THEN
    expect(parseApplyConflicts(summaryOnly)).toEqual([
      { manager: 'kubectl-edit', field: '.spec.replicas' },
      { manager: 'kubectl-edit', field: '.spec.template.spec.containers[name="api"].image' },
    ]);
  });

  test('reads the single-conflict summary form', () => {
    const single: KubeStatus = {
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.key',
    };
    expect(parseApplyConflicts(single)).toEqual([
      { manager: 'kubectl-client-side-apply', field: '.data.key' },
    ]);
  });

  test('ignores 409s that are not field-manager conflicts', () => {
    // GIVEN an optimistic-concurrency conflict and an AlreadyExists
    const modified: KubeStatus = {
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled: the object has been modified',
    };
    const exists: KubeStatus = {
      code: 409,
      reason: 'AlreadyExists',
      message: 'deployments "x" already exists',
    };

    // THEN neither becomes an apply conflict
    expect(parseApplyConflicts(modified)).toEqual([]);
    expect(parseApplyConflicts(exists)).toEqual([]);
    expect(
      toApplyConflict('Deployment/ns/x', new KubeApiError(409, 'Conflict', 'modified', modified)),
    ).toBeUndefined();
  });

  test('toApplyConflict builds the port error naming the manager and the way out', () => {
    // WHEN
    const error = toApplyConflict(
      'Deployment/openstack/keystone-api',
      new KubeApiError(409, 'Conflict', 'x', CONFLICT),
    );

    // THEN
    expect(error).toBeInstanceOf(ApplyConflictError);
    expect(error?.message).toContain('kubectl-edit (.spec.replicas)');
    expect(error?.message).toContain('--force-conflicts');
  });
});
