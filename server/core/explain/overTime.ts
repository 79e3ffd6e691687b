// Percentiles over time, on one time axis (the log clock): for each step, p50/p90/p99 of
// each metric (e2e, each stage's time to first output and TTFT) over the requests that
// finished in the rolling window ending there, the request rate, and the engines' gauges
// (running, waiting, KV-cache usage) of the same boot and window resampled to the same steps. The window is chosen
// from the data's rate (about WINDOW_REQUESTS requests per window) unless given. Steps lie
// within the log's span (the last ends at the last finish), and a step's rate is over the
// part of it the log covers: a 30 s step over an 8 s log is no 30 s of observation.
import type { ExplainIndex } from './explainIndex';
import { gaugeInScope, scopeCutsGauges } from './gaugeScope';
import { LOG_RESOLUTION_MS } from './logClock';
import { rowsInScope } from './scope';
import { percentileInPlace } from './select';
import type { GaugeSamples, GaugeSeries, OverTimeSeries, RollingSeries, TargetName, ExplainScope } from './types';

/** Requests a rolling window should hold at the data's mean rate. */
export const WINDOW_REQUESTS = 50;
/** Most steps a series has. */
export const MAX_STEPS = 500;
/**
 * Shortest part of a step that gives a rate. Log times are whole printed seconds, so over
 * less than two of them the count is mostly the clock's rounding, not a rate.
 */
export const MIN_RATE_SPAN_MS = 2 * LOG_RESOLUTION_MS;
/** Steps per window: windows overlap, so the lines are smooth but still local. */
const STEPS_PER_WINDOW = 4;
const NICE_MS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400].map(
  (s) => s * 1000,
);

export interface OverTimeQuery {
  readonly scope: ExplainScope;
  /** Default: e2e and every stage's firstOutput and ttft that some request measured. */
  readonly metrics?: readonly TargetName[];
  readonly stepMs?: number;
  readonly windowMs?: number;
}

function metrics(index: ExplainIndex, query: OverTimeQuery): readonly TargetName[] {
  return query.metrics ?? index.targets();
}

function niceAtLeast(ms: number): number {
  for (const n of NICE_MS) if (n >= ms) return n;
  return Math.ceil(ms / 86_400_000) * 86_400_000;
}

/** Window and step from the data's rate: ~WINDOW_REQUESTS requests a window, at most MAX_STEPS steps. */
export function chooseGrid(count: number, spanMs: number): { windowMs: number; stepMs: number } {
  const span = Math.max(spanMs, LOG_RESOLUTION_MS);
  const perMs = count / span;
  const window = niceAtLeast(Math.max(LOG_RESOLUTION_MS * STEPS_PER_WINDOW, WINDOW_REQUESTS / Math.max(perMs, 1e-12)));
  const step = niceAtLeast(Math.max(LOG_RESOLUTION_MS, window / STEPS_PER_WINDOW, span / MAX_STEPS));
  return { windowMs: Math.max(window, step), stepMs: step };
}

/** `gridStart`: where the first step starts (step s is (gridStart + s·step, times[s]]). */
function resample(g: GaugeSamples, times: readonly number[], gridStart: number, stepMs: number): GaugeSeries {
  const out = { running: [] as (number | null)[], waiting: [] as (number | null)[], kv: [] as (number | null)[] };
  let j = 0;
  const n = g.times.length;
  for (let s = 0; s < times.length; s++) {
    const t = times[s];
    // Last sample in the step.
    while (j < n && g.times[j] <= t) j++;
    const k = j - 1;
    const has = k >= 0 && g.times[k] > gridStart + s * stepMs;
    const pick = (xs: ArrayLike<number>): number | null => {
      if (!has) return null;
      const v = xs[k];
      return Number.isFinite(v) ? v : null;
    };
    out.running.push(pick(g.running));
    out.waiting.push(pick(g.waiting));
    out.kv.push(pick(g.kvCacheUsagePerc));
  }
  return {
    stage: g.stage,
    replica: g.replica,
    source: g.source,
    engine: g.engine,
    ...(g.server === undefined ? {} : { server: g.server }),
    mapping: g.mapping,
    running: out.running,
    waiting: out.waiting,
    kvCacheUsagePerc: out.kv,
  };
}

