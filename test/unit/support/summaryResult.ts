// The SummaryResult the language server would send for an analysed log, for tests of the views
// that read it (no session, Prometheus server or scrape behind it).
import type { AnalysisSnapshot } from '../../../server/core/analysis/streamAnalysis';
import type { SummaryResult } from '../../../server/protocol';

export function summaryResultOf(s: AnalysisSnapshot): SummaryResult {
  return {
    sessionId: 's',
    requestCount: s.requestCount,
    stages: s.stages,
    findings: s.findings,
    histograms: [],
    prometheus: null,
    endToEnd: s.endToEnd,
    tablesMissing: s.tablesMissing,
    overallSummaries: s.overallSummaries,
    edges: s.edges,
  };
}
