// What a finished input with no per-request stage statistics says instead of a table: the
// CLI's analyze and the views' empty states use the same words. The input's findings tell
// which case it is: not a text log at all, the older stats format, or no stats tables.
import type { FindingCode } from './types';
import { unreadableInputFinding } from './unreadableInput';

export const NO_STAGE_STATS_TEXT =
  'No per-request stage statistics found. vLLM-Omni prints them with --log-stats; its stats tables need VLLM_LOGGING_LEVEL=DEBUG.';

/** The same for a log with DEBUG lines: the level is already there, so the missing part is --log-stats. */
export const NO_STAGE_STATS_AT_DEBUG_TEXT =
  'No per-request stage statistics found. vLLM-Omni prints them with --log-stats, at VLLM_LOGGING_LEVEL=DEBUG; this log has DEBUG lines, so the server already logs at DEBUG: what is missing is --log-stats.';

/** Compare's question for a log of no request stats that has DEBUG lines (its other one asks for both). */
export const NO_REQUEST_STATS_AT_DEBUG_QUESTION =
  'it has DEBUG lines, so the server already logs at DEBUG, as the per-stage tables need: was it written without --log-stats?';

interface CodedFinding {
  readonly code: FindingCode;
  readonly message: string;
}

/**
 * Why the input has no per-request stage statistics, in one sentence or two. `debugLines`: the
 * log has a line at DEBUG (AnalysisSnapshot.debugLines).
 */
export function noStageStatsText(findings: readonly CodedFinding[], debugLines = false): string {
  const unreadable = unreadableInputFinding(findings);
  if (unreadable !== undefined) {
    if (unreadable.code === 'input-gzip-damaged')
      return 'No per-request stage statistics before the gzip data broke off (see Findings).';
    if (unreadable.code === 'input-deploy-config')
      return 'No per-request stage statistics: the input is a deploy config (YAML), not a server log (see Findings).';
    if (unreadable.code === 'input-zero-filled')
      return 'No per-request stage statistics: the input is NUL bytes only (a zero-filled file), no text (see Findings).';
    const what = unreadable.code === 'input-compressed' ? 'a compressed file' : 'binary data';
    return `No per-request stage statistics: the input is ${what}, not a text log (see Findings).`;
  }
  const legacy = findings.find((f) => f.code === 'legacy-stats-format');
  if (legacy !== undefined) return `No per-request stage statistics in the current format. ${legacy.message}`;
  return debugLines ? NO_STAGE_STATS_AT_DEBUG_TEXT : NO_STAGE_STATS_TEXT;
}

/**
 * analyze's words for a readable log in the current format with no per-request stage statistics
 * and no [Overall Summary] table (which say what they have themselves), for a report that says
 * the input's own findings apart (explain); null for any other input.
 */
export function noStageStatsAdvice(
  stages: number,
  overallSummaryTables: number,
  findings: readonly CodedFinding[],
  debugLines: boolean,
): string | null {
  if (stages > 0 || overallSummaryTables > 0) return null;
  if (unreadableInputFinding(findings) !== undefined) return null;
  if (findings.some((f) => f.code === 'legacy-stats-format')) return null;
  return noStageStatsText(findings, debugLines);
}
