const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a duration as people type it: `10m`, `90s`, `1h30m`, `500ms`; a bare number is seconds.
 * Throws with the offending text (an exit-2 usage error).
 */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== trimmed) {
    throw new Error(`invalid duration "${text}": use e.g. 30s, 10m, 1h30m, 500ms`);
  }
  return Math.round(parts.reduce((sum, [, value, unit]) => sum + Number(value) * UNITS[unit], 0));
}

/** `1.2s`, `41.0s`, `2m 05s`: durations in progress lines and summaries. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
}
