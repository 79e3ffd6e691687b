// A time window given the way vLLM prints its log times (`MM-DD HH:MM[:SS]`, or `HH:MM[:SS]`
// alone, on the log's first day), placed on the log clock's axis (logClock.ts: ms of the
// printed fields read as UTC). A request is in the window when its finish (the printed second
// of its stats) is: `--since` from the start of its second, `--until` to the end of its second.

import { LOG_RESOLUTION_MS } from './logClock';

/** One end of a window as given: a time of day, with the month and date when given. */
export interface WindowTime {
  readonly month: number | null;
  readonly date: number | null;
  /** ms since midnight. */
  readonly timeOfDayMs: number;
}

/** The two ends as given (null: open). */
export interface WindowSpec {
  readonly since: WindowTime | null;
  readonly until: WindowTime | null;
}

/** The window on the log clock: requests that finished in [fromMs, toMs]. */
export interface ClockWindow {
  readonly fromMs: number;
  readonly toMs: number;
}

export const WINDOW_TIME_GRAMMAR =
  "a log time as vLLM prints it, 'MM-DD HH:MM[:SS]', or 'HH:MM[:SS]' on the log's first day";

const WINDOW_TIME = /^(?:(\d\d)-(\d\d)[ T])?(\d\d):(\d\d)(?::(\d\d))?$/;
const DAY_MS = 24 * 3600 * 1000;
const HALF_YEAR_MS = 183 * DAY_MS;

/** The time `text` gives, or null when it is not one (a month 13, an hour 24, another format). */
export function parseWindowTime(text: string): WindowTime | null {
  const m = WINDOW_TIME.exec(text.trim());
  if (m === null) return null;
  const [month, date] = m[1] === undefined ? [null, null] : [Number(m[1]), Number(m[2])];
  const [h, min, s] = [Number(m[3]), Number(m[4]), m[5] === undefined ? 0 : Number(m[5])];
  if (month !== null && date !== null) {
    if (month < 1 || month > 12 || date < 1 || date > 31) return null;
  }
  if (h > 23 || min > 59 || s > 59) return null;
  return { month, date, timeOfDayMs: ((h * 60 + min) * 60 + s) * 1000 };
}

/**
 * The window on the clock of a log whose first timed line is at `firstMs`: a time alone is on that
 * day (an `--until` earlier in the day than a dated-less `--since` is on the next day: a window
 * over midnight); a date takes the log's year, or the next one when it would fall more than half
 * a year before the log starts (a log that runs over New Year).
 */
export function windowOnClock(spec: WindowSpec, firstMs: number): ClockWindow {
  const first = new Date(firstMs);
  const year = first.getUTCFullYear();
  const firstDay = Date.UTC(year, first.getUTCMonth(), first.getUTCDate());
  const place = (t: WindowTime): number => {
    if (t.month === null || t.date === null) return firstDay + t.timeOfDayMs;
    let at = Date.UTC(year, t.month - 1, t.date) + t.timeOfDayMs;
    if (at < firstMs - HALF_YEAR_MS) at = Date.UTC(year + 1, t.month - 1, t.date) + t.timeOfDayMs;
    return at;
  };
  const fromMs = spec.since === null ? Number.NEGATIVE_INFINITY : place(spec.since);
  let toMs = spec.until === null ? Number.POSITIVE_INFINITY : place(spec.until) + LOG_RESOLUTION_MS - 1;
  if (
    spec.until !== null &&
    spec.until.month === null &&
    spec.since !== null &&
    spec.since.month === null &&
    toMs < fromMs
  )
    toMs += DAY_MS;
  return { fromMs, toMs };
}

/** Whether a finish at `ms` on the log clock is in the window (an unknown time is in none). */
export function inClockWindow(window: ClockWindow, ms: number | null): boolean {
  return ms !== null && ms >= window.fromMs && ms <= window.toMs;
}

/** `MM-DD HH:MM:SS` of a time on the log clock, as the log prints it. */
export function logTimeText(ms: number): string {
  const d = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** The window in words: `finished 08-21 00:10:00 – 08-21 00:20:59` (an open end: from / until). */
export function windowText(window: ClockWindow): string {
  const from = Number.isFinite(window.fromMs) ? logTimeText(window.fromMs) : null;
  const to = Number.isFinite(window.toMs) ? logTimeText(window.toMs) : null;
  if (from !== null && to !== null) return `finished ${from} – ${to}`;
  if (from !== null) return `finished from ${from}`;
  return to === null ? 'finished at any time' : `finished until ${to}`;
}
