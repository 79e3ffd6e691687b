// Why a session that has ended shows no request: its log had no per-request stage
// statistics (the CLI's words, server/core/analysis/noStageStats.ts), or only [Overall
// Summary] tables. While a session runs, its requests may still come: no text then.
// DOM-free; used by the side panel and Latency Details.
import type { SessionInfo, SummaryResult } from '../../server/protocol';
import { noStageStatsText } from '../../server/shared';
import { overallNoRequestsText, overallOnly } from './overallOnly';
import { METRICS_ONLY_TEXT, metricsOnly } from './scrapeRequests';

type SummarySource = Pick<
  SummaryResult,
  'requestCount' | 'stages' | 'endToEnd' | 'overallSummaries' | 'findings' | 'debugLines' | 'statsTablesAtDebug'
>;

/** A running session (or one starting) may still print its first request. */
export function mayStillGetRequests(session: Pick<SessionInfo, 'status'>): boolean {
  return session.status === 'running' || session.status === 'starting';
}

/** An ended session with no request and no stage: why, in the CLI's words; else null. */
export function noStageStatsNotice(session: Pick<SessionInfo, 'status'>, summary: SummarySource | null): string | null {
  if (summary === null || mayStillGetRequests(session)) return null;
  if (summary.requestCount > 0 || summary.stages.length > 0 || overallOnly(summary) !== null) return null;
  return noStageStatsText(summary.findings, summary.debugLines === true);
}

/** What Latency Details' empty, unfiltered table says instead of "No requests yet", or null. */
export function emptyTableText(
  session: Pick<SessionInfo, 'status' | 'kind'>,
  summary: SummarySource | null,
): string | null {
  if (metricsOnly(session) && (summary === null || summary.requestCount === 0)) return METRICS_ONLY_TEXT;
  const overall = overallOnly(summary);
  if (overall !== null)
    return overallNoRequestsText(overall, summary?.debugLines === true, summary?.statsTablesAtDebug === true);
  return noStageStatsNotice(session, summary);
}

/**
 * What the Tail tab says instead of its controls when no request measured a target (no target
 * to choose): what is missing and why, as the request table says it for a session without a request.
 */
export function noTailText(session: Pick<SessionInfo, 'status' | 'kind'>, summary: SummarySource | null): string {
  const running = mayStillGetRequests(session);
  if (summary !== null && summary.requestCount > 0)
    return running
      ? "No request has measured a target yet (end-to-end time or a stage's first output), so there is no tail to explain."
      : "No request measured a target (end-to-end time or a stage's first output), so there is no tail to explain.";
  const why = emptyTableText(session, summary);
  if (why !== null) return `No tail to explain: the session has no request. ${why}`;
  return running
    ? 'No request has completed yet, so there is no tail to explain. It appears here as the server finishes requests (a request counts once its stage tables are printed).'
    : 'No tail to explain: the session has no request.';
}
