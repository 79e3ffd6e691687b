// Words for a session whose only numbers are [Overall Summary] tables (a log of an older
// vLLM-Omni build, which printed them at INFO and no per-request table): its requests, if any,
// have no number, so a bare "0 requests" or "1 request" would contradict the tables shown.
// DOM-free; used by the side panel, the status bar and Latency Details.
import type { OverallSummaries, SessionInfo, SummaryResult } from '../../server/protocol';
import { metricsOnly, scrapeCountText } from './scrapeRequests';
import { countOf, STATS_LOGGER_FIX, STATS_TABLES_CUT_FIX, STATS_TABLES_FIX } from '../../server/shared';
import { formatCount } from './format';

type CountSource = Pick<SummaryResult, 'stages' | 'endToEnd' | 'overallSummaries'>;

/** The summaries when they are the session's only numbers: no stage, no measured end to end; else null. */
export function overallOnly(summary: CountSource | null): OverallSummaries | null {
  if (summary === null || summary.stages.length > 0) return null;
  if ((summary.endToEnd?.ms.count ?? 0) > 0) return null;
  return summary.overallSummaries ?? null;
}

/**
 * `1 [Overall Summary] table (10 requests)`: the requests are the tables' e2e_requests summed,
 * said only for the tables that printed a number for it.
 */
export function overallCountText(overall: OverallSummaries): string {
  const n = overall.tables;
  const tables = countOf(n, '[Overall Summary] table');
  const covers = overall.fields['e2e_requests'];
  if (covers === undefined || covers.count === 0) return tables;
  // e2e_requests are whole numbers: mean × count gives their sum back.
  const requests = Math.round(covers.mean * covers.count);
  const some = covers.count < n ? ` in ${formatCount(covers.count)} of them` : '';
  return `${tables} (${countOf(requests, 'request')}${some})`;
}

/** The side panel's count: `12 requests`, or what the summaries cover for a session of them only. */
export function sessionCountText(
  requestCount: number,
  summary: (CountSource & Pick<SummaryResult, 'histograms'>) | null,
  session: Pick<SessionInfo, 'kind' | 'importedScrape'>,
): string {
  const overall = overallOnly(summary);
  if (overall !== null) return overallCountText(overall);
  // A /metrics-only session has no log to count: the scrape's requests, said as such.
  if (requestCount === 0 && metricsOnly(session))
    return (summary === null ? null : scrapeCountText(summary.histograms)) ?? 'no per-request log';
  return countOf(requestCount, 'request');
}

/**
 * Latency Details' empty request table for a session of [Overall Summary] tables only.
 * `debugLines`: its log has a line at DEBUG (SummaryResult.debugLines), so the level is not the fix;
 * `statsTablesAtDebug`: a stats table was printed at DEBUG, so the tables were cut out of the log read.
 */
export function overallNoRequestsText(
  overall: OverallSummaries,
  debugLines = false,
  statsTablesAtDebug = false,
): string {
  const n = overall.tables;
  const fix = statsTablesAtDebug ? STATS_TABLES_CUT_FIX : debugLines ? STATS_LOGGER_FIX : STATS_TABLES_FIX;
  return (
    `This log has no per-request tables, only ${overallCountText(overall)}: the side panel shows ` +
    `${n === 1 ? 'its' : 'their'} values. Fix: ${fix}.`
  );
}
