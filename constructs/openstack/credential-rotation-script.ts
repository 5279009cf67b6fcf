/**
 * The two halves of a rotation of Keystone's credential encryption keys (the keys of `[credential]
 * key_repository`, which encrypt what the credentials API stores: EC2 and TOTP secrets), run as
 * one pod: the first in the Keystone image, the second in the toolbox image.
 *
 * Keystone's own order is migrate, then rotate: `keystone-manage credential_rotate` refuses while
 * any credential is encrypted with another key than the primary, because the rotation drops the
 * oldest of its three keys. So the first half copies the keys the pod mounted into a scratch
 * directory, re-encrypts every credential with the primary (`credential_migrate`), and lets
 * `credential_rotate` check that and rotate the scratch copy: the staged key becomes the primary,
 * a new staged key `0` is made, and the oldest key goes. The second half publishes the scratch copy
 * to the Secret every Keystone pod mounts.
 *
 * Why no credential is lost: Keystone reads all three keys to decrypt, so a pod whose Secret volume
 * has not caught up still decrypts what the new primary (its staged key) encrypts; and the dropped
 * key is the primary before the previous rotation, which no pod uses once the kubelet has refreshed
 * the previous rotation's keys (within about two minutes; the publish refuses to run sooner than
 * {@link KEY_PROPAGATION_SECONDS} after it, which the Secret's annotation
 * {@link KEYS_ROTATED_AT_ANNOTATION} records). What a lagging pod encrypted meanwhile this run's
 * migrate re-encrypted. The migrate runs first in every run, a refused one too: moving every
 * credential to the primary every pod already holds is safe at any time.
 *
 * The Secret is written by a compare-and-swap: the publish reads it, checks its keys are those the
 * first half migrated under, and patches it with the resourceVersion it read; a rotation in between
 * fails the run instead of being overwritten. Key values never reach a process's argv nor the log.
 */

/** Seconds a rotation waits after the last one: the kubelet's Secret refresh (≈ 2 min) five times over. */
export const KEY_PROPAGATION_SECONDS = 600;
/** When the keys last changed (seconds since the epoch), on the Secret. */
export const KEYS_ROTATED_AT_ANNOTATION = 'stackwright.io/keys-rotated-at';

/** Where the two halves meet: an emptyDir both containers mount. */
export const ROTATION_WORK_DIR = '/work';
const READ = `${ROTATION_WORK_DIR}/read`;
const ROTATED = `${ROTATION_WORK_DIR}/keys`;
const OWNER = '--keystone-user "$(id -u)" --keystone-group "$(id -g)"';

/**
 * The first half, in the Keystone image with its configuration and database connection:
 * `mountedKeys` is where the pod mounts the keys' Secret.
 */
export function credentialMigrateAndRotateScript(mountedKeys: string): string {
  return [
    'set -eu',
    'umask 077',
    `mkdir -p ${READ} ${ROTATED}`,
    // The mounted files are links into the volume's current data: copy what they point to.
    `cp -L ${mountedKeys}/[0-9]* ${READ}/`,
    `cp ${READ}/* ${ROTATED}/`,
    `export OS_CREDENTIAL__KEY_REPOSITORY=${ROTATED}`,
    // Both ask whom the files they write belong to: this pod's user, who reads them next.
    `keystone-manage credential_migrate ${OWNER}`,
    `keystone-manage credential_rotate ${OWNER}`,
  ].join('\n');
}

/**
 * The second half, in the toolbox image (`sh`, `kubectl`, coreutils), with a ServiceAccount that
 * may get and patch `secretName`.
 */
export function credentialKeysPublishScript(secretName: string): string {
  const fail = (reason: string): string => `{ echo "credential key rotation: ${reason}" >&2; exit 1; }`;
  const list = (dir: string): string =>
    `for f in ${dir}/*; do printf '%s %s\\n' "\${f##*/}" "$(base64 -w 0 <"$f")"; done | sort -n`;
  return [
    'set -eu',
    'umask 077',
    `secret='${secretName}'`,
    `state=${ROTATION_WORK_DIR}/secret`,
    `kubectl get secret "$secret" -o go-template='{{.metadata.resourceVersion}}{{"\\n"}}{{with .metadata.annotations}}{{with index . "${KEYS_ROTATED_AT_ANNOTATION}"}}{{.}}{{end}}{{end}}{{"\\n"}}{{range $k, $v := .data}}{{$k}} {{$v}}{{"\\n"}}{{end}}' >"$state"`,
    'version=$(sed -n 1p "$state")',
    'rotated_at=$(sed -n 2p "$state")',
    'now=$(date +%s)',
    `if [ -n "$rotated_at" ] && [ $((now - rotated_at)) -lt ${KEY_PROPAGATION_SECONDS} ]; then ${fail(
      `the keys of Secret $secret were rotated $((now - rotated_at)) s ago: a pod may still hold the ones before (the kubelet refreshes a Secret volume within about two minutes); the keys are left as they are (the credentials were re-encrypted with their primary, which is safe at any time), run again after $((rotated_at + ${KEY_PROPAGATION_SECONDS} - now)) s`,
    )}; fi`,
    `[ "$(tail -n +3 "$state" | sort -n)" = "$(${list(READ)})" ] || ${fail(
      'Secret $secret changed since this run read it (another rotation?): nothing written; the next run starts from the keys it holds now',
    )}`,
    `primary_before=$(ls ${READ} | sort -n | tail -n 1)`,
    `primary=$(ls ${ROTATED} | sort -n | tail -n 1)`,
    `dropped=$(for f in ${READ}/*; do [ -e "${ROTATED}/\${f##*/}" ] || echo "\${f##*/}"; done | paste -sd ' ' -)`,
    '{',
    `  printf '{"metadata":{"resourceVersion":"%s","annotations":{"${KEYS_ROTATED_AT_ANNOTATION}":"%s"}},"data":{' "$version" "$now"`,
    `  ${list(ROTATED)} | sed 's/^\\([0-9]*\\) \\(.*\\)$/"\\1":"\\2"/' | paste -sd , - | tr -d '\\n'`,
    `  for index in $dropped; do printf ',"%s":null' "$index"; done`,
    "  printf '}}'",
    `} >${ROTATION_WORK_DIR}/patch`,
    `kubectl patch secret "$secret" --type merge --patch-file ${ROTATION_WORK_DIR}/patch >/dev/null`,
    `rm -rf ${READ} ${ROTATED} "$state" ${ROTATION_WORK_DIR}/patch`,
    `echo "credential key rotation: key $primary is the primary (the staged key before), a new staged key 0, dropped: \${dropped:-none}; every credential was encrypted with key $primary_before first (credential_migrate)"`,
  ].join('\n');
}
