import { RESUME_HINT, UpgradeCommand, UNDOCUMENTED_EXIT } from './upgrade-phase';

/** How often a command that reports work left (`repeat`) runs before the unit gives up. */
export const MAX_REPEATS = 100;

/** Where the kubelet reads a container's termination message (the pod's default path). */
const TERMINATION_LOG = '/dev/termination-log';

/**
 * The POSIX shell script an upgrade Job runs: the unit's commands in order, each judged by its exit
 * code exactly as {@link judgeExitCode} judges it — an accepted code goes on to the next command, a
 * `repeat` code runs the command again (at most {@link MAX_REPEATS} times), anything else stops the
 * Job with exit 1. Every verdict is one log line `upgrade: <command> exited <code>: <meaning>`; the
 * failure's reason is also the container's termination message, so the runtime's diagnosis and
 * `kubectl describe` show why without the log.
 */
export function judgedScript(commands: readonly UpgradeCommand[]): string {
  return [
    'set -u',
    `fail() { echo "upgrade: $1" >&2; printf '%s' "$1" > ${TERMINATION_LOG} 2>/dev/null || true; exit 1; }`,
    ...commands.flatMap(commandLines),
    '',
  ].join('\n');
}

function commandLines(command: UpgradeCommand): string[] {
  const said = (code: number) =>
    quoted(`upgrade: ${command.command} exited ${code}: ${meaningOf(command, code)}`);
  // The same words as upgradeFailureReason, the code and meaning filled in by the shell.
  const failure = `${quoted(`\`${command.command}\` exited `)}"$rc"': '"$meaning"${quoted(RESUME_HINT)}`;
  const cases = Object.keys(command.meanings)
    .map(Number)
    .sort((a, b) => a - b)
    .map((code) => `    ${code}) meaning=${quoted(meaningOf(command, code))} ;;`);
  const accepted = command.accept.map((code) => `    ${code}) echo ${said(code)}; break ;;`);
  const repeated = (command.repeat ?? []).map(
    (code) =>
      `    ${code}) echo ${said(code)}; runs=$((runs + 1)); [ "$runs" -lt ${MAX_REPEATS} ] && continue; ` +
      `fail ${quoted(`${command.command} still reports work left after ${MAX_REPEATS} runs; read the Job's log`)} ;;`,
  );
  return [
    `echo ${quoted(`upgrade: running ${command.command}`)}`,
    'runs=0',
    'while :; do',
    `  ${command.command}`,
    '  rc=$?',
    '  case $rc in',
    ...accepted,
    ...repeated,
    '  esac',
    `  meaning=${quoted(UNDOCUMENTED_EXIT)}`,
    '  case $rc in',
    ...cases,
    '  esac',
    `  fail ${failure}`,
    'done',
  ];
}

function meaningOf(command: UpgradeCommand, code: number): string {
  return command.meanings[code] ?? UNDOCUMENTED_EXIT;
}

/** `text` as one single-quoted shell word. */
function quoted(text: string): string {
  return `'${text.replace(/'/g, `'"'"'`)}'`;
}
