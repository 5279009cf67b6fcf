import { ComponentGraph, KubeObject, objectRef } from '../../graph';
import { bootstrapOrder } from '../engine/apply-order';
import { ManifestInput, ManifestSelection, toGraph } from './deploy-input';
import {
  Inventory,
  InventoryLocation,
  inventoryLocation,
  inventoryRef,
  objectsNotIn,
  readInventory,
} from '../inventory/inventory';
import { deployTarget } from '../upgrade/release-check';
import { recordedRelease } from '../upgrade/recorded-release';
import { renderUpgradePlan } from '../upgrade/render-upgrade-plan';
import { toApplyConflict } from '../kube/apply-conflict';
import { KubeApiError, NoMatchError } from '../kube/errors';
import { KubeCluster, KubeClusterOptions } from '../kube/kube-cluster';
import { diffObjects, FieldChange } from '../kube/object-diff';
import { RequestCounts } from '../kube/request-counter';
import { ApplyConflictError, ClusterPort } from '../ports';
import { FIELD_MANAGER } from '../defaults';

/** What a deploy would do to one object. */
export type PlannedAction = 'create' | 'update' | 'unchanged' | 'prune' | 'conflict' | 'invalid';

export interface ObjectPlan {
  readonly ref: string;
  /** Owning component; absent for bootstrap objects. */
  readonly component?: string;
  readonly action: PlannedAction;
  /** For `update`: the fields that change (Secret values redacted). */
  readonly changes: readonly FieldChange[];
  /** Why, for `conflict`/`invalid`; a caveat for creates validated only at apply time. */
  readonly note?: string;
}

export interface PlanResult {
  /** Bootstrap objects first, then components in name order, each in synthesis order; prunes last. */
  readonly objects: readonly ObjectPlan[];
  readonly counts: Readonly<Record<PlannedAction, number>>;
  /** API requests, when the Kubernetes port was used. */
  readonly requests?: RequestCounts;
  /**
   * The upgrade's phases (`renderUpgradePlan`), when the release recorded on the cluster differs
   * from the manifests' (docs/upgrades.md); absent for a plain deploy.
   */
  readonly upgrade?: readonly string[];
}

export interface PlanOptions extends ManifestSelection, Pick<KubeClusterOptions, 'kubeconfig' | 'context'> {
  /** @default 'stackwright' */
  readonly fieldManager?: string;
  /** Plan as `--force-conflicts` would apply: conflicts become updates. @default false */
  readonly forceConflicts?: boolean;
  /** Most dry runs in flight. @default 16 */
  readonly concurrency?: number;
  /** List the objects a `deploy --prune` would delete. @default true */
  readonly showPrune?: boolean;
  /** Use this port instead of connecting (tests, embedding). */
  readonly cluster?: ClusterPort & { observed?(object: KubeObject): Promise<KubeObject | undefined> };
  readonly signal?: AbortSignal;
}

/**
 * Previews a deploy without changing anything: a server-side dry run (`dryRun=All`) of every
 * object, compared with the live object, so the diff shows what the API server would really
 * store (defaults, admission, other managers' fields) and field conflicts are found before the
 * deploy. Objects whose namespace or CRD the same deploy creates cannot be dry-run yet; they are
 * shown as creates "validated at apply".
 */
export async function plan(input: ManifestInput, options: PlanOptions = {}): Promise<PlanResult> {
  const graph = toGraph(input, options);
  let location: InventoryLocation | undefined;
  if (options.showPrune !== false) {
    try {
      location = inventoryLocation(graph, options.inventoryNamespace);
    } catch {
      location = undefined; // nowhere to look (no namespace): no prune preview
    }
  }
  const owned = options.cluster ? undefined : await KubeCluster.connect(options);
  const cluster = options.cluster ?? (owned as KubeCluster);
  try {
    if (owned) await owned.serverVersion();
    const inventory: Inventory | undefined = location ? await readInventory(cluster, location) : undefined;
    const result = await planGraph(graph, cluster, inventory, options);
    return { ...result, requests: owned?.requests.snapshot() };
  } finally {
    owned?.close();
  }
}

/** `plan` on an already connected port. */
export async function planGraph(
  manifests: ComponentGraph,
  cluster: NonNullable<PlanOptions['cluster']>,
  inventory: Inventory | undefined,
  options: Pick<PlanOptions, 'fieldManager' | 'forceConflicts' | 'concurrency' | 'signal'> = {},
): Promise<PlanResult> {
  // The recorded release against the manifests': a refused move throws naming the cloud and the fix;
  // an upgrade is planned with the Jobs that run its phases (what deploy would write).
  const target = inventory
    ? deployTarget(manifests, inventory.cloud, await recordedRelease(cluster, inventory))
    : { graph: manifests, upgrade: undefined, units: [] };
  const { graph } = target;
  const entries: { object: KubeObject; component?: string }[] = [
    ...bootstrapOrder(graph.bootstrap).map((object) => ({ object })),
    ...graph.components.flatMap((c) => c.objects.map((object) => ({ object, component: c.name }))),
  ];
  const createdHere = createdByThisDeploy(entries.map((e) => e.object));
  const plans = await mapLimit(entries, options.concurrency ?? 16, async ({ object, component }) => {
    options.signal?.throwIfAborted();
    return planObject(object, component, cluster, createdHere, options);
  });
  if (inventory) {
    for (const gone of objectsNotIn(inventory, graph)) {
      plans.push({
        ref: inventoryRef(gone),
        ...(gone.component ? { component: gone.component } : {}),
        action: 'prune',
        changes: [],
        note: 'removed from the manifests; deleted by deploy --prune',
      });
    }
  }
  const counts: Record<PlannedAction, number> = {
    create: 0,
    update: 0,
    unchanged: 0,
    prune: 0,
    conflict: 0,
    invalid: 0,
  };
  for (const p of plans) counts[p.action] += 1;
  return {
    objects: plans,
    counts,
    ...(target.upgrade ? { upgrade: renderUpgradePlan(target.upgrade) } : {}),
  };
}

