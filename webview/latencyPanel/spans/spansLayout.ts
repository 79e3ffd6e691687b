// Requests over wall time: request i is a line from its start (end - e2e) to its end,
// drawn at the height of its e2e duration, coloured by its slowest stage (or, where the
// stages ran alongside, its slowest phase: RequestSpans.colourBy). Columnar and sorted by end
// time so that a view window is a binary search away. DOM-free.
import type { RankedPhase, RequestSpans } from '../../../server/protocol';

/** What one colour stands for: a stage, or a phase of a stage. */
export interface SpanColour {
  readonly stageKey: string;
  /** null: the colour is the slowest stage's (colourBy 'slowestStage'). */
  readonly phase: RankedPhase | null;
}

/** A stage's phases in the order they run. */
const PHASE_ORDER: readonly (RankedPhase | null)[] = [
  null,
  'queuedMs',
  'inputWaitMs',
  'readyQueuedMs',
  'prefillMs',
  'prefillDecodeMs',
  'decodeMs',
];

export interface SpanIndex {
  readonly count: number;
  /** Sorted by end time. */
  readonly end: Float64Array;
  readonly start: Float64Array;
  /** e2e ms, NaN when not printed. */
  readonly e2e: Float64Array;
  /** Index into colours of the request's slowest stage or phase, -1 when unknown. */
  readonly colour: Int16Array;
  readonly cold: Uint8Array;
  /** Position in the original RequestSpans arrays. */
  readonly source: Int32Array;
  readonly colours: readonly SpanColour[];
  readonly minStart: number;
  readonly maxEnd: number;
  /** Longest e2e: a request that started before the view's end ends at most this much later. */
  readonly maxDuration: number;
  readonly withoutE2e: number;
  readonly coldCount: number;
}

export interface TimeView {
  readonly t0: number;
  readonly t1: number;
}

/** The per-request columns of an answer (the scope it is of is the view's to say). */
export type SpanColumns = Omit<RequestSpans, 'scope' | 'sessionRequests'>;

export function buildSpanIndex(spans: SpanColumns): SpanIndex {
  const n = spans.endMs.length;
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => (spans.endMs[a] as number) - (spans.endMs[b] as number),
  );
  const byPhase = spans.colourBy === 'slowestPhase';
  const colourOf = (src: number): SpanColour | null => {
    if (!byPhase) {
      const stageKey = spans.slowestStage[src];
      return stageKey === null || stageKey === undefined ? null : { stageKey, phase: null };
    }
    const p = spans.slowestPhase[src];
    return p === null || p === undefined ? null : { stageKey: p.stageKey, phase: p.phase };
  };
  const keyOf = (c: SpanColour): string => `${c.stageKey} ${c.phase ?? ''}`;
  const distinct = new Map<string, SpanColour>();
  for (let src = 0; src < n; src++) {
    const c = colourOf(src);
    if (c !== null && !distinct.has(keyOf(c))) distinct.set(keyOf(c), c);
  }
  const colours = [...distinct.values()].sort(
    (a, b) =>
      a.stageKey.localeCompare(b.stageKey, 'en', { numeric: true }) ||
      PHASE_ORDER.indexOf(a.phase) - PHASE_ORDER.indexOf(b.phase),
  );
  const colourPos = new Map(colours.map((c, i) => [keyOf(c), i]));
  const end = new Float64Array(n);
  const start = new Float64Array(n);
  const e2e = new Float64Array(n);
  const colour = new Int16Array(n);
  const cold = new Uint8Array(n);
  const source = new Int32Array(n);
  let minStart = Number.POSITIVE_INFINITY;
  let maxEnd = Number.NEGATIVE_INFINITY;
  let maxDuration = 0;
  let withoutE2e = 0;
  let coldCount = 0;
  order.forEach((src, i) => {
    const e = spans.endMs[src] as number;
    const d = spans.e2eMs[src];
    const dur = d === null || d === undefined || !Number.isFinite(d) || d < 0 ? Number.NaN : d;
    end[i] = e;
    e2e[i] = dur;
    start[i] = Number.isNaN(dur) ? e : e - dur;
    const c = colourOf(src);
    colour[i] = c === null ? -1 : (colourPos.get(keyOf(c)) ?? -1);
    cold[i] = spans.cold[src] === true ? 1 : 0;
    source[i] = src;
    minStart = Math.min(minStart, start[i] as number);
    maxEnd = Math.max(maxEnd, e);
    if (Number.isNaN(dur)) withoutE2e += 1;
    else maxDuration = Math.max(maxDuration, dur);
    coldCount += cold[i] as number;
  });
  if (n === 0) {
    minStart = 0;
    maxEnd = 1000;
  }
  return {
    count: n,
    end,
    start,
    e2e,
    colour,
    cold,
    source,
    colours,
    minStart,
    maxEnd,
    maxDuration,
    withoutE2e,
    coldCount,
  };
}

/**
 * The whole session with a little air on both sides (a second at least). `extent`: a span the
 * Over Time chart above draws on the same axis (its rolling points): the view covers both, so
 * the two charts can share it.
 */
