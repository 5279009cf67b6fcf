/**
 * The shell script that rotates Keystone's Fernet keys where they live, in a Secret (what
 * `keystone-manage fernet_rotate` does to a key directory): the staged key `0` becomes the primary
 * (the highest index), a new staged key `0` is generated, and the oldest secondary keys are dropped
 * until `maxActiveKeys` remain.
 *
 * Why tokens keep validating through it: every Keystone pod already holds the staged key, so a token
 * the new primary signs validates on a pod whose Secret volume has not caught up yet; the old
 * primary stays as a secondary, so tokens issued before the rotation validate until it is dropped
 * `maxActiveKeys - 2` rotations later.
 *
 * The Secret is changed by one merge patch carrying the resourceVersion it was read at: a change
 * made in between (another rotation) fails the run instead of being overwritten. Key values never
 * reach a process's argv (the shell's builtin `printf` writes them to files) nor the log.
 *
 * Needs `sh`, `kubectl`, `openssl` and coreutils (the toolbox image).
 */
export function fernetRotationScript(secretName: string, maxActiveKeys: number): string {
  const fail = (reason: string): string => `{ echo "fernet rotation: ${reason}" >&2; exit 1; }`;
  return [
    'set -eu',
    'umask 077',
    `secret='${secretName}'`,
    `max=${maxActiveKeys}`,
    'keys=/tmp/fernet-keys',
    `kubectl get secret "$secret" -o go-template='{{.metadata.resourceVersion}}{{"\\n"}}{{range $k, $v := .data}}{{$k}} {{$v}}{{"\\n"}}{{end}}' >"$keys.read"`,
    'version=$(head -n 1 "$keys.read")',
    'tail -n +2 "$keys.read" | sort -n >"$keys"',
    `! grep -qv '^[0-9][0-9]* ' "$keys" || ${fail('Secret $secret holds a key that is not a number; its keys must be 0 (the staged key), 1, 2, ... (the highest is the primary), as keystone-manage fernet_setup writes them')}`,
    `staged=$(sed -n 's/^0 //p' "$keys")`,
    `[ -n "$staged" ] || ${fail('Secret $secret has no staged key 0; recreate it with keystone-manage fernet_setup or delete it and deploy again (its generator Job writes 0 and 1)')}`,
    'primary=$(tail -n 1 "$keys" | cut -d " " -f 1)',
    'next=$((primary + 1))',
    // After the rotation: every key read, plus the new staged one.
    'excess=$(($(wc -l <"$keys") + 1 - max))',
    'dropped=""',
    'if [ "$excess" -gt 0 ]; then dropped=$(grep -v "^0 " "$keys" | head -n "$excess" | cut -d " " -f 1 | paste -sd " " -); fi',
    `new=$(printf '%s' "$(openssl rand 32 | base64 | tr '+/' '-_')" | base64 -w 0)`,
    '{',
    `  printf '{"metadata":{"resourceVersion":"%s"},"data":{"0":"%s","%s":"%s"' "$version" "$new" "$next" "$staged"`,
    `  for index in $dropped; do printf ',"%s":null' "$index"; done`,
    "  printf '}}'",
    '} >"$keys.patch"',
    'kubectl patch secret "$secret" --type merge --patch-file "$keys.patch" >/dev/null',
    'rm -f "$keys" "$keys.read" "$keys.patch"',
    `echo "fernet rotation: key $next is the primary (the staged key before), a new staged key 0, dropped: \${dropped:-none} (max_active_keys $max)"`,
  ].join('\n');
}
