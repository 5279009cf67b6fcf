/**
 * Exit codes of `stackwright`, documented in docs/cli.md. Scripts and CI branch on them, so they
 * never change meaning.
 */
export const ExitCode = {
  /** Everything asked for succeeded. */
  OK: 0,
  /** The rollout (or verify, destroy) ran but a component failed, was blocked or did not start. */
  FAILED: 1,
  /** Bad input or usage: unknown option, unreadable or invalid manifests, a dependency cycle, a failing synth. */
  USAGE: 2,
  /** The cluster could not be reached or refused our credentials. */
  UNREACHABLE: 3,
  /** Server-side apply field conflicts with another manager (rerun with --force-conflicts to take over). */
  CONFLICT: 4,
  /** Interrupted (Ctrl-C); a re-run resumes where this one stopped. */
  INTERRUPTED: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
