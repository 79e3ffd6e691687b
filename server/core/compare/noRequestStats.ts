// Why a log read 0 requests, as compare says it: where the run holds nothing to compare
// (emptyRun.ts, compare's exit 2) and in a report's notes (a session whose scrape is compared
// beside such a log). One choice, so the two never ask different questions of the same log.
import { countOf } from '../numberText';
import { NO_REQUEST_STATS_AT_DEBUG_QUESTION } from '../analysis/noStageStats';
import type { RunSamples } from './types';

/**
 * What a log of 0 requests lacks, from what it does hold: [Overall Summary] tables (run totals,
 * no request's), DEBUG lines (the level is there: --log-stats is not), or neither.
 */
export function noRequestStatsWhy(samples: Pick<RunSamples, 'overallSummaryTables' | 'debugLines'>): string {
  const overall = samples.overallSummaryTables ?? 0;
  if (overall > 0)
    return `the log has ${countOf(overall, '[Overall Summary] table')} (one value per table and field, which \`stage-lens analyze\` shows) and no per-request stats table; comparing needs the per-request tables, which the server prints with --log-stats and VLLM_LOGGING_LEVEL=DEBUG`;
  if (samples.debugLines === true) return `no request stats in it (${NO_REQUEST_STATS_AT_DEBUG_QUESTION})`;
  return 'no request stats in it (is it a vLLM-Omni server log written with --log-stats, and VLLM_LOGGING_LEVEL=DEBUG for the per-stage tables?)';
}
