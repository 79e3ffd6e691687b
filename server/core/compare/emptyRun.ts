// A run that holds nothing to compare (no request read, no /metrics histogram): compared
// with it every metric is "one run only", no rule can be evaluated, and a CI gate that
// took that for a pass would pass on a broken or empty capture. Said, with why.
import { unreadableInputFinding } from '../analysis/unreadableInput';
import type { RunData } from './types';
import { countOf } from '../numberText';
import { NO_REQUEST_STATS_AT_DEBUG_QUESTION } from '../analysis/noStageStats';

/** Why `run` holds nothing to compare, or null when it holds requests or histograms. */
export function emptyRunReason(run: RunData): string | null {
  if ((run.histograms?.length ?? 0) > 0) return null;
  if (run.samples !== null && run.samples.requestCount > 0) return null;
  const unreadable = run.samples === null ? undefined : unreadableInputFinding(run.samples.findings);
  if (unreadable !== undefined) return unreadable.message;
  if (run.samples === null && run.histograms !== null) return 'a /metrics scrape with no histogram series';
  if (run.samples === null) return 'neither a captured log nor a /metrics scrape';
  const overall = run.samples.overallSummaryTables ?? 0;
  if (overall > 0)
    return `0 requests read: the log has ${countOf(overall, '[Overall Summary] table')} (one value per table and field, which \`stage-lens analyze\` shows) and no per-request stats table; comparing needs the per-request tables, which the server prints with --log-stats and VLLM_LOGGING_LEVEL=DEBUG`;
  if (run.samples.debugLines === true)
    return `0 requests read: no request stats in it (${NO_REQUEST_STATS_AT_DEBUG_QUESTION})`;
  return '0 requests read: no request stats in it (is it a vLLM-Omni server log written with --log-stats, and VLLM_LOGGING_LEVEL=DEBUG for the per-stage tables?)';
}
