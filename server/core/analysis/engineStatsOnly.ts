// A log whose only statistics are vLLM's periodic `Engine NNN:` lines (INFO, no --log-stats
// tables, no [OmniTiming]): analyze reads them but has no request to split, and would otherwise
// say nothing of them. This finding counts them and says where they are used.
import { countOf } from '../numberText';
import type { EngineSeries } from './engineSeries';
import type { Finding } from './types';

/** The finding for a log that gave no request but has engine lines; null otherwise. */
export function engineStatsOnlyFinding(series: readonly EngineSeries[], requests: number): Finding | null {
  if (requests > 0 || series.length === 0) return null;
  let lines = 0;
  for (const s of series) lines += s.lines;
  return {
    code: 'engine-stats-only',
    severity: 'info',
    stageId: null,
    requestIds: [],
    requestCount: 0,
    message:
      `The log has ${countOf(lines, 'vLLM engine stats line')} (\`Engine NNN:\`, ${countOf(series.length, 'engine')}) and no request: ` +
      "they say each engine's running and waiting requests, KV-cache usage and throughput at each stats interval, not any request's times, so they give no phase split. " +
      "`stage-lens explain --format json` reads them for load over time (each engine's running / waiting / KV-cache usage, overTime.gauges).",
  };
}
