// Where each request sits on the trace's wall clock. The log gives per-request durations
// and, per record, a timestamp with one-second resolution printed when the request
// finished; it gives no arrival time. So the arrival is placed by a rule, and the rule is
// written into the trace (metadata and each request's slices): a trace position is never
// more precise than that rule.
import { timelineOf } from '../analysis/timeline';
import { endToEndOf } from '../analysis/endToEnd';
import type { RequestList } from '../analysis/requestStore';
import type { AnalyzedRequest } from '../analysis/types';
import type { Cell } from '../values';

/**
 * The requests a trace is made of: an array, or the analysis' packed store, whose
 * per-request accessors let the placement pass read a timestamp and the E2E time without
 * materializing the request.
 */
export interface TraceRequests extends RequestList {
  timestampAt?(index: number): string | null;
  e2eCellAt?(index: number, name: string): Cell | undefined;
}

function timestampOf(requests: TraceRequests, i: number): string | null {
  return requests.timestampAt !== undefined ? requests.timestampAt(i) : (requests.at(i)?.timestamp ?? null);
}

/** How long request i lasted: E2E when printed (read alone when the list allows), else its drawn length. */
function lengthOf(requests: TraceRequests, i: number): number {
  if (requests.e2eCellAt !== undefined) {
    const cell = requests.e2eCellAt(i, 'e2e_total_ms');
    if (cell !== undefined && cell.state === 'measured' && Number.isFinite(cell.value) && cell.value >= 0)
      return cell.value;
  }
  const request = requests.at(i);
  return request === undefined ? 0 : requestLengthMs(request);
}

export type PlacementRule = 'log-timestamp' | 'capture-time' | 'sequential';

export const PLACEMENT_TEXT: Readonly<Record<PlacementRule, string>> = {
  'log-timestamp':
    "arrival = the log timestamp of the request's first stats record (printed when the request finished; 1 s resolution, no year in the log) minus e2e_total_ms ([OmniTiming] total= without the E2E table; the request's drawn length when neither is printed). Positions are good to about a second; durations are as logged.",
  'capture-time':
    "arrival = when Stage Lens received the bytes that completed the request (live capture) minus e2e_total_ms ([OmniTiming] total= without the E2E table; the request's drawn length when neither is printed). Positions are good to a few hundred ms; durations are as logged.",
  sequential:
    'no clock for this request: it is placed where the previous request (in log order) ends. The spacing between requests is not measured; durations are as logged.',
};

export interface Placement {
  /** Arrival of request i, µs from the trace origin (>= 0). */
  readonly arrivalUs: Float64Array;
  readonly rule: readonly PlacementRule[];
  /** The clock the positions come from, and what µs 0 is on it. */
  readonly clock: PlacementRule;
  readonly origin: string;
}

const LOG_TIME = /^(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/;
// Log timestamps carry no year; a leap year keeps 02-29 valid. Only differences are used.
const LOG_YEAR = 2000;

function logTimeMs(timestamp: string | null): number | null {
  const m = timestamp === null ? null : LOG_TIME.exec(timestamp);
  if (m === null) return null;
  return Date.UTC(LOG_YEAR, Number(m[1]) - 1, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]));
}

/** How long the request lasted: its end to end when printed (table, [OmniTiming] total=), else how far its drawn segments reach. */
export function requestLengthMs(request: AnalyzedRequest): number {
  const e2e = endToEndOf(request);
  if (e2e !== null) return e2e.ms;
  // `nan`/`inf` cells are numbers too: they place nothing.
  let end = 0;
  for (const s of timelineOf(request)) if (Number.isFinite(s.endMs)) end = Math.max(end, s.endMs);
  return end;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

function formatLogTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}

/**
 * Places every request. With log timestamps (any request has one) those are the clock and
 * requests without one follow their predecessor; otherwise capture times when given
 * (live sessions); otherwise requests are laid end to end in log order.
 */
export function placeRequests(requests: TraceRequests, captureTimesMs?: readonly number[]): Placement {
  const n = requests.length;
  const lengths = new Float64Array(n);
  const clockMs: (number | null)[] = new Array<number | null>(n);
  let hasLogTime = false;
  for (let i = 0; i < n; i++) {
    const t = logTimeMs(timestampOf(requests, i));
    clockMs[i] = t;
    if (t !== null) hasLogTime = true;
  }
  const clock: PlacementRule = hasLogTime
    ? 'log-timestamp'
    : captureTimesMs !== undefined && captureTimesMs.length >= n && n > 0
      ? 'capture-time'
      : 'sequential';
  if (clock === 'capture-time') for (let i = 0; i < n; i++) clockMs[i] = captureTimesMs?.[i] ?? null;
  // Work relative to the first clock reading: epoch ms (~1.7e12) leave float64 only about
  // 0.2 µs of resolution, not enough to keep logged 3-decimal ms durations exact.
  const base = clockMs.find((t) => t !== null) ?? 0;
  for (let i = 0; i < n; i++) {
    const t = clockMs[i] ?? null;
    if (t !== null) clockMs[i] = t - base;
  }

  const arrivalMs = new Float64Array(n);
  const rule: PlacementRule[] = new Array<PlacementRule>(n);
  // Requests before the first clocked one end where it starts.
  let firstClocked: number | null = null;
  for (let i = 0; i < n && firstClocked === null; i++) {
    const t = clockMs[i] ?? null;
    if (t !== null) firstClocked = t - lengthOf(requests, i);
  }
  let cursor: number | null = null;
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const length = lengthOf(requests, i);
    lengths[i] = length;
    const t = clockMs[i] ?? null;
    let arrival: number;
    if (clock !== 'sequential' && t !== null) {
      arrival = t - length;
      rule[i] = clock;
    } else {
      arrival = cursor ?? firstClocked ?? 0;
      rule[i] = 'sequential';
    }
    arrivalMs[i] = arrival;
    cursor = arrival + length;
    if (arrival < min) min = arrival;
  }
  const originMs = n === 0 ? 0 : min;
  const arrivalUs = new Float64Array(n);
  for (let i = 0; i < n; i++) arrivalUs[i] = (arrivalMs[i] - originMs) * 1000;
  const origin =
    clock === 'log-timestamp'
      ? `${formatLogTime(base + originMs)} log time (the log has no year)`
      : clock === 'capture-time'
        ? `${new Date(base + originMs).toISOString()} capture time`
        : "the first request's arrival (no clock)";
  return { arrivalUs, rule, clock, origin };
}
