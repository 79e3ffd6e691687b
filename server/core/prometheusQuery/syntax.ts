// The pieces of PromQL text Stage Lens writes from user settings: label names, string
// literals, regular-expression literals and durations. Values from settings are never
// pasted into a query unchecked: a label name must be a label name, a value is always a
// quoted, escaped string literal, a window is a PromQL duration.

/** Prometheus label names (the classic charset; `__`-prefixed names are reserved). */
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** One or more `<int><unit>` parts in descending unit order, as PromQL durations (`1h30m`, `90s`, `500ms`). */
const DURATION = /^(?:(\d+)y)?(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;
const UNIT_MS = [365 * 86_400_000, 7 * 86_400_000, 86_400_000, 3_600_000, 60_000, 1000, 1];

export function isLabelName(name: string): boolean {
  return LABEL_NAME.test(name) && !name.startsWith('__');
}

/** A PromQL double-quoted string literal holding exactly `value`. */
export function stringLiteral(value: string): string {
  let out = '"';
  for (const ch of value) {
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else out += ch;
  }
  return out + '"';
}

/** `value` as an RE2 pattern matching only itself (PromQL regexes are fully anchored). */
export function regexEscape(value: string): string {
  return value.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);
}

/** Milliseconds of a PromQL duration, or null when `text` is not one (or is 0). */
export function durationMs(text: string): number | null {
  const m = DURATION.exec(text);
  if (m === null || text === '') return null;
  let total = 0;
  for (let i = 0; i < UNIT_MS.length; i++) {
    const part = m[i + 1];
    if (part !== undefined) total += Number(part) * UNIT_MS[i];
  }
  return total > 0 && Number.isSafeInteger(total) ? total : null;
}

/** The shortest PromQL duration for a whole number of milliseconds (`90000` -> `1m30s`). */
export function formatDuration(ms: number): string {
  let rest = Math.max(1, Math.round(ms));
  const parts: string[] = [];
  const units: ReadonlyArray<readonly [number, string]> = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'm'],
    [1000, 's'],
    [1, 'ms'],
  ];
  for (const [size, unit] of units) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.join('');
}
