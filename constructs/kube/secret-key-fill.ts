/**
 * Shell lines shared by the Jobs that make a Secret in the cluster (`GeneratedSecret`, the agents'
 * copies): when the Secret exists, add only the keys it lacks and never change a value it holds.
 * Only the existing Secret's key names are read; the values written go from the shell's builtin
 * `printf` to `kubectl patch`'s stdin, never onto a command line.
 *
 *     if present=" <key names> "; then
 *       patch=''
 *       <one `addIfMissing` line per key>
 *       <patchMissing>
 *       exit 0
 *     fi
 *     <create the Secret>
 */

/** `kubectl get secret` arguments naming the Secret, e.g. `keystone-user` or `-n agents keystone-user`. */
export type SecretArgs = string;

/**
 * Opens the branch taken when the Secret exists, with `$present` its key names, space-separated
 * with a space on either side (a kubectl go-template over `.data`'s keys).
 */
export function ifSecretExists(secret: SecretArgs): string {
  return `if present=" $(kubectl get secret ${secret} -o go-template='{{range $k, $v := .data}}{{$k}} {{end}}' 2>/dev/null)"; then`;
}

/**
 * Appends `field` (a JSON `"key":"value"` member, as a shell word that may expand `$key`) to
 * `$patch` unless `$present` has the key `key` (a name, or a shell expansion like `$key`).
 */
export function addIfMissing(key: string, field: string): string {
  return `case "$present" in *" ${key} "*) ;; *) patch="$patch,${field}" ;; esac`;
}

/** Merges the collected members into the Secret's `data` or `stringData`, when there are any. */
export function patchMissing(secret: SecretArgs, into: 'data' | 'stringData'): string {
  return `[ -z "$patch" ] || printf '{"${into}":{%s}}' "\${patch#,}" | kubectl patch secret ${secret} --type merge --patch-file /dev/stdin`;
}
