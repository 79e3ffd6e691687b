// Where the histogram's percentile labels go: in a band of their own above the plot, so that
// none is drawn across a bar, and in rows when p50, p90 and p99 lie too close for one row.
// Each marker line runs down from under its label; no label is drawn over another, or across
// another marker's line on its way down to the plot. DOM-free.
import type { Percentile } from '../../../server/protocol';

/** A percentile to mark: its value (in the histogram's unit), its label and the label's width in px. */
export interface PercentileMarkInput {
  readonly pct: Percentile;
  readonly value: number;
  readonly text: string;
  readonly textWidth: number;
}

export interface PercentileMark {
  readonly pct: Percentile;
  readonly value: number;
  readonly text: string;
  /** The marker line's x. */
  readonly x: number;
  /** 0: the top row of the band. */
  readonly row: number;
  /** The label's plate. */
  readonly box: { readonly x: number; readonly y: number; readonly w: number; readonly h: number };
  readonly textX: number;
}

export interface PercentileBand {
  readonly marks: readonly PercentileMark[];
  /** Height from the canvas's top to the band's bottom (0 with no marks): the plot starts below it. */
  readonly height: number;
}

export const MARK_ROW_PX = 17;
/** Above the first row. */
const BAND_TOP = 2;
const PAD = 3;
/** Air kept between two labels of one row. */
const GAP = 4;

type Box = PercentileMark['box'];

/** A mark to place: its line's x and its label's width with padding. */
interface Shown extends PercentileMarkInput {
  readonly x: number;
  readonly w: number;
}

/** Whether two boxes of one row keep GAP px apart. */
function apart(a: Box, b: Box): boolean {
  return a.x + a.w + GAP <= b.x || b.x + b.w + GAP <= a.x;
}

/** Whether the vertical line at `x` passes through the box (touching its side is not). */
function crosses(x: number, b: Box): boolean {
  return x > b.x && x < b.x + b.w;
}

/**
 * The marks of the values within [lo, hi] (the binned range; a value outside it has no bar to
 * point at). Each label hangs from its marker line: starting at it, ending at it, or (near a
 * canvas edge) shifted to lie whole on the canvas with the line still under it. Of every way
 * to put the labels in rows, the one with the fewest rows is taken (then the most labels that
 * start at their line, then the earlier marks higher up) among those where no label overlaps
 * another of its row and no line, running down from under its label to the plot, crosses a
 * label in a row below. Made for the few marks of one histogram (p50, p90, p99): it tries
 * every arrangement. `plot`: the canvas width and the plot's left and right margins.
 */
export function percentileMarks(
  inputs: readonly PercentileMarkInput[],
  lo: number,
  hi: number,
  plot: { readonly width: number; readonly left: number; readonly right: number },
): PercentileBand {
  const x0 = plot.left;
  const x1 = plot.width - plot.right;
  const xOf = (v: number): number => (hi === lo ? x0 : x0 + ((v - lo) / (hi - lo)) * (x1 - x0));
  const shown: readonly Shown[] = inputs
    .filter((m) => Number.isFinite(m.value) && m.value >= lo && m.value <= hi)
    .map((m) => ({ ...m, x: xOf(m.value), w: m.textWidth + 2 * PAD }))
    .sort((a, b) => a.x - b.x);
  const n = shown.length;
  const boxAt = (row: number, left: number, w: number): Box => ({
    x: left,
    y: BAND_TOP + row * MARK_ROW_PX,
    w,
    h: MARK_ROW_PX - 2,
  });
  // Each mark's lefts: from its line, up to its line, shifted onto the canvas (distinct only).
  const lefts = shown.map((m) => {
    const onCanvas = Math.max(0, Math.min(m.x, plot.width - m.w));
    return [m.x, m.x - m.w, onCanvas].filter(
      (l, i, all) => all.indexOf(l) === i && l >= 0 && l + m.w <= plot.width && m.x >= l && m.x <= l + m.w,
    );
  });
  let best: { rows: number[]; boxes: Box[]; score: number[] } | null = null;
  const rows: number[] = [];
  const boxes: Box[] = [];
  const better = (a: number[], b: number[]): boolean => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number);
    return false;
  };
  // Mark m in `row` at `box`, against the marks placed before it: apart in one row, no line through a label.
  const fits = (m: Shown, row: number, box: Box): boolean =>
    boxes.every((other, j) => {
      const r = rows[j] as number;
      if (r === row) return apart(box, other);
      return r < row ? !crosses((shown[j] as Shown).x, box) : !crosses(m.x, other);
    });
  const search = (i: number): void => {
    if (i === n) {
      const used = rows.reduce((k, r) => Math.max(k, r + 1), 0);
      const offLine = boxes.filter((b, j) => b.x !== (shown[j] as Shown).x).length;
      const score = [used, offLine, ...rows];
      if (best === null || better(score, best.score)) best = { rows: [...rows], boxes: [...boxes], score };
      return;
    }
    const m = shown[i] as Shown;
    for (let row = 0; row < n; row++)
      for (const left of lefts[i] ?? []) {
        const box = boxAt(row, left, m.w);
        if (!fits(m, row, box)) continue;
        rows.push(row);
        boxes.push(box);
        search(i + 1);
        rows.pop();
        boxes.pop();
      }
  };
  search(0);
  // No arrangement keeps every rule (a label wider than the canvas): a row each, on the canvas where it can be.
  const found = best as { rows: number[]; boxes: Box[] } | null;
  const marks: PercentileMark[] = shown.map((m, i) => {
    const row = found === null ? i : (found.rows[i] as number);
    const box = found === null ? boxAt(i, Math.max(0, Math.min(m.x, plot.width - m.w)), m.w) : (found.boxes[i] as Box);
    return { pct: m.pct, value: m.value, text: m.text, x: m.x, row, box, textX: box.x + PAD };
  });
  const used = marks.reduce((k, m) => Math.max(k, m.row + 1), 0);
  return { marks, height: used === 0 ? 0 : BAND_TOP + used * MARK_ROW_PX };
}
