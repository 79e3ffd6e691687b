// Axis helpers shared by the canvas charts. DOM-free.

/** A linear map from a domain to pixels. */
export interface LinearScale {
  readonly d0: number;
  readonly d1: number;
  readonly r0: number;
  readonly r1: number;
}

export function scale(d0: number, d1: number, r0: number, r1: number): LinearScale {
  return { d0, d1, r0, r1 };
}

export function project(s: LinearScale, v: number): number {
  const span = s.d1 - s.d0;
  return span === 0 ? s.r0 : s.r0 + ((v - s.d0) / span) * (s.r1 - s.r0);
}

export function invert(s: LinearScale, px: number): number {
  const span = s.r1 - s.r0;
  return span === 0 ? s.d0 : s.d0 + ((px - s.r0) / span) * (s.d1 - s.d0);
}

/** A "nice" step (1, 2, 5 × 10^k) giving about `count` ticks over [min, max]. */
export function niceStep(min: number, max: number, count: number): number {
  const span = Math.abs(max - min);
  if (span === 0 || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  const nice = norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10;
  return nice * mag;
}

/** Tick values within [min, max] on a nice step. */
export function niceTicks(min: number, max: number, count: number): number[] {
  if (!(max > min)) return [min];
  const step = niceStep(min, max, count);
  const out: number[] = [];
  const first = Math.ceil(min / step) * step;
  for (let v = first; v <= max + step * 1e-9; v += step)
    out.push(Math.abs(v) < step * 1e-9 ? 0 : Number(v.toPrecision(12)));
  return out;
}

/** An upper bound that is a nice number >= max (for a y axis starting at 0). */
export function niceMax(max: number, count = 4): number {
  if (!(max > 0)) return 1;
  const step = niceStep(0, max, count);
  return Math.ceil(max / step) * step;
}

const TIME_STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
  900_000, 1_800_000, 3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000,
];

/** The spacing (ms) of timeTicks' ticks over [t0, t1]: what their labels need to show (timeTickText). */
export function timeTickStep(t0: number, t1: number, count: number): number {
  const raw = (t1 - t0) / Math.max(1, count);
  return TIME_STEPS.find((s) => s >= raw) ?? niceStep(t0, t1, count);
}

/**
 * Wall-clock ticks (ms since epoch) on round seconds/minutes/hours: of the local clock, or
 * (`local` false) of the UTC one, which the log clock's printed fields are read as.
 */
export function timeTicks(t0: number, t1: number, count: number, local = true): number[] {
  if (!(t1 > t0)) return [t0];
  const step = timeTickStep(t0, t1, count);
  // Align to the minute/hour grid when the step is a whole number of minutes.
  const offset = local && step >= 60_000 ? new Date(t0).getTimezoneOffset() * 60_000 : 0;
  const out: number[] = [];
  for (let v = Math.ceil((t0 - offset) / step) * step + offset; v <= t1; v += step) out.push(v);
  return out;
}

/** Room kept between a time label and the canvas's side: glyphs may ink a little past their advance. */
export const LABEL_EDGE_PX = 2;

/** A tick label to place: its tick's x and its measured text width, in px. */
export interface TickLabel {
  readonly x: number;
  readonly width: number;
}

/**
 * Left edge of each tick label, or null for a label left out. A label is centred on its tick,
 * then shifted to lie whole within [min, max] (so the first and last ones are not cut at the
 * canvas edges); one that would then come closer than `gap` to the label kept before it, or is
 * wider than the room, is left out rather than drawn over another or cut.
 */
export function placeTickLabels(labels: readonly TickLabel[], min: number, max: number, gap = 8): (number | null)[] {
  let prevRight = Number.NEGATIVE_INFINITY;
  return labels.map(({ x, width }) => {
    if (width > max - min) return null;
    const left = Math.min(Math.max(x - width / 2, min), max - width);
    if (left < prevRight + gap) return null;
    prevRight = left + width;
    return left;
  });
}

/**
 * Left and right margins of the charts drawn on one time axis (Over Time's panes and its
 * Each request chart): the same margins at the same width put an instant at the same x.
 */
export const TIME_PLOT_MARGIN = { left: 64, right: 12 } as const;

/** The plot's left and right edges in a canvas `width` px wide (at least 50 px of plot). */
export function timePlotX(width: number): { x0: number; x1: number } {
  const x0 = TIME_PLOT_MARGIN.left;
  return { x0, x1: Math.max(x0 + 50, width - TIME_PLOT_MARGIN.right) };
}

export type DurationUnit = 'ms' | 's' | 'min';

/** A y axis of durations from 0: its top, its ticks (ms) and one unit every tick is labelled in. */
export interface DurationAxis {
  readonly max: number;
  readonly ticks: readonly number[];
  readonly unit: DurationUnit;
  readonly format: (ms: number) => string;
}

const UNIT_MS: Record<DurationUnit, number> = { ms: 1, s: 1000, min: 60_000 };

/**
 * The unit is chosen from the axis's range, not per tick: "500 ms" beside "1.5 s" makes the
 * reader convert. Minutes from 2 min up (ticks are then nice in minutes, not in ms); seconds
 * when the top reaches 1 s; ms below. Every label has the decimals the step needs.
 */
export function durationAxis(maxMs: number, count = 4): DurationAxis {
  const topMs = niceMax(maxMs, count);
  const unit: DurationUnit = maxMs >= 120_000 ? 'min' : topMs >= 1000 ? 's' : 'ms';
  const per = UNIT_MS[unit];
  const top = niceMax(maxMs / per, count);
  const ticks = niceTicks(0, top, count);
  const step = ticks.length > 1 ? (ticks[1] as number) - (ticks[0] as number) : top;
  const decimals = Math.max(0, Math.min(6, Math.ceil(-Math.log10(step) - 1e-9)));
  const fmt = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return {
    max: top * per,
    ticks: ticks.map((v) => v * per),
    unit,
    format: (ms) => (ms === 0 ? `0 ${unit}` : `${fmt.format(ms / per)} ${unit}`),
  };
}
