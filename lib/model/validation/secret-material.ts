/**
 * Secret material in a value that would be rendered as plain text (a ConfigMap, a pod's
 * environment): a URL whose user info carries a password (`rabbit://nova:s3cret@mq:5672/`), or an
 * option named as a password. A reference substituted at run time (`$(MQ_PASSWORD)`, `${PW}`,
 * `$PW`) is not secret material: that is how Stackwright composes its own connection URLs.
 */

/** `scheme://user:password@`: the user may be empty (`redis://:pw@host`), the password may not. */
const URL_USERINFO = /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/([^\s/?#@:]*):([^\s/?#@]+)@/g;

/** A whole value that is one variable reference: Kubernetes' `$(NAME)`, the shell's `${NAME}` and `$NAME`. */
const SUBSTITUTION =
  /^(?:\$\([A-Za-z_][A-Za-z0-9_]*\)|\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*)$/;

/** Option and variable names that say "password": `password`, `memcache_password`, `DB_PASSWD`. */
const PASSWORD_NAME = /(?:^|[_.-])pass(?:word|wd)$/i;

/**
 * The URLs in `text` that carry a literal password, each with the password masked
 * (`rabbit://nova:****@`), so a message never repeats the secret.
 */
export function urlsWithPassword(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(URL_USERINFO)) {
    if (!isSubstitution(match[2])) found.push(match[0].replace(`:${match[2]}@`, ':****@'));
  }
  return found;
}

/** Whether an option or environment variable holds a password, by its name. */
export function isPasswordName(name: string): boolean {
  return PASSWORD_NAME.test(name);
}

/** Whether `value` is only a reference to a variable, filled in at run time. */
export function isSubstitution(value: string): boolean {
  return SUBSTITUTION.test(value);
}
