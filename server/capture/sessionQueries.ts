// Answers the client's questions about one session: summary over a window, a page of
// requests (sorted and filtered here, not in the webview), one request with its
// timeline, findings.
import { EdgeSummaryBuilder } from '../core/analysis/edgeSummary';
import { FindingsBuilder } from '../core/analysis/findings';
import { StageSummaryBuilder } from '../core/analysis/stageSummary';
import type { AnalyzedRequest, Finding } from '../core/analysis/types';
import { histogramOf, pageOf, slowestStageAt } from './requestQueries';
import type { FindingRequestIds } from './requestQueries';
import type { HistogramParams, HistogramResult, RequestDetail, RequestPage, RequestPageParams, RequestSpans, SummaryResult } from '../protocol';
import type { Session } from './session';
import { timelineOf } from '../core/analysis/timeline';
import { prometheusPanelOf } from './prometheusCapture';
import { withDeployEvidence } from './deployEvidence';

/** A session's findings (all request ids), with its matched deploy config's evidence. */
export function sessionFindings(session: Session): Finding[] {
  return [...withDeployEvidence(session.snapshot().findings, session.info.deployConfig)];
}

export function sessionSummary(session: Session, windowSeconds?: number): SummaryResult {
  if (windowSeconds === undefined || windowSeconds <= 0) {
    const summary = session.summary();
    return { sessionId: session.id, requestCount: session.requests().length, stages: summary.stages, findings: withDeployEvidence(summary.findings, session.info.deployConfig), histograms: session.histograms(), prometheus: prometheusPanelOf(session), edges: summary.edges };
  }
  const since = Date.now() - windowSeconds * 1000;
  const times = session.requestTimes();
  const requests = session.requests();
  const summaries = new StageSummaryBuilder();
  const edges = new EdgeSummaryBuilder();
  const findings = new FindingsBuilder();
  let count = 0;
  // Requests are in capture order: walk back from the newest.
  for (let i = requests.length - 1; i >= 0 && (times[i] ?? 0) >= since; i--) {
    const r = requests.at(i) as AnalyzedRequest;
    summaries.add(r);
    edges.add(r);
    findings.add(r);
    count += 1;
  }
  const stages = summaries.stages();
  return { sessionId: session.id, requestCount: count, stages, findings: withDeployEvidence(findings.findings(stages, 200), session.info.deployConfig), histograms: session.histograms(), prometheus: prometheusPanelOf(session), edges: edges.edges() };
}

/** Request ids that a finding names (all of them, not the capped list of live summaries). */
function findingRequestIds(session: Session): FindingRequestIds {
  return (code, stageId) =>
    new Set(
      session
        .summary(Number.POSITIVE_INFINITY)
        .findings.filter((f) => f.code === code && (stageId === undefined || f.stageId === null || f.stageId === stageId))
        .flatMap((f) => f.requestIds),
    );
}

export function requestPage(session: Session, params: RequestPageParams): RequestPage {
  return pageOf(session.requests(), params, findingRequestIds(session), session.requestOrders);
}

export function requestDetail(session: Session, requestId: string): RequestDetail | null {
  const request = session.requestById(requestId);
  return request === undefined ? null : { request, timeline: timelineOf(request) };
}

export function stageHistogram(session: Session, params: HistogramParams): HistogramResult {
  return histogramOf(session.requests(), params);
}

const LOG_TIME = /^(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/;

/** Log timestamps carry no year: place them in the capture year; they only need to order and space requests. */
function logTimeMs(timestamp: string | null, year: number): number | null {
  const m = timestamp === null ? null : LOG_TIME.exec(timestamp);
  if (m === null) return null;
  return Date.UTC(year, Number(m[1]) - 1, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]));
}

export function requestSpans(session: Session): RequestSpans {
  const requests = session.requests();
  const times = session.requestTimes();
  const year = new Date(session.info.startedAt).getUTCFullYear();
  const requestIds: string[] = [];
  const endMs: number[] = [];
  const e2eMs: (number | null)[] = [];
  const slowestStage: (string | null)[] = [];
  const cold: boolean[] = [];
  for (let i = 0; i < requests.length; i++) {
    requestIds.push(requests.requestIdAt(i) ?? '');
    endMs.push(logTimeMs(requests.timestampAt(i), year) ?? times[i] ?? 0);
    const e2e = requests.e2eCellAt(i, 'e2e_total_ms');
    e2eMs.push(e2e?.state === 'measured' ? e2e.value : null);
    slowestStage.push(slowestStageAt(requests, i));
    cold.push(requests.isColdAt(i));
  }
  return { requestIds, endMs, e2eMs, slowestStage, cold };
}