async function planObject(
  object: KubeObject,
  component: string | undefined,
  cluster: NonNullable<PlanOptions['cluster']>,
  createdHere: CreatedHere,
  options: Pick<PlanOptions, 'fieldManager' | 'forceConflicts'>,
): Promise<ObjectPlan> {
  const ref = objectRef(object);
  const base = { ref, ...(component ? { component } : {}) };
  let live: KubeObject | undefined;
  try {
    live = cluster.observed ? await cluster.observed(object) : await cluster.get(object);
  } catch (error) {
    if (!(error instanceof NoMatchError)) throw error;
  }
  try {
    const outcome = await cluster.apply(object, {
      fieldManager: options.fieldManager ?? FIELD_MANAGER,
      force: options.forceConflicts ?? false,
      dryRun: true,
    });
    if (!live) return { ...base, action: 'create', changes: [] };
    const changes = diffObjects(live, outcome.live);
    return { ...base, action: changes.length === 0 ? 'unchanged' : 'update', changes };
  } catch (error) {
    const conflict = error instanceof ApplyConflictError ? error : toApplyConflict(ref, error);
    if (conflict) return { ...base, action: 'conflict', changes: [], note: conflict.message };
    const deferred = deferredReason(object, error, createdHere);
    if (deferred && !live) return { ...base, action: 'create', changes: [], note: deferred };
    return {
      ...base,
      action: 'invalid',
      changes: [],
      note: error instanceof Error ? error.message : String(error),
    };
  }
}

interface CreatedHere {
  readonly namespaces: ReadonlySet<string>;
  /** `group/Kind` of every CRD in the manifests. */
  readonly kinds: ReadonlySet<string>;
}

function createdByThisDeploy(objects: readonly KubeObject[]): CreatedHere {
  const namespaces = new Set(objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name));
  const kinds = new Set<string>();
  for (const o of objects) {
    if (o.kind !== 'CustomResourceDefinition') continue;
    const spec = (o as { spec?: { group?: string; names?: { kind?: string } } }).spec;
    if (spec?.group && spec.names?.kind) kinds.add(`${spec.group}/${spec.names.kind}`);
  }
  return { namespaces, kinds };
}

/** Why a dry run could not validate an object that the same deploy makes possible, if that is the case. */
function deferredReason(object: KubeObject, error: unknown, createdHere: CreatedHere): string | undefined {
  const group = object.apiVersion.includes('/') ? object.apiVersion.split('/')[0] : '';
  if (error instanceof NoMatchError && createdHere.kinds.has(`${group}/${object.kind}`)) {
    return `its CustomResourceDefinition is created by this deploy; validated at apply`;
  }
  const namespace = object.metadata.namespace;
  if (
    error instanceof KubeApiError &&
    error.status === 404 &&
    namespace &&
    createdHere.namespaces.has(namespace)
  ) {
    return `namespace ${namespace} is created by this deploy; validated at apply`;
  }
  return undefined;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** Options of `renderPlan`. */
export interface RenderPlanOptions {
  /** ANSI colours. @default false */
  readonly color?: boolean;
  /** Also list unchanged objects. @default false */
  readonly showUnchanged?: boolean;
}

const SYMBOL: Record<PlannedAction, string> = {
  create: '+',
  update: '~',
  unchanged: '=',
  prune: '-',
  conflict: '!',
  invalid: '!',
};
const COLOR: Record<PlannedAction, string> = {
  create: '32',
  update: '33',
  unchanged: '2',
  prune: '31',
  conflict: '31',
  invalid: '31',
};

/**
 * The plan as text, one block per object: `+ create`, `~ update` with one line per changed
 * field (`path: before -> after`), `- prune`, `! conflict/invalid` with the reason, and a summary.
 */
export function renderPlan(result: PlanResult, options: RenderPlanOptions = {}): string {
  const paint = (code: string, text: string) => (options.color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const lines: string[] = [];
  for (const p of result.objects) {
    if (p.action === 'unchanged' && !options.showUnchanged) continue;
    const owner = p.component ? ` (${p.component})` : '';
    lines.push(paint(COLOR[p.action], `${SYMBOL[p.action]} ${p.ref}${owner}: ${p.action}`));
    for (const c of p.changes) lines.push(`    ${renderChange(c)}`);
    if (p.note) lines.push(`    ${p.note}`);
  }
  const c = result.counts;
  lines.push(
    `Plan: ${c.create} to create, ${c.update} to update, ${c.unchanged} unchanged, ${c.prune} to prune` +
      (c.conflict + c.invalid > 0 ? `, ${c.conflict} conflicts, ${c.invalid} invalid` : '') +
      '.',
  );
  if (result.upgrade) lines.push('', ...result.upgrade);
  return lines.join('\n') + '\n';
}

function renderChange(change: FieldChange): string {
  switch (change.change) {
    case 'added':
      return `+ ${change.path}: ${short(change.after)}`;
    case 'removed':
      return `- ${change.path}: ${short(change.before)}`;
    default:
      return `~ ${change.path}: ${short(change.before)} -> ${short(change.after)}`;
  }
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}
