// What a live view says before its first request has been read. A request shows once the
// server prints its stats, when it finishes, and the first after a start is the slowest
// (a cold start); until then "no per-request statistics found, set DEBUG" would be advice
// for a server that may well print them. That advice is given once it is likely to apply:
// requests read without stats tables (the table's own note), or this long after the
// server's first output with no request at all (a server without --log-stats prints none).

import { NO_STATS_ADVICE_AFTER_S } from '../analysis/engineStatsOnly';

export { NO_STATS_ADVICE_AFTER_S };

/**
 * The lines that stand for the table while no request has been read, or null when the
 * table's own text applies (the advice for a log without stats).
 * `waitedS`: since the view started; `outputForS`: since the server's first output (null: none yet).
 */
export function waitingLines(waitedS: number, outputForS: number | null): string[] | null {
  if (outputForS !== null && outputForS >= NO_STATS_ADVICE_AFTER_S) return null;
  const waited = `Waiting for the first request (${Math.floor(waitedS)} s so far)`;
  return outputForS === null
    ? [`${waited}: no output read yet.`]
    : [
        `${waited}: a request shows once the server prints its stats, when it finishes; the first after a start is slow (a cold start).`,
      ];
}
