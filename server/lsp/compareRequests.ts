// `stageLens/compare`: two runs, each a session of this server (its analysis is already in
// memory) or a path on disk (log, /metrics scrape, saved session folder), compared by
// server/core/compare. The editor's Compare Sessions panel shows the result.
import { compareRuns, histogramRowsOfSummaries, incomparableReason, runSamplesFromAnalysis } from '../core/compare';
import type { RunData } from '../core/compare';
import { loadRun } from '../capture/compareInput';
import type { SessionRegistry } from '../capture/sessionRegistry';
import type { CompareParams, CompareResult, CompareRunName, CompareTarget } from '../protocol';
import { runNameOfPath, runNameOfSession } from '../core/compare/runName';

async function runOf(
  registry: SessionRegistry,
  target: CompareTarget,
  excludeCold: boolean,
): Promise<{ run: RunData; name: CompareRunName }> {
  if ('sessionId' in target) {
    const session = await registry.open(target.sessionId);
    const info = session.info;
    // Findings from the summary (request ids capped); the requests are read from the packed store one by one.
    const { findings } = session.summary();
    const scrape = session.histograms();
    // A session that only scrapes /metrics has no per-request data: that is not "0 requests".
    const hasLog = info.kind !== 'scrape' && info.kind !== 'prometheus';
    const run: RunData = {
      source: `${info.kind} session ${info.id} (${info.description})`,
      kind: 'session',
      samples: hasLog ? runSamplesFromAnalysis({ requests: session.requests(), findings }, excludeCold) : null,
      histograms: scrape.length > 0 ? histogramRowsOfSummaries(scrape) : null,
      problemCount: info.problemCount,
    };
    return { run, name: runNameOfSession(info) };
  }
  const run = await loadRun(target.path, { excludeCold });
  return { run, name: runNameOfPath(target.path) };
}

export async function compareRequest(registry: SessionRegistry, params: CompareParams): Promise<CompareResult> {
  const excludeCold = params.excludeCold === true;
  const [baseline, candidate] = await Promise.all([
    runOf(registry, params.baseline, excludeCold),
    runOf(registry, params.candidate, excludeCold),
  ]);
  const reason = incomparableReason(baseline.run, candidate.run);
  if (reason !== null) throw new Error(reason);
  return {
    report: compareRuns(baseline.run, candidate.run),
    baselineRun: baseline.name,
    candidateRun: candidate.name,
  };
}
