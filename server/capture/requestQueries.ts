// Queries over a session's analysed requests (pure: a list of requests in, an answer
// out), used by the language server's session requests and by the webview tests' fake
// host, so both answer the same way.
import { SLOWEST_STAGE_FIELD, slowestStageAmong } from '../core/analysis/slowest';
import { RequestStore, type RequestList } from '../core/analysis/requestStore';
import type { AnalyzedRequest, RequestStage, SplitName } from '../core/analysis/types';
import type { Cell } from '../core/values';
import { SPLIT_FIELD, SPLIT_NAMES } from '../core/analysis/types';
import { rowUnread } from '../core/analysis/stageBuilder';
import { unrecordedReason } from '../core/analysis/unrecordedValues';
import { notMeasuredOnOneOutput, prefillCoversDecode, stageCoversDecode } from '../core/analysis/oneOutputStage';
import { PERCENTILES, PERCENT_OF, type Percentile } from '../core/reportedPercentiles';
import type {
  ExplainScope,
  HistogramParams,
  HistogramResult,
  RequestDetail,
  RequestPage,
  RequestPageParams,
} from '../protocol';
import { timelineOf } from '../core/analysis/timeline';
import { breakdownOf } from '../core/explain/breakdown';
import { distributionInPlace } from '../core/explain/select';
import { scopeCutsRows } from '../core/explain/scope';

/** One request with its waterfall and the parts of its end-to-end time. */
export function detailOf(request: AnalyzedRequest): RequestDetail {
  return { request, timeline: timelineOf(request), breakdown: breakdownOf(request) };
}

/**
 * Reads single values of the i-th request: from a RequestStore without materializing
 * whole requests (sorting and histograms touch every request), from an array directly.
 */
interface RequestReader {
  requestId(i: number): string;
  line(i: number): number;
  /** The server of a merged log that printed it; null in a log of one server. */
  server(i: number): string | null;
  hasStageId(i: number, stageId: number): boolean;
  stage(i: number, stageKey: string): RequestStage | undefined;
  cell(i: number, stageKey: string, name: string): Cell | undefined;
  hasStage(i: number, stageKey: string): boolean;
  /** Whether the request's stage emits one output (its prefill covers its decode: oneOutputStage.ts). */
  oneOutput(i: number, stage: RequestStage): boolean;
}

function readerOf(requests: RequestList): RequestReader {
  if (requests instanceof RequestStore) {
    return {
      requestId: (i) => requests.requestIdAt(i) ?? '',
      line: (i) => requests.lineAt(i) ?? 0,
      server: (i) => requests.serverAt(i),
      hasStageId: (i, id) => requests.hasStageId(i, id),
      stage: (i, key) => requests.stageAt(i, key),
      cell: (i, key, name) => requests.stageCellAt(i, key, name),
      hasStage: (i, key) => requests.stageKeysAt(i).includes(key),
      oneOutput: (i, stage) =>
        stageCoversDecode(
          stage,
          (id) => requests.stageKeysAt(i).some((key) => (requests.stageAt(i, key)?.stageId ?? -1) > id),
          () => {
            const request = requests.at(i);
            return request !== undefined && rowUnread(request, SPLIT_FIELD.prefillMs);
          },
        ),
    };
  }
  const at = (i: number): AnalyzedRequest => requests.at(i) as AnalyzedRequest;
  return {
    requestId: (i) => at(i).requestId,
    line: (i) => at(i).line,
    server: (i) => at(i).server ?? null,
    hasStageId: (i, id) => at(i).stages.some((s) => s.stageId === id),
    stage: (i, key) => at(i).stages.find((s) => s.stageKey === key),
    cell: (i, key, name) => at(i).stages.find((s) => s.stageKey === key)?.fields[name],
    hasStage: (i, key) => at(i).stages.some((s) => s.stageKey === key),
    oneOutput: (i, stage) => prefillCoversDecode(at(i), stage),
  };
}

type SortValue = (i: number) => number | string | null;