/** What a previous answer of the same query keeps, so that the next one recomputes only the steps new requests reach. */
interface Kept {
  readonly key: string;
  /** The index it was computed from. */
  readonly index: ExplainIndex;
  /** Requests of the index when it was computed: later ones are the new ones. */
  readonly indexLength: number;
  readonly rows: number;
  /** The rows in scope with a time, ordered by (finish, row), and their finishes: [0, rows) of each (room after for more). */
  readonly timedRows: Int32Array;
  readonly finishes: Float64Array;
  readonly origin: number;
  readonly stepMs: number;
  readonly windowMs: number;
  readonly times: number[];
  readonly requestRate: (number | null)[];
  readonly series: RollingSeries[];
}

/**
 * Keeps the last answer per query. Requests arrive in log order, so a new request's finish
 * time is at or after nearly all earlier ones: steps whose window ends before the earliest
 * new finish keep their values, and only the last few steps are recomputed. The grid (step,
 * window) chosen from the data's rate is kept while the data stays within 2x of it.
 */
export class OverTimeCache {
  private readonly kept = new Map<string, Kept>();

  /** The previous answer of a query over this index (not one over an index since replaced). */
  of(key: string, index: ExplainIndex): Kept | undefined {
    const kept = this.kept.get(key);
    return kept !== undefined && kept.index === index && kept.indexLength <= index.length ? kept : undefined;
  }

  set(value: Kept): void {
    if (this.kept.size >= 16) this.kept.clear();
    this.kept.set(value.key, value);
  }
}

