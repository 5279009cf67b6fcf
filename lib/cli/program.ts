import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { GlobalOptions } from './commands/common';
import type { ExportEngine } from './commands/export';
import type { ProjectLanguage } from './init/project-files';
import { parseDuration } from './duration';
import { ExitCode } from './exit-codes';
import { CliIo } from './io';
import { ownPackageJson } from './own-package-json';
import { DEFAULT_API_LOSS_TIMEOUT_MS, DEFAULT_CONCURRENCY } from '../runtime/defaults';

/**
 * Runs `stackwright <command>` with `argv` (without the node and script entries) and resolves
 * with the exit code. Never calls `process.exit` itself, so tests and embedders can use it.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = ExitCode.OK;
  const program = buildProgram(io, (code) => (exitCode = code));
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with code 0; every parse error is a usage error.
      return error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    }
    const { printError } = await import('./commands/common');
    const { exitCodeForError } = await import('./commands/cluster-command');
    printError(io, error);
    const code = exitCodeForError(error);
    if (program.opts<{ json?: boolean }>().json) io.stdout.write(failureSummary(program, code, error));
    return code;
  }
  return exitCode;
}

/**
 * The closing `summary` line of a `--json` run that ended before its command could write one (bad
 * manifests, an unreachable cluster): docs/cli.md promises every `--json` run ends with one.
 */
function failureSummary(program: Command, exitCode: number, error: unknown): string {
  const command = program.args.find((arg) => program.commands.some((c) => c.name() === arg)) ?? null;
  const message = error instanceof Error ? error.message : String(error);
  return `${JSON.stringify({ type: 'summary', command, exitCode, ok: false, error: message })}\n`;
}