/** `requestId`, `line`, `server`, `<stageKey>.<splitName>`, `<stageKey>.field:<name>`, `<stageKey>.replica` or `target:<target>`. */
function sortValue(key: string, read: RequestReader, targets: TargetValues | undefined): SortValue {
  if (key === 'requestId') return (i) => read.requestId(i);
  if (key === 'line') return (i) => read.line(i);
  if (key === 'server') return (i) => read.server(i);
  if (key.startsWith('target:')) {
    const column = targets?.(key.slice('target:'.length));
    if (column === undefined) return () => null;
    return (i) => {
      const v = column(i);
      return Number.isNaN(v) ? null : v;
    };
  }
  const dot = key.indexOf('.');
  if (dot > 0) {
    const stageKey = key.slice(0, dot);
    const rest = key.slice(dot + 1);
    if (rest.startsWith('field:')) {
      const field = rest.slice('field:'.length);
      return (i) => {
        const cell = read.cell(i, stageKey, field);
        return cell?.state === 'measured' ? cell.value : null;
      };
    }
    if (rest === 'replica') return (i) => read.stage(i, stageKey)?.replicaId ?? null;
    if ((SPLIT_NAMES as readonly string[]).includes(rest)) {
      const name = rest as SplitName;
      return (i) => read.stage(i, stageKey)?.split.values[name] ?? null;
    }
  }
  return (i) => read.line(i);
}

/** Request ids a finding names, for the `findingCode` filter. */
export type FindingRequestIds = (findingCode: string, stageId: number | undefined) => ReadonlySet<string>;

/** The positions of the requests in a scope (time window, cold left out), as a mask; absent: no scope filter. */
export type ScopeMask = (scope: ExplainScope) => Uint8Array;

/** A target's value in the request at a position (NaN: not measured); undefined for a target no request measured. */
export type TargetValues = (target: string) => ((i: number) => number) | undefined;

/** Positions (in `requests`) of the rows of one query, filtered and sorted. */
function orderedRequests(
  requests: RequestList,
  params: RequestPageParams,
  findingIds: FindingRequestIds,
  scopeMask: ScopeMask | undefined,
  targets: TargetValues | undefined,
): number[] {
  const named = params.findingCode === undefined ? null : findingIds(params.findingCode, params.stageId);
  const text = params.filterText?.toLowerCase() ?? '';
  const mask = scopeCutsRows(params.scope) && scopeMask !== undefined ? scopeMask(params.scope) : null;
  // A target no request measured has no tail: nothing passes (never "unknown counts as 0").
  const atLeast = params.atLeast === undefined ? null : (targets?.(params.atLeast.target) ?? (() => Number.NaN));
  const minMs = params.atLeast?.ms ?? 0;
  const filtered = text !== '' || params.stageId !== undefined || named !== null || mask !== null || atLeast !== null;
  if (!filtered && params.sortBy === undefined) return Array.from({ length: requests.length }, (_, i) => i);
  const read = readerOf(requests);
  const value = params.sortBy === undefined ? null : sortValue(params.sortBy, read, targets);
  const stageId = params.stageId;
  const replicaId = stageId === undefined ? undefined : params.replicaId;
  const rows: number[] = [];
  const keys: (number | string | null)[] = [];
  for (let i = 0; i < requests.length; i++) {
    if (filtered) {
      if (mask !== null && mask[i] !== 1) continue;
      const id = read.requestId(i);
      if (text !== '' && !id.toLowerCase().includes(text)) continue;
      if (stageId !== undefined && !read.hasStageId(i, stageId)) continue;
      if (replicaId !== undefined && read.stage(i, String(stageId))?.replicaId !== replicaId) continue;
      if (named !== null && !named.has(id)) continue;
      if (atLeast !== null && !(atLeast(i) >= minMs)) continue;
    }
    rows.push(i);
    if (value !== null) keys[i] = value(i);
  }
  if (value !== null) {
    const dir = params.descending === true ? -1 : 1;
    // Missing values (null) sort last in either direction: unknown is not small.
    rows.sort((x, y) => {
      const a = keys[x] ?? null;
      const b = keys[y] ?? null;
      if (a === null || b === null) return a === b ? x - y : a === null ? 1 : -1;
      return (a < b ? -1 : a > b ? 1 : 0) * dir || x - y;
    });
  }
  return rows;
}

