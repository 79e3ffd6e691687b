// Requests without vLLM-Omni's stats tables: upstream logs [Overall Summary],
// RequestE2EStats, StageRequestStats and TransferEdgeStats at DEBUG, so a server at the
// default INFO level prints one [OmniTiming] line per request and nothing else. What is
// missing, what is shown instead and the exact fix, in one sentence every surface shows
// once (CLI table, side panel, latency panel, deploy-YAML hints) and the finding repeats. A
// log with DEBUG lines did not run at INFO: its sentence says what else leaves the tables out.
// An INFO log with [Overall Summary] tables comes from an older build that printed them at INFO:
// its sentence puts only the per-request stage tables at DEBUG, so it does not deny them.
import type { LogRecord } from '../records';
import type { AnalyzedRequest, FindingCode, RequestTransfer, TablesMissing } from './types';

/** What a user must do for the tables. */
export const STATS_TABLES_FIX =
  "restart the server with VLLM_LOGGING_LEVEL=DEBUG in its environment (Stage Lens's Launch Server... sets it: stageLens.serverEnv)";

/**
 * What to do when a log has DEBUG lines and what --log-stats prints, but no stats table: the
 * server logs at DEBUG, so only the stats logger's own level, or the excerpt, can be at fault.
 */
export const STATS_LOGGER_FIX =
  "let the vllm_omni.metrics.stats logger log at DEBUG (a logging config named by VLLM_LOGGING_CONFIG_PATH can set its level apart from VLLM_LOGGING_LEVEL's), or read the whole log rather than an excerpt";

/**
 * Why a log with a stats table printed at DEBUG has requests without their stage tables: the stats
 * logger printed that table, so it logs at DEBUG, and it prints [Overall Summary], RequestE2EStats,
 * StageRequestStats and TransferEdgeStats in one call (stats.py `build_and_log_summary`).
 */
export const STATS_TABLES_CUT_CAUSE =
  "vLLM-Omni's stats logger prints [Overall Summary], RequestE2EStats, StageRequestStats and TransferEdgeStats in one call, at DEBUG, so a server that printed one of them at DEBUG printed its stage tables too: they were cut out of this excerpt (a grep, a tail, or lines a log shipper dropped)";

/**
 * A stats table printed at DEBUG: one of the tables of vLLM-Omni's stats logger (stats.py
 * `build_and_log_summary`) with a DEBUG prefix, so that logger logs at DEBUG.
 */
export function isStatsTableAtDebug(record: LogRecord): boolean {
  if (record.header?.level !== 'DEBUG') return false;
  const kind = record.kind;
  return kind === 'overallSummary' || kind === 'requestE2E' || kind === 'stageTable' || kind === 'transferTable';
}

/** What to do then: the stage tables are in the log the server wrote. */
export const STATS_TABLES_CUT_FIX = 'read the whole log the server wrote rather than an excerpt';

/**
 * Why a log with DEBUG lines that printed `printed` (a line of --log-stats: [OmniTiming],
 * [Overall Summary]) has no stats table: upstream builds the tables only when the stats
 * logger is enabled for DEBUG (stats.py `log_timing_summary`, `build_and_log_summary`).
 */
export function statsLoggerCause(printed: string): string {
  return `vLLM-Omni prints ${printed} only with --log-stats and its stats tables only when its stats logger (vllm_omni.metrics.stats) is enabled for DEBUG, so either that logger was set above DEBUG apart from the rest, or the tables were cut out of this excerpt`;
}

/**
 * `debugLines`: the log has a line at DEBUG (AnalysisSnapshot.debugLines), so the server did not run at INFO.
 * `overallTables`: the [Overall Summary] tables the log has; without DEBUG lines they were printed at INFO.
 * `statsTablesAtDebug`: a stats table of the log was printed at DEBUG (AnalysisSnapshot.statsTablesAtDebug):
 * where no request has its stage tables, they were cut out.
 */
