// --since / --until of analyze and explain: read from the command line, then placed on the log's
// clock by its first timed line (StreamAnalysis.windowOn, core/explain/timeWindow.ts).
import type { WindowCounts } from '../core/analysis/streamAnalysis';
import type { ExplainIndex } from '../core/explain/explainIndex';
import { groupedNumber } from '../core/numberText';
import type { WindowJson } from '../core/report/jsonReport';
import { rowsInScope } from '../core/explain/scope';
import {
  logTimeText,
  parseWindowTime,
  WINDOW_TIME_GRAMMAR,
  windowText,
  type ClockWindow,
  type WindowSpec,
} from '../core/explain/timeWindow';

/** The window asked for; null when neither end was given; a message when an end is not a time. */
export function windowOption(since: string | undefined, until: string | undefined): WindowSpec | null | string {
  if (since === undefined && until === undefined) return null;
  const read = (option: string, text: string | undefined): WindowSpec['since'] | string => {
    if (text === undefined) return null;
    return parseWindowTime(text) ?? `${option} '${text}' is not a time: ${WINDOW_TIME_GRAMMAR}`;
  };
  const from = read('--since', since);
  if (typeof from === 'string') return from;
  const to = read('--until', until);
  if (typeof to === 'string') return to;
  return { since: from, until: to };
}

/** Says why no request is in the window: the window, and when the log's requests finished. */
export function emptyWindowText(window: ClockWindow, firstMs: number, lastMs: number): string {
  return `no request ${windowText(window)}: the log's requests finished ${logTimeText(firstMs)} – ${logTimeText(lastMs)}`;
}

/** Says that a log whose requests carry no time cannot be windowed. */
export const NO_TIMES_TEXT =
  "the log's requests carry no time (their lines have no log prefix), so --since/--until cannot place them";

/** Says that a log without a single time gives a window nothing to be placed by. */
export const NO_LOG_TIME_TEXT =
  "the log's lines carry no time (none has a log prefix), so --since/--until cannot place the window";

/**
 * The finite ends of `window` (the --since/--until window on the log clock, placed as analyze
 * places it: StreamAnalysis.windowOn; null when the log printed no time) for explain's index; a
 * message when the log or its requests have no times, or no request finished in the window.
 */
export function placeWindow(
  index: ExplainIndex,
  window: ClockWindow | null,
): { fromMs?: number; toMs?: number } | string {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < index.length; i++) {
    const t = index.finishMs(i);
    if (t < first) first = t;
    if (t > last) last = t;
  }
  if (index.length > 0 && !Number.isFinite(first)) return NO_TIMES_TEXT;
  if (window === null) return NO_LOG_TIME_TEXT;
  const scope = {
    ...(Number.isFinite(window.fromMs) ? { fromMs: window.fromMs } : {}),
    ...(Number.isFinite(window.toMs) ? { toMs: window.toMs } : {}),
  };
  // A log without a request leaves none out: its report is the whole log's, over the window.
  if (index.length === 0) return scope;
  return rowsInScope(index, scope).length === 0 ? emptyWindowText(window, first, last) : scope;
}

/**
 * With a window, why the run read nothing: no request finished in it, the log's requests have no
 * times, or (`textLog`: the input was read as a log) the log has none; else null (a log with a time
 * and no request reads as it does without the window).
 */
export function emptyWindowProblem(counts: WindowCounts | null, requestCount: number, textLog: boolean): string | null {
  if (counts === null || requestCount > 0) return null;
  if (counts.outside > 0 && counts.window !== null)
    return emptyWindowText(counts.window, counts.firstMs, counts.lastMs);
  if (counts.untimed > 0) return NO_TIMES_TEXT;
  return counts.window === null && textLog ? NO_LOG_TIME_TEXT : null;
}

function leftOutText(counts: WindowCounts): string {
  const parts: string[] = [];
  if (counts.outside > 0) parts.push(`${groupedNumber(counts.outside, 0, 0)} outside it`);
  if (counts.untimed > 0) parts.push(`${groupedNumber(counts.untimed, 0, 0)} without a log time`);
  return parts.length === 0 ? 'none left out' : `${parts.join(' and ')} left out`;
}

/** The window and what it left out, in words (null: no window, or nothing timed to place it by). */
export function windowNoteOf(counts: WindowCounts | null): string | null {
  if (counts === null || counts.window === null) return null;
  return `Window: the requests that ${windowText(counts.window)}; ${leftOutText(counts)}.`;
}

/** The JSON's `window` member (null: no window). */
export function windowJsonOf(counts: WindowCounts | null): WindowJson | null {
  if (counts === null) return null;
  const w = counts.window;
  const end = (ms: number | undefined): string | null =>
    ms === undefined || !Number.isFinite(ms) ? null : logTimeText(ms);
  return {
    from: end(w?.fromMs),
    to: end(w?.toMs),
    requestsOutside: counts.outside,
    requestsWithoutTime: counts.untimed,
    placed: w !== null,
  };
}

/** A placed window (placeWindow) on the log clock: an end not given is open. */
export function clockWindowOf(placed: { readonly fromMs?: number; readonly toMs?: number }): ClockWindow {
  return { fromMs: placed.fromMs ?? Number.NEGATIVE_INFINITY, toMs: placed.toMs ?? Number.POSITIVE_INFINITY };
}
