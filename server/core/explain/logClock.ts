// vLLM's log timestamps (`MM-DD HH:MM:SS`, no year, no milliseconds, the server's local
// time) as ms on one axis. The year is given (the capture's, or the current one); a log
// that runs over New Year is followed: a month going back by more than half a year means
// the next year. The printed second is truncated, so an event happened somewhere in
// [t, t + 1 s); `midpoint` says t + 0.5 s, the least biased estimate.

const TIME = /^(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/;
const HALF_YEAR_MS = 183 * 24 * 3600 * 1000;

export const LOG_RESOLUTION_MS = 1000;

export class LogClock {
  private year: number;
  private last = Number.NEGATIVE_INFINITY;

  constructor(year: number) {
    this.year = year;
  }

  /** The start of the printed second, ms (UTC of the printed fields); null when the text is not a timestamp. */
  toMs(timestamp: string | null): number | null {
    if (timestamp === null) return null;
    const m = TIME.exec(timestamp);
    if (m === null) return null;
    const at = (year: number): number =>
      Date.UTC(year, Number(m[1]) - 1, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]));
    let t = at(this.year);
    if (t < this.last - HALF_YEAR_MS) {
      this.year += 1;
      t = at(this.year);
    }
    if (t > this.last) this.last = t;
    return t;
  }

  /** The middle of the printed second. */
  midpoint(timestamp: string | null): number | null {
    const t = this.toMs(timestamp);
    return t === null ? null : t + LOG_RESOLUTION_MS / 2;
  }
}