/** How many of the first n sorted values are <= t. */
function countAtMost(sorted: Float64Array, n: number, t: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Timed {
  readonly rows: Int32Array;
  readonly finishes: Float64Array;
  readonly count: number;
  /** The earliest finish among rows added since the previous answer (Infinity: none). */
  readonly earliestNew: number;
}

/**
 * The rows in scope with a time, ordered by (finish, row) (the log order nearly is; several
 * streams interleave): the previous answer's order extended by the rows added since, which
 * nearly always finish after it (appended in place), else merged in.
 */
function timedByFinish(index: ExplainIndex, scope: ExplainScope, previous: Kept | undefined): Timed {
  const first = previous?.indexLength ?? 0;
  const fresh: number[] = [];
  for (const i of rowsInScope(index, scope, first)) if (Number.isFinite(index.finishMs(i))) fresh.push(i);
  let sorted = true;
  for (let k = 1; k < fresh.length; k++) if (index.finishMs(fresh[k]) < index.finishMs(fresh[k - 1])) sorted = false;
  if (!sorted) fresh.sort((a, b) => index.finishMs(a) - index.finishMs(b) || a - b);
  let earliestNew = Infinity;
  for (const i of fresh) earliestNew = Math.min(earliestNew, index.finishMs(i));
  const kept = previous?.rows ?? 0;
  const count = kept + fresh.length;
  const last = kept === 0 ? -Infinity : (previous as Kept).finishes[kept - 1];
  if (previous !== undefined && (fresh.length === 0 || index.finishMs(fresh[0]) >= last)) {
    // Rows are added in index order: a new row with the same finish as the last comes after it.
    let { timedRows: rows, finishes } = previous;
    if (count > rows.length) {
      const room = Math.max(count, Math.ceil(rows.length * 1.5), 1024);
      rows = new Int32Array(room);
      rows.set(previous.timedRows.subarray(0, kept));
      finishes = new Float64Array(room);
      finishes.set(previous.finishes.subarray(0, kept));
    }
    fresh.forEach((i, k) => {
      rows[kept + k] = i;
      finishes[kept + k] = index.finishMs(i);
    });
    return { rows, finishes, count, earliestNew };
  }
  const rows = new Int32Array(Math.max(count, 1024));
  const finishes = new Float64Array(rows.length);
  let a = 0;
  let b = 0;
  let k = 0;
  const before = previous?.timedRows;
  const beforeFinishes = previous?.finishes;
  while (a < kept || b < fresh.length) {
    const takeOld = b >= fresh.length || (a < kept && (beforeFinishes as Float64Array)[a] <= index.finishMs(fresh[b]));
    const row = takeOld ? (before as Int32Array)[a++] : fresh[b++];
    rows[k] = row;
    finishes[k++] = index.finishMs(row);
  }
  return { rows, finishes, count, earliestNew };
}

export function overTime(
  index: ExplainIndex,
  query: OverTimeQuery,
  allGauges: readonly GaugeSamples[] = [],
  cache?: OverTimeCache,
): OverTimeSeries {
  // The engines' load of the boot and window the requests are of (gaugeScope.ts).
  // An engine that printed nothing in them is not of them (a boot of another pipeline has other engines).
  const gauges = scopeCutsGauges(query.scope)
    ? allGauges.map((g) => gaugeInScope(g, query.scope)).filter((g) => g.times.length > 0)
    : allGauges;
  const key = JSON.stringify([query.scope, metrics(index, query), query.stepMs, query.windowMs]);
  const previous = cache?.of(key, index);
  const timed = timedByFinish(index, query.scope, previous);
  const timedCount = timed.count;
  const finishes = timed.finishes.subarray(0, timedCount);
  const timedRows = timed.rows.subarray(0, timedCount);
  const metricNames = metrics(index, query);
  // The axis spans the requests' finish times, or the gauges' samples when there is no request (a scrape-only session).
  let first = timedCount === 0 ? Infinity : finishes[0];
  let last = timedCount === 0 ? -Infinity : finishes[timedCount - 1];
  if (timedCount === 0) {
    for (const g of gauges) {
      for (let k = 0; k < g.times.length; k++) {
        const t = g.times[k];
        if (t < first) first = t;
        if (t > last) last = t;
      }
    }
  }
  if (!Number.isFinite(first))
    return {
      times: [],
      stepMs: 0,
      windowMs: 0,
      span: null,
      requestRate: [],
      series: metricNames.map((m) => ({ metric: m, count: [], p50: [], p90: [], p99: [] })),
      gauges: [],
    };

  const auto =
    timedCount === 0
      ? {
          windowMs: niceAtLeast(Math.max(LOG_RESOLUTION_MS, (last - first) / MAX_STEPS)),
          stepMs: niceAtLeast(Math.max(LOG_RESOLUTION_MS, (last - first) / MAX_STEPS)),
        }
      : chooseGrid(timedCount, last - first);
  let stepMs =
    query.stepMs !== undefined && query.stepMs > 0
      ? Math.max(query.stepMs, (last - first) / (MAX_STEPS * 4))
      : auto.stepMs;
  let windowMs = query.windowMs !== undefined && query.windowMs > 0 ? query.windowMs : Math.max(auto.windowMs, stepMs);
  // Keep the previous grid while the data's rate and span stay within 2x of what chose it.
  const stable =
    previous !== undefined &&
    previous.rows <= timedCount &&
    stepMs <= previous.stepMs * 2 &&
    stepMs * 2 >= previous.stepMs &&
    windowMs <= previous.windowMs * 2 &&
    windowMs * 2 >= previous.windowMs &&
    (last - first) / previous.stepMs <= MAX_STEPS * 2;
  if (stable) {
    stepMs = previous.stepMs;
    windowMs = previous.windowMs;
  }
  const origin = stable ? previous.origin : Math.floor(first / stepMs) * stepMs;
  const gridStart = Math.floor(first / stepMs) * stepMs;
  const times: number[] = [];
  for (let t = gridStart + stepMs; t < last + stepMs; t += stepMs) times.push(t);
  // The last step ends where the log does: a point after the last finish would be drawn where nothing was seen.
  times[times.length - 1] = Math.min(times[times.length - 1] as number, last);
  // Steps before this index keep the previous answer: no new request is in their window.
  let reuse = 0;
  if (stable && previous.origin === origin) {
    const earliestNew = timed.earliestNew;
    const sameStart = times[0] === previous.times[0];
    if (sameStart)
      while (reuse < previous.times.length - 1 && reuse < times.length && previous.times[reuse] < earliestNew) reuse++;
  }

  const requestRate: (number | null)[] = reuse > 0 ? previous!.requestRate.slice(0, reuse) : [];
  {
    // Where the walk over the finishes stands at the first recomputed step.
    let a = countAtMost(finishes, timedCount, gridStart + reuse * stepMs);
    let b = a;
    for (let s = reuse; s < times.length; s++) {
      const t = times[s] as number;
      const start = gridStart + s * stepMs;
      while (b < finishes.length && finishes[b] <= t) b++;
      while (a < b && finishes[a] <= start) a++;
      // The log covers its first to its last printed second (a finish is that second + 0.5 s).
      const covered =
        Math.min(start + stepMs, last + LOG_RESOLUTION_MS / 2) - Math.max(start, first - LOG_RESOLUTION_MS / 2);
      // No request with a time: the rate is not measured (a scrape-only session), never 0/s.
      requestRate.push(timedCount === 0 || covered < MIN_RATE_SPAN_MS ? null : (b - a) / (covered / 1000));
    }
  }

  const series: RollingSeries[] = metricNames.map((metric, m) => {
    const column = index.target(metric);
    const kept = reuse > 0 ? previous!.series[m] : undefined;
    const count: number[] = kept === undefined ? [] : kept.count.slice(0, reuse);
    const p50: (number | null)[] = kept === undefined ? [] : kept.p50.slice(0, reuse);
    const p90: (number | null)[] = kept === undefined ? [] : kept.p90.slice(0, reuse);
    const p99: (number | null)[] = kept === undefined ? [] : kept.p99.slice(0, reuse);
    const first = kept === undefined ? 0 : reuse;
    // Only the rows that the recomputed steps' windows can hold are read.
    const from = countAtMost(finishes, timedCount, (times[first] ?? Infinity) - windowMs);
    const scratch = new Float64Array(timedCount - from);
    const valuesOf = new Float64Array(timedCount - from);
    if (column !== undefined) column.read(timedRows.subarray(from), valuesOf);
    else valuesOf.fill(Number.NaN);
    let a = from;
    let b = from;
    for (let s = first; s < times.length; s++) {
      const t = times[s];
      while (b < finishes.length && finishes[b] <= t) b++;
      while (a < b && finishes[a] <= t - windowMs) a++;
      let n = 0;
      for (let k = a; k < b; k++) {
        const v = valuesOf[k - from];
        if (!Number.isNaN(v)) scratch[n++] = v;
      }
      count.push(n);
      if (n === 0) {
        p50.push(null);
        p90.push(null);
        p99.push(null);
      } else {
        p99.push(percentileInPlace(scratch, n, 99));
        p90.push(percentileInPlace(scratch, n, 90));
        p50.push(percentileInPlace(scratch, n, 50));
      }
    }
    return { metric, count, p50, p90, p99 };
  });

  cache?.set({
    key,
    index,
    indexLength: index.length,
    rows: timedCount,
    timedRows: timed.rows,
    finishes: timed.finishes,
    origin,
    stepMs,
    windowMs,
    times,
    requestRate,
    series,
  });
  return {
    times,
    stepMs,
    windowMs,
    span: { fromMs: first, toMs: last },
    requestRate,
    series,
    gauges: gauges.map((g) => resample(g, times, gridStart, stepMs)),
  };
}
