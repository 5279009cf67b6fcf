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
  /** The object `kubectl create -f -` was sent, parsed; undefined when nothing was created. */
  readonly created?: unknown;
  /** Every argv kubectl was called with, a line each. */
  readonly argv: string;
}

/**
 * Runs `script` under /bin/sh with a stand-in `kubectl` first on PATH (in `dir`): `kubectl get …`
 * prints `getOutput` (what the script's go-template would print for a Secret), or fails as for a
 * Secret that does not exist when it is undefined (`get -n <ns> …`: `getOutputByNamespace[ns]`
 * when given); `kubectl patch … --patch-file F` keeps F's
 * content for the caller, and `kubectl create -f -` its stdin. Everything else is the real
 * coreutils. The key rotation scripts' tests read a Secret and check the patch they write this way.
 */
export function runWithStandInKubectl(
  dir: string,
  getOutput: string | undefined,
  script: string,
  getOutputByNamespace: Readonly<Record<string, string>> = {},
): StandInRun {
  if (getOutput !== undefined) writeFileSync(path.join(dir, 'get.out'), getOutput);
  for (const [namespace, output] of Object.entries(getOutputByNamespace))
    writeFileSync(path.join(dir, `get.${namespace}.out`), output);
  writeFileSync(
    path.join(dir, 'kubectl'),
    [
      '#!/bin/sh',
      `printf '%s\\n' "$*" >>"${dir}/argv"`,
      // `get -n <ns> …` serves get.<ns>.out when the caller gave one for that namespace.
      `out="${dir}/get.out"; case "$*" in *"-n "*) ns=$(printf '%s' "$*" | sed 's/.*-n \\([^ ]*\\).*/\\1/'); [ ! -f "${dir}/get.$ns.out" ] || out="${dir}/get.$ns.out" ;; esac`,
      `case "$1" in get) [ -f "$out" ] || { echo 'Error from server (NotFound)' >&2; exit 1; }; cat "$out" ;;`,
      `  patch) while [ "$1" != --patch-file ]; do shift; done; cp "$2" "${dir}/patch.json" ;;`,
      `  create) cat >"${dir}/created.json" ;; esac`,
    ].join('\n'),
  );
  chmodSync(path.join(dir, 'kubectl'), 0o755);
  const result = spawnSync('/bin/sh', ['-c', script], {
    encoding: 'utf8',
    env: { PATH: `${dir}:/usr/bin:/bin` },
  });
  const patchFile = path.join(dir, 'patch.json');
  const createdFile = path.join(dir, 'created.json');
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    patch: existsSync(patchFile) ? JSON.parse(readFileSync(patchFile, 'utf8')) : undefined,
    created: existsSync(createdFile) ? JSON.parse(readFileSync(createdFile, 'utf8')) : undefined,
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