/**
 * The filtered, sorted order of one query, kept while the request list does not grow:
 * a virtualized table asks for many pages of the same order as the user scrolls, and
 * re-sorting 100k requests for each page would make scrolling stall. Positions only:
 * the requests themselves are materialized a page at a time.
 */
export class RequestOrderCache {
  private readonly orders = new Map<string, number[]>();
  private requestCount = -1;

  get(
    requests: RequestList,
    params: RequestPageParams,
    findingIds: FindingRequestIds,
    scopeMask?: ScopeMask,
    targets?: TargetValues,
  ): number[] {
    if (requests.length !== this.requestCount) {
      this.orders.clear();
      this.requestCount = requests.length;
    }
    const key = JSON.stringify([
      params.sortBy,
      params.descending === true,
      params.filterText ?? '',
      params.stageId,
      params.replicaId,
      params.findingCode,
      scopeCutsRows(params.scope) ? params.scope : null,
      params.atLeast ?? null,
    ]);
    let rows = this.orders.get(key);
    if (rows === undefined) {
      // A handful of recent orders is enough (one table, a few sort/filter choices).
      if (this.orders.size >= 8) this.orders.clear();
      this.orders.set(key, (rows = orderedRequests(requests, params, findingIds, scopeMask, targets)));
    }
    return rows;
  }
}

export function pageOf(
  requests: RequestList,
  params: RequestPageParams,
  findingIds: FindingRequestIds,
  cache: RequestOrderCache,
  scopeMask?: ScopeMask,
  targets?: TargetValues,
): RequestPage {
  const rows = cache.get(requests, params, findingIds, scopeMask, targets);
  const offset = Math.max(0, Math.min(params.offset, rows.length));
  const limit = Math.max(0, Math.min(params.limit, 5000));
  return {
    total: rows.length,
    offset,
    requests: rows.slice(offset, offset + limit).map((i) => requests.at(i) as AnalyzedRequest),
  };
}

