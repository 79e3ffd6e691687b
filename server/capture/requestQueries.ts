// Queries over a session's analysed requests (pure: a list of requests in, an answer
// out), used by the language server's session requests and by the webview tests' fake
// host, so both answer the same way.
import type { AnalyzedRequest, SplitName } from '../core/analysis/types';
import { SPLIT_NAMES } from '../core/analysis/types';
import type { HistogramParams, HistogramResult, RequestPage, RequestPageParams } from '../protocol';

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

/** Request ids a finding names, for the `findingCode` filter. */
export type FindingRequestIds = (findingCode: string, stageId: number | undefined) => ReadonlySet<string>;

function orderedRequests(requests: readonly AnalyzedRequest[], params: RequestPageParams, findingIds: FindingRequestIds): AnalyzedRequest[] {
  const named = params.findingCode === undefined ? null : findingIds(params.findingCode, params.stageId);
  const text = params.filterText?.toLowerCase() ?? '';
  let rows = requests.filter(
    (r) =>
      (text === '' || r.requestId.toLowerCase().includes(text)) &&
      (params.stageId === undefined || r.stages.some((s) => s.stageId === params.stageId)) &&
      (named === null || named.has(r.requestId)),
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
  return rows;
}

/**
 * The filtered, sorted order of one query, kept while the request list does not grow:
 * a virtualized table asks for many pages of the same order as the user scrolls, and
 * re-sorting 100k requests for each page would make scrolling stall.
 */
export class RequestOrderCache {
  private readonly orders = new Map<string, AnalyzedRequest[]>();
  private requestCount = -1;

  get(requests: readonly AnalyzedRequest[], params: RequestPageParams, findingIds: FindingRequestIds): AnalyzedRequest[] {
    if (requests.length !== this.requestCount) {
      this.orders.clear();
      this.requestCount = requests.length;
    }
    const key = JSON.stringify([params.sortBy, params.descending === true, params.filterText ?? '', params.stageId, params.findingCode]);
    let rows = this.orders.get(key);
    if (rows === undefined) {
      // A handful of recent orders is enough (one table, a few sort/filter choices).
      if (this.orders.size >= 8) this.orders.clear();
      this.orders.set(key, (rows = orderedRequests(requests, params, findingIds)));
    }
    return rows;
  }
}

export function pageOf(requests: readonly AnalyzedRequest[], params: RequestPageParams, findingIds: FindingRequestIds, cache: RequestOrderCache): RequestPage {
  const rows = cache.get(requests, params, findingIds);
  const offset = Math.max(0, Math.min(params.offset, rows.length));
  const limit = Math.max(0, Math.min(params.limit, 5000));
  return { total: rows.length, offset, requests: rows.slice(offset, offset + limit) };
}

/** Histogram of one stage's split value or field; non-numbers are counted by state, never binned. */
export function histogramOf(requests: readonly AnalyzedRequest[], params: HistogramParams): HistogramResult {
  const values: number[] = [];
  let notMeasured = 0;
  let hidden = 0;
  let notRecorded = 0;
  const colon = params.metric.indexOf(':');
  const kind = params.metric.slice(0, colon);
  const name = params.metric.slice(colon + 1);
  const splitName = kind === 'split' && (SPLIT_NAMES as readonly string[]).includes(name) ? (name as SplitName) : null;
  for (const r of requests) {
    const stage = r.stages.find((s) => s.stageKey === params.stageKey);
    if (stage === undefined) continue;
    if (splitName !== null) {
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
  // A loop, not Math.min(...values): 100k arguments would overflow the stack.
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

/** The stage whose stage_gen_time_ms was largest in the request (the slow stage), or null. */
export function slowestStageOf(request: AnalyzedRequest): string | null {
  let slow: string | null = null;
  let slowMs = -Infinity;
  for (const s of request.stages) {
    const g = s.fields['stage_gen_time_ms'];
    if (g?.state === 'measured' && g.value > slowMs) {
      slowMs = g.value;
      slow = s.stageKey;
    }
  }
  return slow;
}
