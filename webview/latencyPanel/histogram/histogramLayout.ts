// Geometry of a per-stage histogram. Only numbers are binned; values that are not
// numbers (not measured, hidden, not recorded) are counted beside it, never as 0.
// DOM-free.
import type { HistogramResult } from '../../../server/protocol';
import { niceMax, niceTicks, project, scale } from '../../shared/axis';
import { formatCount } from '../../shared/format';
import { maxOf } from '../../../server/shared';

export interface HistogramBox {
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

export interface HistogramBar {
  readonly from: number;
  readonly to: number;
  readonly count: number;
  /** Of `count`, the inferred values (drawn apart: never shown as measured). */
  readonly inferred: number;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export interface HistogramLayout {
  readonly bars: readonly HistogramBar[];
  readonly xTicks: readonly { readonly x: number; readonly value: number }[];
  readonly yTicks: readonly { readonly y: number; readonly count: number }[];
  readonly binned: number;
  readonly maxCount: number;
  /** The bar holding the most values. */
  readonly mode: HistogramBar | null;
}

export interface UnbinnedCount {
  /** `oneOutput`: printed, but not a measurement on a stage that emits one output (shown as not recorded). */
  readonly state: 'notMeasured' | 'hidden' | 'notRecorded' | 'oneOutput';
  readonly label: string;
  readonly count: number;
}

/** The unbinned label of a one-output stage's decode or interval between outputs (its title says why). */
export const ONE_OUTPUT_UNBINNED = 'not recorded: one output';

/**
 * The values that are not numbers, by state, only the states that have some: "not recorded 0"
 * in the warning colour would flag a problem the values do not have.
 */
export function unbinnedCounts(h: HistogramResult): UnbinnedCount[] {
  const all: UnbinnedCount[] = [
    { state: 'oneOutput', label: ONE_OUTPUT_UNBINNED, count: h.oneOutput },
    { state: 'notRecorded', label: 'not recorded', count: h.notRecorded },
    { state: 'notMeasured', label: 'not measured', count: h.notMeasured },
    { state: 'hidden', label: 'hidden (zero or not measured)', count: h.hidden },
  ];
  return all.filter((c) => c.count > 0);
}

/** For the canvas's label: "Not binned: 1,200 not recorded, 3 hidden (zero or not measured)." or "Not binned: none." */
export function unbinnedSentence(h: HistogramResult): string {
  const counts = unbinnedCounts(h);
  return `Not binned: ${counts.length === 0 ? 'none' : counts.map((c) => `${formatCount(c.count)} ${c.label}`).join(', ')}.`;
}

/**
 * The caption under the not-binned list: "8 numbers binned (ms)." and, when some are inferred,
 * how many of them are measured and how many inferred, as the side panel counts them.
 */
export function binnedCaption(h: HistogramResult, binned: number, unit: string): string {
  const head = `${formatCount(binned)} numbers binned${unit === '' ? '' : ` (${unit})`}`;
  if (h.inferred === 0 || binned === 0) return `${head}.`;
  return `${head}: ${formatCount(binned - h.inferred)} measured, ${formatCount(h.inferred)} inferred (≈).`;
}

/**
 * Nice x ticks about 80 px apart, at least two: in a narrow chart a nice step can leave one
 * tick in the range (0.20 alone over 0.05–0.39), which reads as no scale at all.
 */
function xTickValues(lo: number, hi: number, width: number): number[] {
  const wanted = Math.max(2, Math.floor(width / 80));
  for (let count = wanted; count <= wanted + 3; count++) {
    const ticks = niceTicks(lo, hi, count);
    if (ticks.length >= 2) return ticks;
  }
  return niceTicks(lo, hi, wanted);
}

export function histogramLayout(h: HistogramResult, box: HistogramBox): HistogramLayout {
  const n = Math.min(h.counts.length, Math.max(0, h.edges.length - 1));
  const binned = h.counts.slice(0, n).reduce((a, b) => a + b, 0);
  const maxCount = maxOf(0, h.counts.slice(0, n));
  if (n === 0) return { bars: [], xTicks: [], yTicks: [], binned: 0, maxCount: 0, mode: null };
  const lo = h.edges[0] as number;
  const hi = h.edges[n] as number;
  const x = scale(lo, hi === lo ? lo + 1 : hi, box.left, box.width - box.right);
  const yTop = niceMax(maxCount, 4);
  const y = scale(0, yTop, box.height - box.bottom, box.top);
  const bars: HistogramBar[] = [];
  let mode: HistogramBar | null = null;
  for (let i = 0; i < n; i++) {
    const from = h.edges[i] as number;
    const to = h.edges[i + 1] as number;
    const count = h.counts[i] as number;
    const inferred = Math.min(count, h.inferredCounts[i] ?? 0);
    const x0 = project(x, from);
    const x1 = project(x, to);
    const y0 = project(y, count);
    // One pixel of air between bars when there is room for it.
    const gap = x1 - x0 > 4 ? 1 : 0;
    const bar = {
      from,
      to,
      count,
      inferred,
      x: x0,
      y: y0,
      w: Math.max(1, x1 - x0 - gap),
      h: box.height - box.bottom - y0,
    };
    bars.push(bar);
    if (count > 0 && (mode === null || count > mode.count)) mode = bar;
  }
  const xTicks = xTickValues(lo, hi, box.width - box.left - box.right).map((value) => ({
    value,
    x: project(x, value),
  }));
  // Counts are whole: a tick at 0.5 would be printed as a count it is not (0, 1, 1).
  const yTicks = niceTicks(0, yTop, 4)
    .filter((count) => Number.isInteger(count))
    .map((count) => ({ count, y: project(y, count) }));
  return { bars, xTicks, yTicks, binned, maxCount, mode };
}

/** The bar under an x position. */
export function histogramBarAt(layout: HistogramLayout, px: number): HistogramBar | null {
  return layout.bars.find((b) => px >= b.x && px < b.x + b.w + 1) ?? null;
}