function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command('stackwright')
    .description(
      'Synthesise, plan, deploy, verify and destroy OpenStack clouds on Kubernetes, in dependency order.',
    )
    .version(ownPackageJson().version, '-V, --version', 'print the version of stackwright')
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context (default: the current context)')
    .option('--cloud <name>', 'the cloud to work on when the manifests hold several (stackwright.io/cloud)')
    .addOption(
      new Option(
        '--api-loss-timeout <duration>',
        'how long to wait for an API server that stopped answering, component timers paused (e.g. 5m)',
      )
        .argParser(duration)
        .default(DEFAULT_API_LOSS_TIMEOUT_MS, `${DEFAULT_API_LOSS_TIMEOUT_MS / 60_000}m`),
    )
    .option('--json', 'machine output: one JSON object per line', false)
    .option('--no-color', 'plain output without ANSI colours')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  const globals = (command: Command): GlobalOptions => {
    const o = command.optsWithGlobals<{
      kubeconfig?: string;
      context?: string;
      cloud?: string;
      apiLossTimeout?: number;
      json?: boolean;
      color?: boolean;
    }>();
    return {
      kubeconfig: o.kubeconfig,
      context: o.context,
      cloud: o.cloud,
      apiLossTimeoutMs: o.apiLossTimeout ?? DEFAULT_API_LOSS_TIMEOUT_MS,
      json: o.json === true,
      color: o.color !== false,
    };
  };
  // Every command's module is imported when that command runs, never up front: `--help` and
  // `graph` start without the rollout engine or the Kubernetes client (test/cli/startup.test.ts).
  const action =
    <A extends unknown[]>(fn: (...args: A) => Promise<number> | number) =>
    async (...args: A) =>
      setExit(await fn(...args));

  program
    .command('synth')
    .description('run the cdk8s app (cdk8s.yaml `app`) and validate the synthesised manifests')
    .option('--app <command>', 'command that synthesises (default: cdk8s.yaml `app`)')
    .option('--output <dir>', 'output directory (default: cdk8s.yaml `output`, then dist)')
    .action(
      action((opts: { app?: string; output?: string }, command: Command) =>
        import('./commands/synth').then((m) => m.synthCommand(io, opts, globals(command))),
      ),
    );

  program
    .command('init [dir]')
    .description(
      'write a new project into dir (default: here), which must be empty: a cdk8s app starting from the reference cloud, with a test',
    )
    .addOption(
      new Option('--language <language>', 'language of the project')
        .choices(['typescript', 'javascript'])
        .default('typescript'),
    )
    .action(
      action((dir: string | undefined, opts: { language: ProjectLanguage }) =>
        import('./commands/init').then((m) => m.initCommand(io, dir, opts)),
      ),
    );

  program
    .command('graph [dir]')
    .description('print the component graph of synthesised manifests')
    .addOption(
      new Option('--format <format>', 'output format').choices(['dot', 'mermaid', 'json']).default('dot'),
    )
    .action(
      action((dir: string | undefined, opts: { format: string }, command: Command) =>
        import('./commands/graph').then((m) => m.graphCommand(io, dir, opts.format, globals(command).cloud)),
      ),
    );

  program
    .command('export')
    .description('write the component graph as a GitOps layout: flux, argocd or kapp (docs/gitops.md)')
    .addArgument(new Argument('<engine>', 'GitOps engine').choices(['flux', 'argocd', 'kapp']))
    .argument('[dir]', 'manifests directory (default: cdk8s.yaml `output`, then dist)')
    .option('--out <dir>', 'folder to write the layout to (required)')
    .option('--repo-path <path>', 'path of --out inside the Git repository (default: found from .git)')
    .option('--repo-url <url>', 'argocd: URL of the Git repository Argo CD reads')
    .action(
      action(
        (
          engine: ExportEngine,
          dir: string | undefined,
          opts: { out?: string; repoPath?: string; repoUrl?: string },
          command: Command,
        ) =>
          import('./commands/export').then((m) =>
            m.exportCommand(io, engine, dir, { ...opts, cloud: globals(command).cloud }),
          ),
      ),
    );

  program
    .command('rbac [dir]')
    .description('print the least-privilege Roles and ClusterRole for the deployer of synthesised manifests')
    .option(
      '--name <name>',
      'name of the Roles, ClusterRole and bindings (default: stackwright-deployer-<cloud>)',
    )
    .option('--service-account <namespace/name>', 'also bind them to this ServiceAccount')
    .action(
      action((dir: string | undefined, opts: { name?: string; serviceAccount?: string }, command: Command) =>
        import('./commands/rbac').then((m) =>
          m.rbacCommand(io, dir, { ...opts, cloud: globals(command).cloud }),
        ),
      ),
    );

  program
    .command('plan [dir]')
    .description('server-side dry run and diff of every object (Secret values redacted); changes nothing')
    .option('--force-conflicts', 'plan as if taking ownership of fields other managers own', false)
    .option('--show-unchanged', 'also list unchanged objects', false)
    .action(
      action(
        (
          dir: string | undefined,
          opts: { forceConflicts: boolean; showUnchanged: boolean },
          command: Command,
        ) => import('./commands/plan').then((m) => m.planCommand(io, dir, opts, globals(command))),
      ),
    );

  program
    .command('deploy [dir]')
    .description('apply components in dependency order, verifying each before its dependants start')
    .option('--concurrency <n>', 'components applying or verifying at once', positiveInt, DEFAULT_CONCURRENCY)
    .option('--force-conflicts', 'take ownership of fields other field managers own', false)
    .option('--timeout <duration>', 'limit for the whole run, e.g. 10m (default: none)', duration)
    .option('--component-timeout <duration>', 'limit per component, e.g. 5m', duration)
    .option('--prune', 'after a successful rollout, delete objects that left the manifests', false)
    .option('--no-skip-unchanged', 'send every apply even when nothing changed')
    .addOption(
      new Option('--preflight <mode>', 'check node placement before writing')
        .choices(['report', 'strict', 'off'])
        .default('report'),
    )
    .action(
      action(
        (
          dir: string | undefined,
          opts: {
            concurrency: number;
            forceConflicts: boolean;
            timeout?: number;
            componentTimeout?: number;
            prune: boolean;
            skipUnchanged: boolean;
            preflight: 'report' | 'strict' | 'off';
          },
          command: Command,
        ) =>
          import('./commands/deploy').then((m) =>
            m.deployCommand(
              io,
              dir,
              {
                concurrency: opts.concurrency,
                forceConflicts: opts.forceConflicts,
                timeoutMs: opts.timeout,
                componentTimeoutMs: opts.componentTimeout,
                prune: opts.prune,
                skipUnchanged: opts.skipUnchanged,
                preflight: opts.preflight,
              },
              globals(command),
            ),
          ),
      ),
    );

  program
    .command('verify [dir]')
    .description('check, without writing, that every component is ready; explain the ones that are not')
    .option('--wait <duration>', 'give converging components this long', duration, 0)
    .action(
      action((dir: string | undefined, opts: { wait: number }, command: Command) =>
        import('./commands/verify').then((m) =>
          m.verifyCommand(io, dir, { waitMs: opts.wait }, globals(command)),
        ),
      ),
    );

  program
    .command('status [dir]')
    .description('what is deployed: the inventory and each component’s state right now')
    .action(
      action((dir: string | undefined, _opts: unknown, command: Command) =>
        import('./commands/status').then((m) => m.statusCommand(io, dir, globals(command))),
      ),
    );

  program
    .command('destroy [dir]')
    .description('delete the cloud in reverse dependency order, waiting until each component is gone')
    .option('-y, --yes', 'do not ask for confirmation', false)
    .option('--concurrency <n>', 'components deleting at once', positiveInt, DEFAULT_CONCURRENCY)
    .option('--component-timeout <duration>', 'limit per component, e.g. 5m (default: 5m)', duration)
    .addOption(
      new Option('--timeout <duration>', 'deprecated: use --component-timeout')
        .argParser(duration)
        .hideHelp(),
    )
    .addOption(
      new Option('--cascade <mode>', 'how owned objects are deleted')
        .choices(['foreground', 'background'])
        .default('foreground'),
    )
    .action(
      action(
        (
          dir: string | undefined,
          opts: {
            yes: boolean;
            concurrency: number;
            componentTimeout?: number;
            timeout?: number;
            cascade: 'foreground' | 'background';
          },
          command: Command,
        ) =>
          import('./commands/destroy').then((m) =>
            m.destroyCommand(
              io,
              dir,
              {
                yes: opts.yes,
                concurrency: opts.concurrency,
                componentTimeoutMs: opts.componentTimeout,
                deprecatedTimeoutMs: opts.timeout,
                cascade: opts.cascade,
              },
              globals(command),
            ),
          ),
      ),
    );

  program.addHelpText(
    'after',
    '\nExit codes: 0 ok, 1 rollout failed, 2 bad input or usage, 3 cluster unreachable, 4 field conflicts, 130 interrupted.',
  );
  return program;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

function duration(value: string): number {
  try {
    return parseDuration(value);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
}
