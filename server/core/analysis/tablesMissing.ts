// Requests without vLLM-Omni's stats tables: upstream logs [Overall Summary],
// RequestE2EStats, StageRequestStats and TransferEdgeStats at DEBUG, so a server at the
// default INFO level prints one [OmniTiming] line per request and nothing else. What is
// missing, what is shown instead and the exact fix, in one sentence every surface shows
// once (CLI table, side panel, latency panel, deploy-YAML hints) and the finding repeats.
import type { AnalyzedRequest, FindingCode, RequestTransfer, TablesMissing } from './types';

/** What a user must do for the tables. */
export const STATS_TABLES_FIX =
  "restart the server with VLLM_LOGGING_LEVEL=DEBUG in its environment (Stage Lens's Launch Server... sets it: stageLens.serverEnv)";

export function tablesMissingMessage(missing: number, total: number): string {
  const which =
    missing >= total
      ? 'No request has a'
      : `${missing} of ${total} request${total === 1 ? '' : 's'} ${missing === 1 ? 'has' : 'have'} no`;
  return `${which} [StageRequestStats] table, only [OmniTiming] lines: vLLM-Omni logs its stats tables at DEBUG and this server ran at INFO, so there is no queued / prefill / decode / TTFT split${missing >= total ? '' : ' for them'}. Shown instead: each stage's time and the end-to-end time from [OmniTiming] (10 ms resolution), and the /metrics histograms when scraped. Fix: ${STATS_TABLES_FIX}.`;
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

  notice(): TablesMissing | null {
    if (this.missing === 0) return null;
    return {
      requests: this.missing,
      of: this.total,
      all: this.missing >= this.total,
      message: tablesMissingMessage(this.missing, this.total),
    };
  }
}
