/**
 * How a user's program (`main.ts` run by `cdk8s synth`, a script calling `deploy()`) ends on bad
 * input: each problem once, `[construct path] message; the fix`, exit code 1, and no stack trace —
 * whatever the program looks like, without a try/catch of its own. Node's default would print the
 * throwing line of cdk8s' source, a stack trace, and the error's properties repeating the problems.
 *
 * Installed by the first `Cloud` of a process, once. Only Stackwright's own input errors are
 * rendered this way; any other error (a bug, the user's own) is rethrown to Node's default
 * handling, stack and all. Not installed when a test runner owns the process (its reporter shows
 * the error) or when `STACKWRIGHT_STACK_TRACES=1` asks for Node's default output.
 */
const INSTALLED = Symbol.for('stackwright.uncaughtErrors');

/** The variable that turns the short report off, documented in docs/validation.md. */
const STACK_TRACES_VARIABLE = 'STACKWRIGHT_STACK_TRACES';

/** cdk8s' own wording for the problems `app.synth()` collected from every construct's validations. */
const CDK8S_VALIDATION = 'Validation failed with the following errors:';

/** True for the errors Stackwright raises on bad input: they carry their path, and their stack helps nobody. */
function isInputError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ValidationError' ||
    error.message.startsWith(CDK8S_VALIDATION) ||
    /^\[[^\]\n]+\] \S/.test(error.message)
  );
}

/** The text printed for an input error: its message alone, once. */
function inputErrorReport(error: Error): string {
  return `${error.message.trimEnd()}\n`;
}

export function reportUncaughtInputErrors(env: NodeJS.ProcessEnv = process.env): void {
  const owner = process as unknown as Record<symbol, boolean>;
  if (owner[INSTALLED] || env[STACK_TRACES_VARIABLE] === '1' || underTestRunner(env)) return;
  owner[INSTALLED] = true;
  const onError = (error: unknown): void => {
    if (isInputError(error)) {
      process.stderr.write(inputErrorReport(error));
      process.exit(1);
    }
    // Not ours to render: let Node report it as if no handler were installed.
    process.off('uncaughtException', onError);
    process.off('unhandledRejection', onError);
    process.nextTick(() => {
      throw error;
    });
  };
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
}

function underTestRunner(env: NodeJS.ProcessEnv): boolean {
  return env.JEST_WORKER_ID !== undefined || env.VITEST !== undefined || env.NODE_TEST_CONTEXT !== undefined;
}
