// A live view's frame fitted to the terminal it is redrawn in: a line longer than the
// terminal is wide would wrap and push the frame's top (the phase table) off the screen, so
// every line is cut to the width, and a frame taller than the screen keeps its top lines and
// says how many are left for the final summary, which prints everything. The findings come
// right after the phase table there, so that a short screen still shows one line of each.

/** The size a terminal that says none is taken to have (a pty whose size was never set is 0×0). */
export const DEFAULT_SCREEN = { width: 80, height: 24 } as const;

/** The terminal's size, 80×24 where it says none (undefined) or an unknown 0. */
export function screenSize(columns: number | undefined, rows: number | undefined): { width: number; height: number } {
  return {
    width: columns !== undefined && columns > 0 ? columns : DEFAULT_SCREEN.width,
    height: rows !== undefined && rows > 0 ? rows : DEFAULT_SCREEN.height,
  };
}

/** Marks a cut line. */
const CUT = '…';

/** `line` in at most `width` characters (code points): cut with '…' when longer. */
export function fitLine(line: string, width: number): string {
  if (line.length <= width) return line;
  const chars = [...line];
  if (chars.length <= width) return line;
  return width <= 0 ? '' : chars.slice(0, width - 1).join('') + CUT;
}

/**
 * `line` in at most `width` characters (code points): cut from its start with '…' when
 * longer, for text whose end says the most (a path's file name).
 */
export function fitLineStart(line: string, width: number): string {
  if (line.length <= width) return line;
  const chars = [...line];
  if (chars.length <= width) return line;
  return width <= 0 ? '' : CUT + chars.slice(chars.length - (width - 1)).join('');
}

/**
 * `lines` fitted to `width` × `height`: each line cut to the width, and past the height the
 * last line says how many more there are. Trailing blank lines are dropped first.
 */
export function fitFrame(lines: readonly string[], width: number, height: number): string[] {
  let end = lines.length;
  while (end > 0 && (lines[end - 1] as string).trim() === '') end--;
  const rows = Math.max(1, height);
  if (end <= rows) return lines.slice(0, end).map((l) => fitLine(l, width));
  const kept = lines.slice(0, rows - 1).map((l) => fitLine(l, width));
  kept.push(fitLine(`${CUT} ${end - (rows - 1)} more lines in the final summary`, width));
  return kept;
}

/**
 * A report's lines with its findings block (from `Findings:` to the next blank line) moved
 * after its second block (the head and the phase table), where a live frame keeps it on screen.
 */
export function findingsFirst(lines: readonly string[]): string[] {
  const start = lines.indexOf('Findings:');
  if (start < 0) return [...lines];
  let end = lines.indexOf('', start);
  if (end < 0) end = lines.length;
  const findings = lines.slice(start, end);
  // Without the block and the blank line that opened it.
  const rest = [...lines.slice(0, start > 0 && lines[start - 1] === '' ? start - 1 : start), ...lines.slice(end)];
  // The blank line after the second block (the head, then the phase table).
  let at = -1;
  for (let blanks = 0, i = 0; i < rest.length; i++)
    if (rest[i] === '' && ++blanks === 2) {
      at = i;
      break;
    }
  if (at < 0) return [...lines];
  return [...rest.slice(0, at + 1), ...findings, '', ...rest.slice(at + 1)];
}

/**
 * How many lines a frame needs to show its head, phase table and the first `shown` findings
 * (after findingsFirst): up to the blank line after `Findings:` or that many findings, or the
 * end of the phase table when there are none.
 */
export function findingsEnd(lines: readonly string[], shown = Number.POSITIVE_INFINITY): number {
  const start = lines.indexOf('Findings:');
  if (start >= 0) {
    const end = lines.indexOf('', start);
    return Math.min(end < 0 ? lines.length : end, start + 1 + shown);
  }
  let blanks = 0;
  for (let i = 0; i < lines.length; i++) if (lines[i] === '' && ++blanks === 2) return i;
  return lines.length;
}
