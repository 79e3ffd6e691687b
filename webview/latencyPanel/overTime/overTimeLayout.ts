// Geometry of the over-time charts, DOM-free (unit-tested in Node): the panes stacked on
// one time axis, points of a series with gaps where a step has no value (null is never
// drawn as 0), and the brush's pixels turned into a window on the log clock. The time
// domain and the plot's edges are the Each request chart's below (timePlotX, the span
// view it draws), so that one instant is at one x in both.
import type { GaugeSeries, OverTimeSeries } from '../../../server/protocol';
import { niceStep, timePlotX } from '../../shared/axis';

export interface Pane {
  readonly id: 'latency' | 'rate' | 'load' | 'kv';
  readonly top: number;
  readonly height: number;
}

const PANE_GAP = 18;
const AXIS_HEIGHT = 22;

export interface OverTimeLayout {
  readonly panes: readonly Pane[];
  readonly height: number;
  readonly t0: number;
  readonly t1: number;
  readonly x0: number;
  readonly x1: number;
}

/** Gauges worth a pane: some step has a value. */
export function gaugesWith(
  gauges: readonly GaugeSeries[],
  key: 'running' | 'waiting' | 'kvCacheUsagePerc',
): GaugeSeries[] {
  return gauges.filter((g) => g[key].some((v) => v !== null));
}

/**
 * `domain`: the clock span to draw (the Each request chart's view); without one, the log's
 * span (seriesSpan) with a little air either side, so that no point sits on a border.
 */
export function layoutOverTime(
  series: OverTimeSeries,
  width: number,
  showKv: boolean,
  domain: { readonly t0: number; readonly t1: number } | null = null,
): OverTimeLayout {
  const panes: Pane[] = [];
  let top = 8;
  const add = (id: Pane['id'], height: number): void => {
    panes.push({ id, top, height });
    top += height + PANE_GAP;
  };
  add('latency', 170);
  add('rate', 60);
  if (gaugesWith(series.gauges, 'running').length > 0 || gaugesWith(series.gauges, 'waiting').length > 0)
    add('load', 70);
  if (showKv) add('kv', 60);
  const { t0, t1 } = domain ?? padded(seriesSpan(series)) ?? { t0: 0, t1: 1 };
  const { x0, x1 } = timePlotX(width);
  return { panes, height: top - PANE_GAP + AXIS_HEIGHT, t0, t1: t1 > t0 ? t1 : t0 + 1, x0, x1 };
}

/**
 * The clock span the series covers: the log's, first to last finish (every point lies in it).
 * Not the steps' grid: a step's round end after the log's last line would stretch the shared
 * time axis past the data.
 */
export function seriesSpan(series: Pick<OverTimeSeries, 'span'>): { t0: number; t1: number } | null {
  return series.span === null ? null : { t0: series.span.fromMs, t1: series.span.toMs };
}

/** As the Each request chart's whole view: 2% of the span either side, a second at least. */
function padded(span: { t0: number; t1: number } | null): { t0: number; t1: number } | null {
  if (span === null) return null;
  const width = Math.max(1000, span.t1 - span.t0);
  return { t0: span.t0 - width * 0.02, t1: span.t0 + width * 1.02 };
}

export interface ValueAxis {
  readonly max: number;
  readonly ticks: readonly number[];
  readonly format: (value: number) => string;
}

/**
 * A y axis from 0 (requests per second, running/waiting, KV %): about three ticks on a 1-2-5
 * step, each label with the decimals that step needs and all with the same ("0.000/s,
 * 0.005/s, 0.010/s"), so that no two read alike and 0 is written as the others are.
 * `wholeSteps`: counts of requests, never half a request between ticks.
 */
export function valueAxis(maxValue: number, unit: string, wholeSteps = false, count = 3): ValueAxis {
  const top = maxValue > 0 ? maxValue : 1;
  const step = Math.max(niceStep(0, top, count), wholeSteps ? 1 : 0);
  const max = Math.ceil(top / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let k = 0; k * step <= max + step * 1e-9; k++) ticks.push(Number((k * step).toPrecision(12)));
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const text = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return { max, ticks, format: (v) => `${text.format(v)}${unit}` };
}

export function xOfTime(l: OverTimeLayout, t: number): number {
  return l.x0 + ((t - l.t0) / (l.t1 - l.t0)) * (l.x1 - l.x0);
}

export function timeOfX(l: OverTimeLayout, x: number): number {
  const clamped = Math.max(l.x0, Math.min(l.x1, x));
  return l.t0 + ((clamped - l.x0) / (l.x1 - l.x0)) * (l.t1 - l.t0);
}

/** Points of one series in a pane (y from 0 at the bottom to yMax at the top); null where the step has no value. */
export function points(
  l: OverTimeLayout,
  pane: Pane,
  times: readonly number[],
  values: readonly (number | null)[],
  yMax: number,
): ({ x: number; y: number } | null)[] {
  return values.map((v, i) => {
    const t = times[i];
    if (v === null || !Number.isFinite(v) || t === undefined) return null;
    const x = xOfTime(l, t);
    const y = pane.top + pane.height - (Math.max(0, v) / (yMax > 0 ? yMax : 1)) * pane.height;
    return { x, y };
  });
}

/** The largest value of some series (nulls skipped); 0 when none. */
export function maxOf(series: readonly (readonly (number | null)[])[]): number {
  let m = 0;
  for (const s of series) for (const v of s) if (v !== null && v > m) m = v;
  return m;
}

/** A drag from x0 to x1 (CSS px) as a window on the log clock; null for a click (under 4 px). */
export function brushWindow(l: OverTimeLayout, xa: number, xb: number): { fromMs: number; toMs: number } | null {
  if (Math.abs(xb - xa) < 4) return null;
  const a = timeOfX(l, Math.min(xa, xb));
  const b = timeOfX(l, Math.max(xa, xb));
  return b > a ? { fromMs: Math.floor(a), toMs: Math.ceil(b) } : null;
}
