// vLLM's log timestamps (`MM-DD HH:MM:SS`, no year, no milliseconds, the server's local
// time) as ms on one axis. The year is given (the capture's, or the current one); a log
// that runs over New Year is followed: each line takes the year that puts it nearest the
// latest time so far, so a month going back by more than half a year means the next year,
// and a line printed a moment late from before New Year (another process's) stays in the
// old one. The printed second is truncated, so an event happened somewhere in
// [t, t + 1 s); `midpoint` says t + 0.5 s, the least biased estimate.

const TIME = /^(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/;
const HALF_YEAR_MS = 183 * 24 * 3600 * 1000;

export const LOG_RESOLUTION_MS = 1000;

export class LogClock {
  private year: number;
  private last = Number.NEGATIVE_INFINITY;
  private lastText: string | null = null;
  private lastMs: number | null = null;
  /** month * 100 + date of the cached day start. */
  private cachedDay = -1;
  private cachedYear = 0;
  private cachedDayMs = 0;

  constructor(year: number) {
    this.year = year;
  }

  /** The start of the printed second, ms (UTC of the printed fields); null when the text is not a timestamp. */
  toMs(timestamp: string | null): number | null {
    if (timestamp === null) return null;
    // Many requests finish within one printed second; the same text gives the same time.
    if (timestamp === this.lastText) return this.lastMs;
    const t = this.parse(timestamp);
    this.lastText = timestamp;
    this.lastMs = t;
    return t;
  }

  private parse(timestamp: string): number | null {
    const m = TIME.exec(timestamp);
    if (m === null) return null;
    // Date.UTC is linear in its hour, minute and second (out-of-range values roll over), so
    // the day is looked up once per MM-DD and the time of day added.
    const time = Number(m[3]) * 3_600_000 + Number(m[4]) * 60_000 + Number(m[5]) * 1000;
    const month = Number(m[1]);
    const date = Number(m[2]);
    let t = this.dayStart(this.year, month, date) + time;
    if (t < this.last - HALF_YEAR_MS) {
      this.year += 1;
      t = this.dayStart(this.year, month, date) + time;
    } else if (t > this.last + HALF_YEAR_MS && this.last > Number.NEGATIVE_INFINITY) {
      // Late from before New Year: the year before, and the clock stays where it is.
      return this.dayStart(this.year - 1, month, date) + time;
    }
    if (t > this.last) this.last = t;
    return t;
  }

  private dayStart(year: number, month: number, date: number): number {
    const day = month * 100 + date;
    if (day !== this.cachedDay || year !== this.cachedYear) {
      this.cachedDay = day;
      this.cachedYear = year;
      this.cachedDayMs = Date.UTC(year, month - 1, date);
    }
    return this.cachedDayMs;
  }

  /** The middle of the printed second. */
  midpoint(timestamp: string | null): number | null {
    const t = this.toMs(timestamp);
    return t === null ? null : t + LOG_RESOLUTION_MS / 2;
  }
}
