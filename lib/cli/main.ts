import { ExitCode } from './exit-codes';
import { processIo } from './io';
import { runCli } from './program';

/**
 * The `stackwright` binary: wires the CLI to the process. The first Ctrl-C stops the run cleanly
 * (nothing new starts, the inventory is written, the summary says what did not start); a second
 * one exits at once.
 */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(ExitCode.INTERRUPTED);
    process.stderr.write('\nstackwright: interrupted; finishing cleanly (Ctrl-C again to quit now)\n');
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  try {
    return await runCli(argv, processIo(controller.signal));
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

if (require.main === module) {
  void main().then((code) => {
    process.exitCode = code;
  });
}