export function tablesMissingMessage(
  missing: number,
  total: number,
  debugLines = false,
  overallTables = 0,
  statsTablesAtDebug = false,
): string {
  const which =
    missing >= total
      ? 'No request has a'
      : `${missing} of ${total} request${total === 1 ? '' : 's'} ${missing === 1 ? 'has' : 'have'} no`;
  const forThem = missing >= total ? '' : ' for them';
  const shown =
    "Shown instead: each stage's time and the end-to-end time from [OmniTiming] (10 ms resolution), and the /metrics histograms when scraped.";
  // Only when no request has them: where some do, the others may be of a boot that ran at INFO.
  if (statsTablesAtDebug && missing >= total)
    return `${which} [StageRequestStats] table, only [OmniTiming] lines, though this log has stats tables printed at DEBUG: ${STATS_TABLES_CUT_CAUSE}; there is no queued / prefill / decode / TTFT split. ${shown} Fix: ${STATS_TABLES_CUT_FIX}.`;
  if (debugLines)
    return `${which} [StageRequestStats] table, only [OmniTiming] lines, though this log has DEBUG lines: ${statsLoggerCause('[OmniTiming]')}; there is no queued / prefill / decode / TTFT split${forThem}. ${shown} Fix: ${STATS_LOGGER_FIX}.`;
  if (overallTables > 0)
    return `${which} [StageRequestStats] table, only [OmniTiming] lines: vLLM-Omni logs its per-request stage tables at DEBUG and this server ran at INFO (${overallAtInfo(overallTables)}), so there is no queued / prefill / decode / TTFT split${forThem}. ${shown} Fix: ${STATS_TABLES_FIX}.`;
  return `${which} [StageRequestStats] table, only [OmniTiming] lines: vLLM-Omni logs its stats tables at DEBUG and this server ran at INFO, so there is no queued / prefill / decode / TTFT split${forThem}. ${shown} Fix: ${STATS_TABLES_FIX}.`;
}

/** The [Overall Summary] tables of a log without DEBUG lines: printed at INFO, as older builds print them. */
function overallAtInfo(tables: number): string {
  return tables === 1
    ? "this log's [Overall Summary] table was printed at INFO, as older vLLM-Omni builds print it"
    : `this log's ${tables} [Overall Summary] tables were printed at INFO, as older vLLM-Omni builds print them`;
}

/** A request the tables are missing for: it printed [OmniTiming] (or E2E only) but no stage table. */
export function lacksStageTable(request: AnalyzedRequest): boolean {
  if (request.hasStageTable) return false;
  if (request.timing !== null) return true;
  // The format before February 2026 has no stats tables to turn on: legacyStats.ts says what it lacks.
  if (request.legacyDict === true) return false;
  for (const _ in request.e2e) return true;
  return false;
}

/**
 * An edge of `request` whose TransferEdgeStats column is missing because the server printed no
 * tables at all (INFO level): not printed, so not measured. With stage tables, a missing column
 * is the all-zero one the server leaves out (hidden).
 */
export function edgeTableNotPrinted(request: AnalyzedRequest, transfer: RequestTransfer): boolean {
  return !transfer.tablePrinted && lacksStageTable(request);
}

/**
 * Findings read from the stats tables (a stage's [StageRequestStats] row, RequestE2EStats,
 * TransferEdgeStats, [Overall Summary]): a run that printed no table cannot show them, so
 * their absence there says nothing.
 */
const FROM_STATS_TABLES: ReadonlySet<FindingCode> = new Set<FindingCode>([
  'ttft-not-recorded',
  'diffusion-ttft-default',
  'ttft-no-output',
  'split-mismatch',
  'negative-interval',
  'queued-includes-input-wait',
  'ttft-includes-upstream-wait',
  'preempted-requests',
  'diffusion-zero-ambiguous',
  'overall-summary-per-prompt',
  'prefill-covers-decode',
]);

export function readFromStatsTables(code: FindingCode): boolean {
  return FROM_STATS_TABLES.has(code);
}

/** Counts requests without tables; `notice()` is null while every request has them. */
export class TablesMissingCounter {
  private missing = 0;
  private total = 0;

  add(request: AnalyzedRequest): void {
    this.total += 1;
    if (lacksStageTable(request)) this.missing += 1;
  }

  /**
   * `debugLines`: the log has a line at DEBUG (AnalysisSnapshot.debugLines); `overallTables`: its [Overall Summary] tables;
   * `statsTablesAtDebug`: one of its stats tables was printed at DEBUG.
   */
  notice(debugLines = false, overallTables = 0, statsTablesAtDebug = false): TablesMissing | null {
    if (this.missing === 0) return null;
    return {
      requests: this.missing,
      of: this.total,
      all: this.missing >= this.total,
      message: tablesMissingMessage(this.missing, this.total, debugLines, overallTables, statsTablesAtDebug),
      ...(debugLines ? { debugLines: true as const } : {}),
      ...(statsTablesAtDebug && this.missing >= this.total ? { cutOut: true as const } : {}),
    };
  }
}
