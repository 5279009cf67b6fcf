import { execFileSync } from 'child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import {
  judgedScript,
  judgeExitCode,
  MAX_REPEATS,
  SERVICE_RECIPES,
  UpgradeCommand,
} from '../../../lib/runtime/upgrade';

/**
 * Runs the judged script of `commands` with /bin/sh, every command's program replaced by a fake on
 * PATH that exits with the next code of its list (the last one repeated), counting its runs.
 */
function runScript(commands: readonly UpgradeCommand[], codes: Record<string, readonly number[]>) {
  const dir = mkdtempSync(join(tmpdir(), 'judged-'));
  for (const [program, list] of Object.entries(codes)) {
    writeFileSync(join(dir, `${program}.codes`), list.join('\n') + '\n');
    writeFileSync(
      join(dir, program),
      [
        '#!/bin/sh',
        `n=$(cat "${dir}/${program}.runs" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "${dir}/${program}.runs"`,
        `code=$(sed -n "\${n}p" "${dir}/${program}.codes"); [ -n "$code" ] || code=$(tail -n 1 "${dir}/${program}.codes")`,
        'exit $code',
        '',
      ].join('\n'),
    );
    chmodSync(join(dir, program), 0o755);
  }
  // The kubelet's termination log, redirected to a file the test reads.
  const script = judgedScript(commands).replace(/\/dev\/termination-log/g, join(dir, 'termination-log'));
  const runs = (program: string) => Number(readFileSync(join(dir, `${program}.runs`), 'utf8').trim());
  const termination = () => {
    try {
      return readFileSync(join(dir, 'termination-log'), 'utf8');
    } catch {
      return '';
    }
  };
  try {
    const stdout = execFileSync('/bin/sh', ['-c', script], {
      env: { PATH: `${dir}:/usr/bin:/bin` },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { exit: 0, stdout, stderr: '', runs, termination: termination() };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { exit: e.status, stdout: e.stdout, stderr: e.stderr, runs, termination: termination() };
  }
}

const program = (command: UpgradeCommand) => command.command.split(' ')[0];
const everyCommand = Object.values(SERVICE_RECIPES).flatMap((r) => [
  ...r.preChecks,
  ...r.expand,
  ...r.contract,
  ...r.onlineDataMigrations,
  ...r.postChecks,
]);

describe('judgedScript', () => {
  test.each([0, 1, 2, 3, 4, 127, 255])(
    'judges exit code %i of every recipe command as judgeExitCode does',
    (code) => {
      for (const command of everyCommand) {
        // GIVEN the command's program exits `code` (then 0, so a repeat ends)
        const result = runScript([command], { [program(command)]: [code, 0] });
        const verdict = judgeExitCode(command, code);
        // THEN pass and repeat end the script with 0 (a repeat after running again), fail with 1 and the reason
        if (verdict.verdict === 'fail') {
          expect({ command: command.command, exit: result.exit }).toEqual({
            command: command.command,
            exit: 1,
          });
          expect(result.termination).toBe(verdict.reason);
          expect(result.stderr).toContain(`upgrade: ${verdict.reason}`);
        } else {
          expect({ command: command.command, exit: result.exit }).toEqual({
            command: command.command,
            exit: 0,
          });
          expect(result.runs(program(command))).toBe(verdict.verdict === 'repeat' ? 2 : 1);
        }
      }
    },
  );

  test('runs the commands in order and stops at the first that fails', () => {
    // GIVEN Neutron's contract: has_offline_migrations, then upgrade --contract
    const contract = SERVICE_RECIPES.neutron.contract;
    // WHEN offline migrations are pending (exit 1)
    const result = runScript(contract, { 'neutron-db-manage': [1] });
    // THEN the contract never runs, and the reason says why
    expect(result.exit).toBe(1);
    expect(result.runs('neutron-db-manage')).toBe(1);
    expect(result.termination).toContain('offline migrations pending');
    // WHEN nothing is pending THEN both run
    const passing = runScript(contract, { 'neutron-db-manage': [0] });
    expect(passing.exit).toBe(0);
    expect(passing.runs('neutron-db-manage')).toBe(2);
    expect(passing.stdout).toContain('neutron-db-manage upgrade --contract exited 0: done');
  });

  test(`gives up a command that reports work left ${MAX_REPEATS} times`, () => {
    // GIVEN Nova's online data migrations never finishing
    const odm = SERVICE_RECIPES.nova.onlineDataMigrations;
    // WHEN the script runs THEN it stops after MAX_REPEATS runs, saying so
    const result = runScript(odm, { 'nova-manage': [1] });
    expect(result.exit).toBe(1);
    expect(result.runs('nova-manage')).toBe(MAX_REPEATS);
    expect(result.termination).toContain(`still reports work left after ${MAX_REPEATS} runs`);
  });
});
