import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What a script run against {@link runWithStandInKubectl} did. */
export interface StandInRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The merge patch `kubectl patch --patch-file` was sent, parsed; undefined when nothing was patched. */
  readonly patch?: unknown;
  /** Every argv kubectl was called with, a line each. */
  readonly argv: string;
}

/**
 * Runs `script` under /bin/sh with a stand-in `kubectl` first on PATH (in `dir`): `kubectl get …`
 * prints `getOutput` (what the script's go-template would print for a Secret), `kubectl patch …
 * --patch-file F` keeps F's content for the caller. Everything else is the real coreutils.
 * The key rotation scripts' tests read a Secret and check the patch they write this way.
 */
export function runWithStandInKubectl(dir: string, getOutput: string, script: string): StandInRun {
  writeFileSync(path.join(dir, 'get.out'), getOutput);
  writeFileSync(
    path.join(dir, 'kubectl'),
    [
      '#!/bin/sh',
      `echo "$*" >>"${dir}/argv"`,
      `case "$1" in get) cat "${dir}/get.out" ;;`,
      `  patch) while [ "$1" != --patch-file ]; do shift; done; cp "$2" "${dir}/patch.json" ;; esac`,
    ].join('\n'),
  );
  chmodSync(path.join(dir, 'kubectl'), 0o755);
  const result = spawnSync('/bin/sh', ['-c', script], {
    encoding: 'utf8',
    env: { PATH: `${dir}:/usr/bin:/bin` },
  });
  const patchFile = path.join(dir, 'patch.json');
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    patch: existsSync(patchFile) ? JSON.parse(readFileSync(patchFile, 'utf8')) : undefined,
    argv: readFileSync(path.join(dir, 'argv'), 'utf8'),
  };
}

/** A Secret's data lines as the scripts' go-template prints them: `key value`, keys in string order. */
export function secretDataLines(data: Record<string, string>): string {
  return Object.entries(data)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k} ${v}\n`)
    .join('');
}