/** Histogram of one stage's split value or field; non-numbers are counted by state, never binned. */
export function histogramOf(requests: RequestList, params: HistogramParams, scopeMask?: ScopeMask): HistogramResult {
  const mask = scopeCutsRows(params.scope) && scopeMask !== undefined ? scopeMask(params.scope) : null;
  const values: number[] = [];
  // Which of `values` are inferred (same positions): binned, but shown ≈ and counted apart.
  const inferredAt: boolean[] = [];
  let notMeasured = 0;
  let hidden = 0;
  let notRecorded = 0;
  let oneOutput = 0;
  const colon = params.metric.indexOf(':');
  const kind = params.metric.slice(0, colon);
  const name = params.metric.slice(colon + 1);
  const splitName = kind === 'split' && (SPLIT_NAMES as readonly string[]).includes(name) ? (name as SplitName) : null;
  // Decode, or an interval between outputs: not a measurement where the stage emits one output.
  const oneOutputLies = splitName === null ? notMeasuredOnOneOutput(name) : splitName === 'decodeMs';
  const read = readerOf(requests);
  for (let i = 0; i < requests.length; i++) {
    if (mask !== null && mask[i] !== 1) continue;
    if (splitName !== null) {
      const stage = read.stage(i, params.stageKey);
      if (stage === undefined) continue;
      const v = stage.split.values[splitName];
      const st = stage.split.states[splitName];
      if (v !== null && oneOutputLies && read.oneOutput(i, stage)) oneOutput += 1;
      else if (v !== null) {
        values.push(v);
        inferredAt.push(st === 'inferred');
      } else if (st === 'notRecorded') notRecorded += 1;
      else if (st === 'hidden') hidden += 1;
      else notMeasured += 1;
    } else {
      const cell = read.cell(i, params.stageKey, name);
      if (cell === undefined) {
        if (!read.hasStage(i, params.stageKey)) continue;
        hidden += 1;
      } else if (cell.state === 'measured') {
        const stage = oneOutputLies ? read.stage(i, params.stageKey) : undefined;
        if (stage !== undefined && read.oneOutput(i, stage)) oneOutput += 1;
        // A printed number that is not a measurement (unrecordedValues.ts) is counted, never binned.
        else if (unrecordedReason(name, cell.value) === null) {
          values.push(cell.value);
          inferredAt.push(false);
        } else notRecorded += 1;
      } else notMeasured += 1;
    }
  }
  const bins = Math.max(1, Math.min(200, Math.floor(params.bins)));
  // A loop, not Math.min(...values): 100k arguments would overflow the stack.
  let lo = Infinity;
  let hi = -Infinity;
  let inferred = 0;
  for (let k = 0; k < values.length; k++) {
    const v = values[k] as number;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    if (inferredAt[k] === true) inferred += 1;
  }
  const unbinned = { notMeasured, hidden, notRecorded, oneOutput, inferred };
  if (values.length === 0)
    return {
      metric: params.metric,
      stageKey: params.stageKey,
      edges: [],
      counts: [],
      inferredCounts: [],
      ...unbinned,
      inferredPercentiles: [],
      distribution: null,
    };
  // The percentiles marked on the bins, over the same numbers (the scope's, not the session's).
  const distribution = distributionInPlace(Float64Array.from(values), values.length);
  const inferredPercentiles = inferred === 0 ? [] : percentilesOnInferred(values, inferredAt);
  if (hi === lo) hi = lo + 1;
  const width = (hi - lo) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, i) => lo + i * width);
  const counts = new Array<number>(bins).fill(0);
  const inferredCounts = new Array<number>(bins).fill(0);
  for (let k = 0; k < values.length; k++) {
    const bin = Math.min(bins - 1, Math.floor(((values[k] as number) - lo) / width));
    counts[bin]! += 1;
    if (inferredAt[k] === true) inferredCounts[bin]! += 1;
  }
  return {
    metric: params.metric,
    stageKey: params.stageKey,
    edges,
    counts,
    inferredCounts,
    ...unbinned,
    inferredPercentiles,
    distribution,
  };
}

/**
 * The percentiles (numpy's linear, as distributionInPlace) that read an inferred number: one of
 * the two ranks they interpolate between, with a weight, is inferred. Among equal numbers the
 * measured ones rank first, so a value a measurement also gives is not marked.
 */
function percentilesOnInferred(values: readonly number[], inferredAt: readonly boolean[]): Percentile[] {
  const order = Array.from(values.keys()).sort(
    (a, b) => (values[a] as number) - (values[b] as number) || Number(inferredAt[a]) - Number(inferredAt[b]),
  );
  const n = order.length;
  return PERCENTILES.filter((pct) => {
    const h = ((n - 1) * PERCENT_OF[pct]) / 100;
    const low = Math.floor(h);
    if (inferredAt[order[low] as number] === true) return true;
    return h > low && low + 1 < n && inferredAt[order[low + 1] as number] === true;
  });
}

/** slowestStageOf for the i-th request of a store, reading only the stage_gen_time_ms slots. */
export function slowestStageAt(requests: RequestStore, i: number): string | null {
  return slowestStageAmong(requests.stageKeysAt(i), (key) => requests.stageCellAt(i, key, SLOWEST_STAGE_FIELD));
}

/** The request's slowest stage (slowest.ts: largest stage_gen_time_ms), or null. */
export function slowestStageOf(request: AnalyzedRequest): string | null {
  return slowestStageAmong(
    request.stages.map((s) => s.stageKey),
    (key) => request.stages.find((s) => s.stageKey === key)?.fields[SLOWEST_STAGE_FIELD],
  );
}
