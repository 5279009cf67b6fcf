import { FluxController } from './flux-controller';
import { Kubectl } from './kubectl';

/** What a Flux Kustomization reports about itself. */
export interface KustomizationState {
  readonly name: string;
  readonly ready: boolean;
  readonly reason: string;
  readonly message: string;
  readonly lastAppliedRevision?: string;
}

interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

interface KustomizationList {
  readonly items: {
    metadata: { name: string };
    status?: { conditions?: Condition[]; lastAppliedRevision?: string };
  }[];
}

/** Every Kustomization of `namespace` with its Ready condition, sorted by name. */
export async function kustomizationStates(
  kubectl: Kubectl,
  namespace: string,
): Promise<KustomizationState[]> {
  const list = JSON.parse(
    await kubectl('get', 'kustomizations.kustomize.toolkit.fluxcd.io', '-n', namespace, '-o', 'json'),
  ) as KustomizationList;
  return list.items
    .map((item) => {
      const ready = item.status?.conditions?.find((c) => c.type === 'Ready');
      return {
        name: item.metadata.name,
        ready: ready?.status === 'True',
        reason: ready?.reason ?? 'NoStatus',
        message: ready?.message ?? '',
        lastAppliedRevision: item.status?.lastAppliedRevision,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Waits until `expected` Kustomizations of `namespace` are Ready at `revision`. Fails early when
 * the controller dies, and on timeout with the ones still not Ready and why.
 */
export async function waitForKustomizations(
  kubectl: Kubectl,
  controller: FluxController,
  options: { namespace: string; expected: number; revision: string; timeoutMs: number },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    controller.assertRunning();
    const states = await kustomizationStates(kubectl, options.namespace);
    const pending = states.filter((s) => !s.ready || s.lastAppliedRevision !== options.revision);
    if (states.length >= options.expected && pending.length === 0) return;
    if (Date.now() >= deadline) {
      const detail = pending
        .slice(0, 10)
        .map((s) => `${s.name}: ${s.reason} ${s.message}`)
        .join('\n  ');
      throw new Error(
        `after ${options.timeoutMs / 1000} s, ${states.length}/${options.expected} Kustomizations exist and ${pending.length} are not Ready at ${options.revision}:\n  ${detail}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * Deletes every Kustomization and GitRepository of `namespace` without pruning what they applied
 * (run it with the controller stopped): their finalizers are dropped first, since only a running
 * controller would remove them.
 */
export async function deleteFluxObjects(kubectl: Kubectl, namespace: string): Promise<void> {
  for (const resource of [
    'kustomizations.kustomize.toolkit.fluxcd.io',
    'gitrepositories.source.toolkit.fluxcd.io',
  ]) {
    const names = (await kubectl('get', resource, '-n', namespace, '-o', 'name')).split('\n').filter(Boolean);
    for (const name of names) {
      await kubectl('patch', name, '-n', namespace, '--type=merge', '-p', '{"metadata":{"finalizers":null}}');
    }
    if (names.length > 0) await kubectl('delete', resource, '--all', '-n', namespace, '--wait=true');
  }
}
