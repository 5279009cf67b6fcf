/**
 * The phases of a release upgrade, in the order upstream documents them: checks with the new code
 * before anything changes, one verified database backup, additive schema changes the old code
 * survives, the new pods, the schema changes only the new code survives, the data migrations that
 * need every service on the new code, and the same checks again.
 */
export const UPGRADE_PHASES = [
  'pre-check',
  'backup',
  'expand',
  'roll',
  'contract',
  'online-data-migrations',
  'post-check',
] as const;

/** One phase of {@link UPGRADE_PHASES}. */
export type UpgradePhase = (typeof UPGRADE_PHASES)[number];

/**
 * A command of a phase, run in a Job on the target release's image, with the meaning upstream
 * gives its exit codes.
 */
export interface UpgradeCommand {
  /** The command line, e.g. `keystone-manage db_sync --check`. */
  readonly command: string;
  /** Exit codes that let the phase pass. */
  readonly accept: readonly number[];
  /**
   * Exit codes that mean "progress made, run again" (Nova's online data migrations exit 1 while
   * rows are left).
   * @default - none
   */
  readonly repeat?: readonly number[];
  /** What each exit code means, for the message when the phase stops. */
  readonly meanings: Readonly<Record<number, string>>;
}

/** The verdict on one run of an {@link UpgradeCommand}: pass, run again, or stop with why. */
export type CommandVerdict =
  | { readonly verdict: 'pass' }
  | { readonly verdict: 'repeat'; readonly meaning: string }
  | { readonly verdict: 'fail'; readonly reason: string };

/** The meaning of an exit code a command's {@link UpgradeCommand.meanings} do not list. */
export const UNDOCUMENTED_EXIT = 'an exit code upstream does not document';

/** What a stopped phase tells the operator to do, after the command and its exit code. */
export const RESUME_HINT =
  "; read the Job's log, fix the cause, delete the Job, then deploy again (the plan resumes at this phase)";

/**
 * Judges an exit code by upstream's semantics. Pure: the definition the Jobs' shell script
 * (`judgedScript`) follows, and its tests compare the two.
 */
export function judgeExitCode(command: UpgradeCommand, exitCode: number): CommandVerdict {
  const meaning = command.meanings[exitCode] ?? UNDOCUMENTED_EXIT;
  if (command.accept.includes(exitCode)) return { verdict: 'pass' };
  if (command.repeat?.includes(exitCode)) return { verdict: 'repeat', meaning };
  return { verdict: 'fail', reason: `\`${command.command}\` exited ${exitCode}: ${meaning}${RESUME_HINT}` };
}
