// A plain-text table with right-aligned columns (the first column left-aligned), and the
// millisecond format the text reports share (the analysis table and compare's tables).
import { maxOf } from './arrays';
import { groupedNumber, HUGE_MS } from './numberText';

/**
 * Where a table is read in a terminal of a known width (a live view redrawn in place): wider
 * than `width`, its columns after the first `keep` (the row's identity: stage, n, quantile) are
 * folded into blocks that fit, each block repeating those, instead of being cut off.
 */
export interface TableFold {
  readonly width: number;
  readonly keep: number;
}

const GAP = 2;

export function textTable(header: readonly string[], rows: readonly (readonly string[])[], fold?: TableFold): string[] {
  const widths = header.map((h, i) =>
    maxOf(
      h.length,
      rows.map((r) => (r[i] ?? '').length),
    ),
  );
  const block = (columns: readonly number[]): string[] => {
    const line = (cells: readonly string[]): string =>
      columns
        .map((c, k) => (k === 0 ? (cells[c] ?? '').padEnd(widths[c] ?? 0) : (cells[c] ?? '').padStart(widths[c] ?? 0)))
        .join(' '.repeat(GAP))
        .trimEnd();
    return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  };
  const all = widths.map((_, i) => i);
  const total = widths.reduce((a, w) => a + w, 0) + GAP * (widths.length - 1);
  if (fold === undefined || total <= fold.width || fold.keep >= widths.length) return block(all);
  const kept = all.slice(0, fold.keep);
  const keptWidth = kept.reduce((a, i) => a + (widths[i] ?? 0) + GAP, 0);
  const groups: number[][] = [];
  let group: number[] = [];
  let used = keptWidth;
  for (const i of all.slice(fold.keep)) {
    const w = (widths[i] ?? 0) + GAP;
    // A column wider than the terminal on its own still gets a block (cut there, as before).
    if (group.length > 0 && used + w - GAP > fold.width) {
      groups.push(group);
      group = [];
      used = keptWidth;
    }
    group.push(i);
    used += w;
  }
  if (group.length > 0) groups.push(group);
  // No blank line between blocks: a blank line ends the table for whoever reads the report in blocks (liveFrame.ts).
  return groups.flatMap((g) => block([...kept, ...g]));
}

/** ms for people: 3 significant decimals below 10, fewer above, thousands separators. */
export function formatMs(v: number): string {
  const abs = Math.abs(v);
  // 1e15 ms is 31,700 years: a value that large is a broken print, not a time; its 16+ digits
  // (309 for 1e308) would widen the column past any screen.
  if (abs >= HUGE_MS && abs < Infinity) return v.toExponential(3);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 10 ? 2 : 3;
  return groupedNumber(v, digits, digits);
}

/** Text from the input made safe to print: C0 control characters (and DEL) become their visible Unicode control pictures (ESC -> U+241B). */
export function withVisibleControls(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, visibleControl);
}

/** A control character as a visible one: C0 and DEL as their Unicode control pictures, C1 as U+FFFD. */
function visibleControl(c: string): string {
  const code = c.charCodeAt(0);
  return code >= 0x80 ? '\ufffd' : String.fromCharCode(code === 0x7f ? 0x2421 : 0x2400 + code);
}

/**
 * Text bound for a terminal (or a Markdown file a CI page renders) made inert: every control
 * character but the line break and the tab becomes visible (C0 and DEL as their Unicode control
 * pictures, C1 as U+FFFD), so a request id from the log cannot move the cursor, retitle the
 * window or hide text (an ESC ] … BEL or a lone U+009B CSI). JSON and CSV escape their own.
 */
export function terminalText(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, visibleControl);
}
