import { Annotations, jobName, KubeObject } from '../../graph';

/** A Job's spec as far as the upgrade changes it. */
interface JobSpec {
  readonly template?: {
    readonly metadata?: Record<string, unknown>;
    readonly spec?: { readonly containers?: readonly Record<string, unknown>[] } & Record<string, unknown>;
  };
  readonly [field: string]: unknown;
}

/** Where an upgrade Job comes from and what it is for. */
export interface UpgradeJobInput {
  /** The unit, e.g. `keystone-expand`: the Job's component and the start of its name. */
  readonly unit: string;
  /**
   * The start of the Job's name when the unit has several Jobs (one per further cell:
   * `nova-expand-cell2-db-sync`). @default unit
   */
  readonly nameBase?: string;
  readonly service: string;
  /** The target release, part of the name (`keystone-expand-2025-1-<hash>`). */
  readonly release: string;
  /** The template: a Job, or a CronJob whose `jobTemplate` is used. */
  readonly template: KubeObject;
  /**
   * The script its first container runs instead of the template's command (`judgedScript`).
   * @default - the template's own command (the backup CronJob's)
   */
  readonly script?: string;
}

/**
 * A one-off Job of a release upgrade, made from a template of the target manifests (docs/upgrades.md):
 * the template's pod as it is — the target release's image, its configuration and credentials, its
 * placement and the labels the network policies admit — with, for a command unit, the judged
 * script as the first container's command. Named like every Job (`jobName`: release and content
 * hash), so a resumed upgrade re-applies an unchanged Job (a no-op) and a changed one runs anew.
 * Annotated as the unit's own component, without the template's edges and template role.
 */
export function upgradeJob(input: UpgradeJobInput): KubeObject {
  const { template } = input;
  const fromCronJob = template.kind === 'CronJob';
  const source = fromCronJob
    ? (template.spec as { jobTemplate?: { metadata?: KubeObject['metadata']; spec?: JobSpec } }).jobTemplate
    : { metadata: template.metadata, spec: template.spec as JobSpec };
  const spec = withScript(source?.spec ?? {}, input.script);
  // The template's edges and role are not the Job's: it is the unit's own component.
  const annotations: Record<string, string> = {
    ...template.metadata.annotations,
    ...source?.metadata?.annotations,
  };
  delete annotations[Annotations.DEPENDS_ON];
  delete annotations[Annotations.UPGRADE_TEMPLATE];
  const constructPath = template.metadata.annotations?.[Annotations.CONSTRUCT_PATH] ?? input.service;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName(input.nameBase ?? input.unit, input.release, spec),
      ...(template.metadata.namespace ? { namespace: template.metadata.namespace } : {}),
      labels: { ...template.metadata.labels, ...source?.metadata?.labels },
      annotations: {
        ...annotations,
        [Annotations.COMPONENT]: input.unit,
        [Annotations.SERVICE]: input.service,
        [Annotations.CONSTRUCT_PATH]: `${constructPath}/upgrade/${input.unit}`,
      },
    },
    spec,
  };
}

function withScript(spec: JobSpec, script: string | undefined): JobSpec {
  if (script === undefined) return spec;
  const pod = spec.template?.spec ?? {};
  const [first, ...rest] = pod.containers ?? [];
  const container = { ...first };
  delete container.args; // the script replaces the command and its arguments
  return {
    ...spec,
    template: {
      ...spec.template,
      spec: { ...pod, containers: [{ ...container, command: ['/bin/sh', '-c', script] }, ...rest] },
    },
  };
}