export function fullView(index: SpanIndex, extent: TimeView | null = null): TimeView {
  const lo = index.count === 0 ? extent?.t0 : Math.min(index.minStart, extent?.t0 ?? index.minStart);
  const hi = index.count === 0 ? extent?.t1 : Math.max(index.maxEnd, extent?.t1 ?? index.maxEnd);
  const from = lo ?? index.minStart;
  const span = Math.max(1000, (hi ?? index.maxEnd) - from);
  const pad = span * 0.02;
  return { t0: from - pad, t1: from + span + pad };
}

const MIN_SPAN_MS = 50;

export function clampView(view: TimeView, index: SpanIndex, extent: TimeView | null = null): TimeView {
  const full = fullView(index, extent);
  const fullSpan = full.t1 - full.t0;
  const span = Math.min(fullSpan, Math.max(MIN_SPAN_MS, view.t1 - view.t0));
  let t0 = view.t0;
  if (t0 < full.t0) t0 = full.t0;
  if (t0 + span > full.t1) t0 = full.t1 - span;
  return { t0, t1: t0 + span };
}

/**
 * A zoom kept for new data (a live update, a restored panel): clamped to the data, or dropped
 * (null: the whole view) when it no longer holds any of it, rather than pushed to a side of
 * the data as an empty view.
 */
export function keptView(view: TimeView | null, index: SpanIndex, extent: TimeView | null = null): TimeView | null {
  if (view === null) return null;
  const lo = index.count === 0 ? (extent?.t0 ?? null) : Math.min(index.minStart, extent?.t0 ?? index.minStart);
  const hi = index.count === 0 ? (extent?.t1 ?? null) : Math.max(index.maxEnd, extent?.t1 ?? index.maxEnd);
  if (lo === null || hi === null || view.t1 < lo || view.t0 > hi) return null;
  return clampView(view, index, extent);
}

/** Zoom by `factor` (< 1 zooms in) keeping the time under `anchorT` in place. */
export function zoomView(
  view: TimeView,
  factor: number,
  anchorT: number,
  index: SpanIndex,
  extent: TimeView | null = null,
): TimeView {
  const t0 = anchorT - (anchorT - view.t0) * factor;
  const t1 = anchorT + (view.t1 - anchorT) * factor;
  return clampView({ t0, t1 }, index, extent);
}

export function panView(view: TimeView, dt: number, index: SpanIndex, extent: TimeView | null = null): TimeView {
  return clampView({ t0: view.t0 + dt, t1: view.t1 + dt }, index, extent);
}

/** First sorted position whose end >= t. */
export function lowerBound(values: Float64Array, t: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Sorted positions [from, to) that may intersect the view (callers still check start <= t1). */
export function visibleSlice(index: SpanIndex, view: TimeView): { from: number; to: number } {
  const from = lowerBound(index.end, view.t0);
  const to = lowerBound(index.end, view.t1 + index.maxDuration + 1);
  return { from, to };
}

export function isVisible(index: SpanIndex, i: number, view: TimeView): boolean {
  return (index.start[i] as number) <= view.t1 && (index.end[i] as number) >= view.t0;
}

/** Largest e2e among the visible requests (for the y axis), at least 1 ms. */
export function visibleMaxE2e(index: SpanIndex, view: TimeView): number {
  const { from, to } = visibleSlice(index, view);
  let max = 0;
  for (let i = from; i < to; i++) {
    const d = index.e2e[i] as number;
    if (!Number.isNaN(d) && isVisible(index, i, view) && d > max) max = d;
  }
  return Math.max(1, max);
}

export interface PlotBox {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

export function xOf(view: TimeView, box: PlotBox, t: number): number {
  return box.left + ((t - view.t0) / (view.t1 - view.t0)) * box.width;
}

export function timeAt(view: TimeView, box: PlotBox, px: number): number {
  return view.t0 + ((px - box.left) / box.width) * (view.t1 - view.t0);
}

/** y of an e2e value (requests without one are not drawn; NaN reads as the baseline). */
export function yOf(box: PlotBox, yMax: number, e2e: number): number {
  const v = Number.isNaN(e2e) ? 0 : Math.min(e2e, yMax);
  return box.top + box.height - (v / yMax) * box.height;
}

/** The request whose end point is nearest to (px, py), within `radius` pixels. */
export function spanAt(
  index: SpanIndex,
  view: TimeView,
  box: PlotBox,
  yMax: number,
  px: number,
  py: number,
  radius = 6,
): number | null {
  const tLo = timeAt(view, box, px - radius);
  const tHi = timeAt(view, box, px + radius);
  let best: number | null = null;
  let bestD = radius * radius;
  for (let i = lowerBound(index.end, tLo); i < index.count && (index.end[i] as number) <= tHi; i++) {
    if (Number.isNaN(index.e2e[i])) continue;
    const dx = xOf(view, box, index.end[i] as number) - px;
    const dy = yOf(box, yMax, index.e2e[i] as number) - py;
    const d = dx * dx + dy * dy;
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}
