// A plain-text table with right-aligned columns (the first column left-aligned), and the
// millisecond format the text reports share (the analysis table and compare's tables).
import { maxOf } from './arrays';
import { groupedNumber } from './numberText';

export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) =>
    maxOf(
      h.length,
      rows.map((r) => (r[i] ?? '').length),
    ),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** ms for people: 3 significant decimals below 10, fewer above, thousands separators. */
export function formatMs(v: number): string {
  const abs = Math.abs(v);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 10 ? 2 : 3;
  return groupedNumber(v, digits, digits);
}

/** Text from the input made safe to print: C0 control characters (and DEL) become their visible Unicode control pictures (ESC -> U+241B). */
export function withVisibleControls(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) =>
    String.fromCharCode(c === '\u007f' ? 0x2421 : 0x2400 + c.charCodeAt(0)),
  );
}
