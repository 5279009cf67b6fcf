import { IConstruct } from 'constructs';

/**
 * Fails construction when a required input service is missing. TypeScript users get a compile error
 * for a missing required prop already; JavaScript users (and `as any` casts) would otherwise get a
 * `TypeError` from deep inside the constructor. It throws instead of adding a synth-time check
 * because the constructor cannot wire edges or render configuration without the input.
 *
 * @param hints for each input, what to pass, e.g. `{ keystone: 'the Keystone service' }`
 *
 * @example
 * requireInputs(this, props, { keystone: 'the Keystone service', database: 'a MariaDB or externalDatabase(...)' });
 */
export function requireInputs<P extends object>(
  scope: IConstruct,
  props: P | undefined,
  hints: { readonly [K in keyof P]?: string },
): void {
  const given = (props ?? {}) as Record<string, unknown>;
  const missing = Object.keys(hints).filter((name) => given[name] === undefined || given[name] === null);
  if (missing.length === 0) return;
  const className = scope.constructor.name;
  const lines = missing.map(
    (name) =>
      `[${scope.node.path}] missing required input "${name}": pass ${hints[name as keyof P]} as \`${name}\` ` +
      `(new ${className}(scope, '${scope.node.id}', { ${name}, ... }))`,
  );
  throw new Error(lines.join('\n'));
}
