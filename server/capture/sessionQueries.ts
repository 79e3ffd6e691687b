// Answers the client's questions about one session: summary over a window, a page of
// requests (sorted and filtered here, not in the webview), one request with its
// timeline, findings.
import { FindingsBuilder } from '../core/analysis/findings';
import { StageSummaryBuilder } from '../core/analysis/stageSummary';
import type { AnalyzedRequest, SplitName } from '../core/analysis/types';
import { SPLIT_NAMES } from '../core/analysis/types';
import type { HistogramParams, HistogramResult, RequestDetail, RequestPage, RequestPageParams, RequestSpans, SummaryResult } from '../protocol';
import type { Session } from './session';
import { timelineOf } from '../core/analysis/timeline';

export function sessionSummary(session: Session, windowSeconds?: number): SummaryResult {
  if (windowSeconds === undefined || windowSeconds <= 0) {
    const summary = session.summary();
    return { sessionId: session.id, requestCount: session.requests().length, stages: summary.stages, findings: summary.findings, histograms: session.histograms() };
  }
  const since = Date.now() - windowSeconds * 1000;
  const times = session.requestTimes();
  const requests = session.requests();
  const summaries = new StageSummaryBuilder();
  const findings = new FindingsBuilder();
  let count = 0;
  // Requests are in capture order: walk back from the newest.
  for (let i = requests.length - 1; i >= 0 && (times[i] ?? 0) >= since; i--) {
    const r = requests[i] as AnalyzedRequest;
    summaries.add(r);
    findings.add(r);
    count += 1;
  }
  const stages = summaries.stages();
  return { sessionId: session.id, requestCount: count, stages, findings: findings.findings(stages, 200), histograms: session.histograms() };
}

type SortValue = (r: AnalyzedRequest) => number | string | null;

/** `requestId`, `line`, `<stageKey>.<splitName>` or `<stageKey>.field:<name>`. */
function sortValue(key: string): SortValue {
  if (key === 'requestId') return (r) => r.requestId;
  if (key === 'line') return (r) => r.line;
  const dot = key.indexOf('.');
  if (dot > 0) {
    const stageKey = key.slice(0, dot);
    const rest = key.slice(dot + 1);
    if (rest.startsWith('field:')) {
      const field = rest.slice('field:'.length);
      return (r) => {
        const cell = r.stages.find((s) => s.stageKey === stageKey)?.fields[field];
        return cell?.state === 'measured' ? cell.value : null;
      };
    }
    if ((SPLIT_NAMES as readonly string[]).includes(rest)) {
      const name = rest as SplitName;
      return (r) => r.stages.find((s) => s.stageKey === stageKey)?.split.values[name] ?? null;
    }
  }
  return (r) => r.line;
}

export function requestPage(session: Session, params: RequestPageParams): RequestPage {
  const findingIds =
    params.findingCode === undefined
      ? null
      : new Set(session.snapshot().findings.filter((f) => f.code === params.findingCode && (params.stageId === undefined || f.stageId === null || f.stageId === params.stageId)).flatMap((f) => f.requestIds));
  const text = params.filterText?.toLowerCase() ?? '';
  let rows = session.requests().filter(
    (r) =>
      (text === '' || r.requestId.toLowerCase().includes(text)) &&
      (params.stageId === undefined || r.stages.some((s) => s.stageId === params.stageId)) &&
      (findingIds === null || findingIds.has(r.requestId)),
  );
  if (params.sortBy !== undefined) {
    const value = sortValue(params.sortBy);
    const dir = params.descending === true ? -1 : 1;
    const keyed = rows.map((r) => ({ r, v: value(r) }));
    // Missing values (null) sort last in either direction: unknown is not small.
    keyed.sort((a, b) => {
      if (a.v === null || b.v === null) return a.v === b.v ? 0 : a.v === null ? 1 : -1;
      return (a.v < b.v ? -1 : a.v > b.v ? 1 : 0) * dir;
    });
    rows = keyed.map((k) => k.r);
  }
  const offset = Math.max(0, Math.min(params.offset, rows.length));
  const limit = Math.max(0, Math.min(params.limit, 5000));
  return { total: rows.length, offset, requests: rows.slice(offset, offset + limit) };
}

export function requestDetail(session: Session, requestId: string): RequestDetail | null {
  const request = session.requests().find((r) => r.requestId === requestId);
  return request === undefined ? null : { request, timeline: timelineOf(request) };
}

/** Histogram of one stage's split value or field over the session; non-numbers are counted by state, never binned. */
export function stageHistogram(session: Session, params: HistogramParams): HistogramResult {
  const values: number[] = [];
  let notMeasured = 0;
  let hidden = 0;
  let notRecorded = 0;
  const [kind, name] = [params.metric.slice(0, params.metric.indexOf(':')), params.metric.slice(params.metric.indexOf(':') + 1)];
  for (const r of session.requests()) {
    const stage = r.stages.find((s) => s.stageKey === params.stageKey);
    if (stage === undefined) continue;
    if (kind === 'split' && (SPLIT_NAMES as readonly string[]).includes(name)) {
      const splitName = name as SplitName;
      const v = stage.split.values[splitName];
      const st = stage.split.states[splitName];
      if (v !== null) values.push(v);
      else if (st === 'notRecorded') notRecorded += 1;
      else if (st === 'hidden') hidden += 1;
      else notMeasured += 1;
    } else {
      const cell = stage.fields[name];
      if (cell === undefined) hidden += 1;
      else if (cell.state === 'measured') values.push(cell.value);
      else notMeasured += 1;
    }
  }
  const bins = Math.max(1, Math.min(200, Math.floor(params.bins)));
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (values.length === 0) return { metric: params.metric, stageKey: params.stageKey, edges: [], counts: [], notMeasured, hidden, notRecorded };
  if (hi === lo) hi = lo + 1;
  const width = (hi - lo) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, i) => lo + i * width);
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor((v - lo) / width))]! += 1;
  return { metric: params.metric, stageKey: params.stageKey, edges, counts, notMeasured, hidden, notRecorded };
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
  requests.forEach((r, i) => {
    requestIds.push(r.requestId);
    endMs.push(logTimeMs(r.timestamp, year) ?? times[i] ?? 0);
    const e2e = r.e2e['e2e_total_ms'];
    e2eMs.push(e2e?.state === 'measured' ? e2e.value : null);
    let slow: string | null = null;
    let slowMs = -Infinity;
    for (const s of r.stages) {
      const g = s.fields['stage_gen_time_ms'];
      const ms = g?.state === 'measured' ? g.value : null;
      if (ms !== null && ms > slowMs) {
        slowMs = ms;
        slow = s.stageKey;
      }
    }
    slowestStage.push(slow);
    cold.push(r.cold);
  });
  return { requestIds, endMs, e2eMs, slowestStage, cold };
}
