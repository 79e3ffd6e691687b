// A log whose only statistics are vLLM's periodic `Engine NNN:` lines (INFO, no --log-stats
// tables, no [OmniTiming]): analyze reads them but has no request to split, and would otherwise
// say nothing of them. This finding counts them and says where they are used; under a window,
// those in the window, said so, as the KV-cache finding counts them (metricNotReporting.ts).
//
// A log still being written (a launch, a tailed file, the simulator) has Engine lines long
// before its first request's table: a request's table is printed when it finishes, and the
// first after a start is the slowest. There the finding waits until the Engine lines say that
// requests went through without a table: the engines went idle again after running requests,
// or they have reported running requests for as long as a live view waits before advising
// on stats (NO_STATS_ADVICE_AFTER_S).
import { countOf } from '../numberText';
import { engineLineScopeText, inEngineLineScope, type EngineLineScope } from '../explain/metricNotReporting';
import type { EngineSeries } from './engineSeries';
import type { Finding } from './types';

/** Seconds of server output with no request read before a live view says how to get stats. */
export const NO_STATS_ADVICE_AFTER_S = 60;
/** vLLM's default stats interval (`--log-stats`, VLLM_LOG_STATS_INTERVAL): Engine lines without a timestamp count as this long apart. */
const ENGINE_LINE_INTERVAL_S = 10;

/**
 * The finding for a log that gave no request but has engine lines; null otherwise. `live`: the log
 * is still being written. `window`: the lines a window keeps (and its boot's, with one), counted
 * and said as the window's; null when it keeps none.
 */
export function engineStatsOnlyFinding(
  series: readonly EngineSeries[],
  requests: number,
  live = false,
  window: EngineLineScope | null = null,
): Finding | null {
  if (requests > 0 || series.length === 0) return null;
  if (live && !requestsOutranTheirTables(series)) return null;
  let lines = 0;
  let engines = 0;
  for (const s of series) {
    const n = window === null ? s.lines : linesInScope(s, window);
    lines += n;
    if (n > 0) engines += 1;
  }
  if (lines === 0) return null;
  const where = window === null ? '' : engineLineScopeText(window);
  return {
    code: 'engine-stats-only',
    severity: 'info',
    stageId: null,
    requestIds: [],
    requestCount: 0,
    message:
      `The log has ${countOf(lines, 'vLLM engine stats line')}${where} (\`Engine NNN:\`, ${countOf(engines, 'engine')}) and no request: ` +
      "they say each engine's running and waiting requests, KV-cache usage and throughput at each stats interval, not any request's times, so they give no phase split. " +
      "`stage-lens explain --format json` reads them for load over time (each engine's running / waiting / KV-cache usage, overTime.gauges).",
  };
}

/** The lines of one engine that `scope` keeps (of those the series kept: every one up to its MAX_POINTS). */
function linesInScope(s: EngineSeries, scope: EngineLineScope): number {
  let n = 0;
  for (let i = 0; i < s.times.length; i++) if (inEngineLineScope(s, i, scope)) n++;
  return n;
}

/**
 * Whether the Engine lines of a log still being written say that requests ran long enough to
 * have printed a table if the server printed any: every engine's last line has nothing running
 * or waiting after some line had a request running, or the lines reported running requests
 * for NO_STATS_ADVICE_AFTER_S (log clock; without timestamps, that many stats intervals).
 */
export function requestsOutranTheirTables(series: readonly EngineSeries[]): boolean {
  let ranAny = false;
  let idle = true;
  let firstRunningMs = Number.POSITIVE_INFINITY;
  let lastMs = Number.NEGATIVE_INFINITY;
  let untimedIntervals = 0;
  for (const s of series) {
    const n = s.running.length;
    let first = -1;
    for (let i = 0; i < n; i++)
      if ((s.running[i] as number) > 0) {
        first = i;
        break;
      }
    const last = n - 1;
    if (n === 0 || !(s.running[last] === 0 && s.waiting[last] === 0)) idle = false;
    if (first < 0) continue;
    ranAny = true;
    const from = s.times[first] as number;
    const to = s.times[last] as number;
    if (Number.isFinite(from) && Number.isFinite(to)) {
      firstRunningMs = Math.min(firstRunningMs, from);
      lastMs = Math.max(lastMs, to);
    } else untimedIntervals = Math.max(untimedIntervals, last - first);
  }
  if (!ranAny) return false;
  if (idle) return true;
  const wait = NO_STATS_ADVICE_AFTER_S;
  return lastMs - firstRunningMs >= wait * 1000 || untimedIntervals * ENGINE_LINE_INTERVAL_S >= wait;
}
