// The CLI in a worker thread, for the fuzzer (test/fuzz/cli.fuzz.test.ts): each message runs
// `runCli(args)` in `cwd` and answers with the exit code and output. The parent bounds every run and
// terminates this thread when it hangs or runs out of its heap; the cluster is never reached, since
// `openCluster` only counts the attempt and fails as an unreachable cluster would.
// Plain JavaScript: it loads the TypeScript sources through bin/ts-register.js.
'use strict';
require('../../bin/ts-register');
const { parentPort } = require('worker_threads');
const { runCli } = require('../../lib/cli/program.ts');
const { ClusterUnreachableError } = require('../../lib/runtime/cluster-unreachable-error.ts');

const LIMIT = 20000;

parentPort.on('message', async ({ id, args, cwd }) => {
  let stdout = '';
  let stderr = '';
  let opened = 0;
  const io = {
    stdout: { write: (text) => (stdout += text) },
    stderr: { write: (text) => (stderr += text) },
    env: { CI: 'true' },
    cwd,
    now: () => Date.now(),
    openCluster: async () => {
      opened += 1;
      throw new ClusterUnreachableError('fuzz: no cluster here (the fuzzer never connects)');
    },
    confirm: async () => false,
    runShell: async () => 0,
  };
  let code;
  try {
    code = await runCli(args, io);
  } catch (error) {
    code = -1;
    stderr += `runCli threw: ${error && error.stack ? error.stack : String(error)}`;
  }
  parentPort.postMessage({
    id,
    code,
    stdout: stdout.slice(0, LIMIT),
    stderr: stderr.slice(0, LIMIT),
    opened,
  });
});
