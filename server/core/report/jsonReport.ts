// `analyze --format json` (schema 1). Field maps are as printed: an absent (hidden) row is left
// out, an explicit None is null, a blank cell is "", a printed nan / inf / -inf is that string
// (JSON has no such numbers, and null is None), a `mean (n=N)` list cell is its mean with
// N in `listCounts`. Split values are numbers or null, and `splitState` says which of
// measured / notMeasured / hidden / notRecorded / inferred each one is. Values derived here or
// in the analysis (differences, means, percentiles) are at the log's precision, 3 decimals.
// The summaries leave out the printed numbers that are not measurements, counted per field
// and reason in `splitSummary[stage].fieldsNotRecorded` (unrecordedValues.ts).
// One request's JSON is made by `requestJson` alone, so the report can be written request by
// request.
import { placeOfLine, type FileLines } from '../joinedLines';
import type { AnalysisSnapshot } from '../analysis/streamAnalysis';
import type {
  AnalyzedRequest,
  Distribution,
  TimePerTokenSummary,
  TransfersTotalSummary,
  EdgeFieldStates,
  EdgeSummary,
  FieldNotRecordedCounts,
  OverallFieldStates,
  OverallSummaries,
  RunSummariesJson,
  RequestTransfer,
  SplitName,
  SplitState,
  StageSummary,
  TransferTxState,
} from '../analysis/types';
import type { FieldMap } from '../values';
import { cellToJson, toLogPrecision } from '../values';
import type { DeployConfigJson } from '../deployConfigUsed';
import type { StageRolesFrom } from '../stageRoles';
import { runSummariesJson } from '../analysis/runSummaries';
import { breakdownOf } from '../explain/breakdown';
import { breakdownJson, type BreakdownJson } from '../explain/breakdownJson';
import { prefillCoversDecode, reportedSplit } from '../analysis/oneOutputStage';
import { timingStageKeys } from '../analysis/timingSegments';

import type { HistogramSummary, PreemptionCount, SpeechStreamCounts } from '../metricsText/scrapeSummary';

export type HistogramSummaryJson = HistogramSummary;

/** A cell as printed: a number, text ("" for a blank cell; "nan", "inf", "-inf" for those numbers), or null for None. */
export type CellJson = number | string | null;

export interface StageJson {
  readonly stageId: number | null;
  readonly segment: number;
  /** The `replica_id` row: 0 when hidden (0 on every stage), null when it printed `None` (no replica id). */
  readonly replicaId: number | null;
  readonly kind: string;
  readonly fields: Record<string, CellJson>;
  /** For each `mean (n=N)` list cell of `fields`: N, the samples behind the mean. */
  readonly listCounts: Record<string, number>;
  readonly split: Readonly<Record<SplitName, number | null>>;
  readonly splitState: Readonly<Record<SplitName, SplitState>>;
  /** true: this stage emitted one output, when it stopped, so split.prefillMs covers its decode steps too (prefill+decode; oneOutputStage.ts). */
  readonly prefillCoversDecode: boolean;
}

export interface TransferJson {
  readonly fromStage: number | null;
  readonly toStage: number | null;
  /** The edge's TransferEdgeStats column as printed (hidden rows absent); {} without a column. */
  readonly fields: Record<string, CellJson>;
  /** Whether a TransferEdgeStats column was printed for the edge. */
  readonly tablePrinted: boolean;
  /** The edge's [OmniTiming] send time as printed, ms; null when absent. */
  readonly omniTimingTxMs: number | null;
  /** measured | notRecorded (0.00 with no measured tx_time_ms: no payload transfer recorded) | absent */
  readonly omniTimingTxState: TransferTxState;
}

export interface OmniTimingJson {
  readonly totalS: number | null;
  readonly preprocessS: number | null;
  readonly engineS: number | null;
  /** stage id -> seconds as printed. */
  readonly stages: Record<string, number>;
  /** `0->1` -> send time in ms as printed (see transfers[edge].omniTimingTxState for what a 0 means). */
  readonly transfers: Record<string, number>;
  readonly ar2diffusionMs: number | null;
  /** Any other key=value parts, verbatim. */
  readonly extra: Readonly<Record<string, string>>;
}

export interface RequestJson {
  readonly requestId: string;
  /** The server that printed it, in a log that merges several servers' (its lines' tag); absent otherwise. */
  readonly server?: string;
  readonly boot: number;
  readonly cold: boolean;
  readonly line: number;
  readonly timestamp: string | null;
  readonly complete: boolean;
  /** Whether a [StageRequestStats] table was printed (it is DEBUG-only); without one, stages come from [OmniTiming]. */
  readonly stageTable: boolean;
  readonly stages: Record<string, StageJson>;
  /** The [RequestE2EStats] table as printed. */
  readonly e2e: Record<string, CellJson>;
  readonly addedTimeToFirstOutputMs: Readonly<Record<string, number>>;
  /** Per edge `from->to`: the TransferEdgeStats column and the [OmniTiming] send time. */
  readonly transfers: Record<string, TransferJson>;
  readonly omniTiming: OmniTimingJson | null;
  /** The [Overall Summary] printed with this request's call (it covers `e2e_requests` requests); null when none. */
  readonly overallSummary: { readonly line: number; readonly fields: Record<string, CellJson> } | null;
  /** The parts of its end-to-end time (docs/breakdown.md). */
  readonly breakdown: BreakdownJson;
}

export interface EdgeSummaryJson {
  readonly fromStage: number | null;
  readonly toStage: number | null;
  readonly requestCount: number;
  readonly tableCount: number;
  readonly fields: Record<string, Distribution>;
  readonly fieldStates: Readonly<Record<string, EdgeFieldStates>>;
  readonly omniTimingTxMs: Distribution | null;
  readonly omniTimingTxStates: Readonly<Record<TransferTxState, number>>;
}

/** Every [Overall Summary] table, per field, one value per table (a table covers `e2e_requests` requests together). */
export interface OverallSummariesJson {
  readonly tables: number;
  readonly cutOffTables: number;
  readonly coveringSeveral: number;
  readonly fields: Record<string, Distribution>;
  readonly fieldStates: Readonly<Record<string, OverallFieldStates>>;
  readonly cellsLeftOut: number;
}

export interface AnalysisJson {
  readonly schema: 1;
  readonly requests: RequestJson[];
  readonly stageSummary: Record<string, Record<string, Distribution>>;
  /**
   * `states` counts every request once per split, in its own state (a one-output request's prefill
   * is measured, its decode notRecorded); `split` leaves out the prefill and decode of one-output
   * requests: their number is `prefillDecodeMs` over `oneOutputRequests`.
   */
  readonly splitSummary: Record<
    string,
    {
      readonly split: Partial<Record<SplitName, Distribution>>;
      readonly states: Record<SplitName, Record<SplitState, number>>;
      /** Per field, printed numbers left out of `stageSummary` as not measurements, by reason (`noOutput`); a field with none is absent. */
      readonly fieldsNotRecorded: Readonly<Record<string, FieldNotRecordedCounts>>;
      readonly addedTimeToFirstOutputMs: Distribution | null;
      readonly requestCount: number;
      readonly oneOutputRequests: number;
      readonly prefillDecodeMs: Distribution | null;
    }
  >;
  readonly replicaSummary: Record<string, Record<string, Distribution>>;
  /** Per transfer edge: p50/p90/p99 of each field over measured values only. */
  readonly edgeSummary: Record<string, EdgeSummaryJson>;
  /**
   * Each request's end-to-end time (e2e_total_ms, else its [OmniTiming] total=) over the requests
   * that printed one, `fromOmniTiming` of them from [OmniTiming] (10 ms resolution),
   * `requestsWithout` that printed none (or not a time); null when no request printed one.
   */
  readonly endToEnd:
    | (Distribution & {
        readonly fromOmniTiming: number;
        readonly requestsWithout: number;
        /** The legacy dicts' transfers_total_time_ms (ms) and transfers_total_bytes (KB), per request; absent when none printed them. */
        readonly transfersTotal?: TransfersTotalSummary;
        /** The dicts' time per output token (e2e_tpt, e2e_time_per_token_ms) over measured values, the 0.0s (no output token) counted by reason; absent when none printed one. */
        readonly timePerToken?: TimePerTokenSummary;
      })
    | null;
  /** Every [Overall Summary] table read, whether or not a request took it; null when none. */
  readonly overallSummaries: OverallSummariesJson | null;
  readonly histograms: HistogramSummaryJson[];
  /** A scrape's speech stream counters per model (vllm_omni:speech_stream_completed_total / _aborted_total); [] for a log. */
  readonly speechStreams: SpeechStreamCounts[];
  /**
   * A scrape's vllm:num_preemptions_total per (stage, replica) series, the counter's value since
   * the server started; null when the scrape has no such family (unknown, not 0) and for a log
   * (its preemptions are the requests' vllm_num_preemptions).
   */
  readonly preemptions: PreemptionCount[] | null;
  readonly findings: {
    code: string;
    severity: string;
    stageId: number | null;
    requestIds: readonly string[];
    requestCount: number;
    message: string;
  }[];
  /** `line` counts through the files when several were read as one log; `file` and `fileLine` then place it (absent for one input). */
  readonly problems: { line: number; message: string; file?: string; fileLine?: number }[];
  /** A log that merges several servers' (kubectl --prefix, docker compose, stern): per server, its requests and their end to end (ms); absent for a log of one server. */
  readonly servers?: readonly {
    readonly server: string;
    readonly requests: number;
    readonly e2eMs: Distribution | null;
  }[];
  /** Several files read as one log (oldest first): where each file's lines are in the line numbers given (`line` of requests and problems); absent for one input. */
  readonly inputFiles?: readonly FileLines[];
  readonly boots: number;
  /** Stats dicts in vLLM-Omni's format before February 2026 (their request_level_metrics dicts give requests; see the legacy-stats-format finding). */
  readonly legacyRecords: number;
  /** Requests read from that format's request_level_metrics dicts: values as printed, no phase split. */
  readonly legacyRequests: number;
  /**
   * Run-level summary dicts and blocks (omni.py [Summary], the single-line summary dict, PR #3069's
   * "Omni Metrics Summary"): how many, and the latest 20 with their numbers as printed; null when none.
   * In `values`, a key printed as `None` is null (not measured), a key not printed is absent, a
   * printed nan / inf / -inf is that string (null is None).
   */
  readonly runSummaries: RunSummariesJson | null;
  /** Stage id -> role ("1" -> "code2wav") where the source names a known pipeline (server/core/stageRoles.ts); {} otherwise. */
  readonly stageRoles: Readonly<Record<string, string>>;
  /** Where `stageRoles` came from ('session' in a session export). Set by analyze and the export, after analysisJsonRest. */
  readonly stageRolesFrom?: StageRolesFrom;
  /** The deploy config (--deploy-config; a session export's, the session's) and whether its settings are cited. Set as stageRolesFrom. */
  readonly deployConfig?: DeployConfigJson;
  /** With --since/--until only: the window (log times, null: open) and the requests it left out. */
  readonly window?: WindowJson;
  /** With --boot only: the boot kept, the requests of other boots left out, and every boot with requests. */
  readonly boot?: BootJson;
}

export interface BootJson {
  readonly selected: number;
  readonly requestsOutside: number;
  readonly boots: readonly { readonly boot: number; readonly requests: number }[];
}

export interface WindowJson {
  readonly from: string | null;
  readonly to: string | null;
  readonly requestsOutside: number;
  /** Requests whose lines carry no log time: no window holds them. */
  readonly requestsWithoutTime: number;
  /** Whether the window was placed on the log's clock: false when the log prints no time (`from` and `to` are then null). */
  readonly placed: boolean;
}

function fieldsJson(fields: FieldMap): Record<string, CellJson> {
  const out: Record<string, CellJson> = {};
  for (const name in fields) out[name] = cellToJson(fields[name]);
  return out;
}

function listCountsJson(fields: FieldMap): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name in fields) {
    const cell = fields[name];
    if (cell.state === 'measured' && cell.sampleCount !== undefined) out[name] = cell.sampleCount;
  }
  return out;
}

function transferJson(t: RequestTransfer): TransferJson {
  return {
    fromStage: t.fromStage,
    toStage: t.toStage,
    fields: fieldsJson(t.fields),
    tablePrinted: t.tablePrinted,
    omniTimingTxMs: t.omniTimingTxMs,
    omniTimingTxState: t.omniTimingTxState,
  };
}

function omniTimingJson(r: AnalyzedRequest): OmniTimingJson | null {
  const t = r.timing;
  if (t === null) return null;
  const stages: Record<string, number> = {};
  const keys = timingStageKeys(t.stages);
  t.stages.forEach((s, i) => (stages[keys[i] as string] = s.seconds));
  const transfers: Record<string, number> = {};
  for (const x of t.transfers) transfers[`${x.fromStage}->${x.toStage}`] = x.ms;
  return {
    totalS: t.totalS,
    preprocessS: t.preprocessS,
    engineS: t.engineS,
    stages,
    transfers,
    ar2diffusionMs: t.ar2diffusionMs,
    extra: t.extra,
  };
}

/** Derived numbers at the log's precision. */
function derivedJson(values: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k in values) out[k] = toLogPrecision(values[k]);
  return out;
}

/** The end-to-end summary's legacy transfer totals, at the log's precision; nothing when absent. */
function transfersTotalJson(t: TransfersTotalSummary | undefined): { transfersTotal?: TransfersTotalSummary } {
  if (t === undefined) return {};
  return {
    transfersTotal: {
      timeMs: t.timeMs === null ? null : distributionJson(t.timeMs),
      kbytes: t.kbytes === null ? null : distributionJson(t.kbytes),
      requests: t.requests,
      timeNotATime: t.timeNotATime,
    },
  };
}

export function distributionJson(d: Distribution): Distribution {
  return {
    count: d.count,
    mean: toLogPrecision(d.mean),
    p50: toLogPrecision(d.p50),
    p90: toLogPrecision(d.p90),
    p99: toLogPrecision(d.p99),
    max: toLogPrecision(d.max),
  };
}

function distributionsJson<K extends string>(
  ds: Readonly<Partial<Record<K, Distribution>>>,
): Partial<Record<K, Distribution>> {
  const out: Partial<Record<K, Distribution>> = {};
  for (const k in ds) {
    const d = ds[k];
    if (d !== undefined) out[k] = distributionJson(d);
  }
  return out;
}

/** One request of `requests` (the one place that says what a request's JSON holds). */
export function requestJson(r: AnalyzedRequest): RequestJson {
  const stages: Record<string, StageJson> = {};
  for (const s of r.stages) {
    const oneOutput = prefillCoversDecode(r, s);
    const split = reportedSplit(s, oneOutput);
    stages[s.stageKey] = {
      stageId: s.stageId,
      segment: s.segment,
      replicaId: s.replicaId,
      kind: s.kind,
      fields: fieldsJson(s.fields),
      listCounts: listCountsJson(s.fields),
      split: derivedSplit(split.values, split.states),
      splitState: split.states,
      prefillCoversDecode: oneOutput,
    };
  }
  const transfers: Record<string, TransferJson> = {};
  for (const t of r.transfers) transfers[t.edge] = transferJson(t);
  return {
    requestId: r.requestId,
    ...(r.server === undefined ? {} : { server: r.server }),
    boot: r.boot,
    cold: r.cold,
    line: r.line,
    timestamp: r.timestamp,
    complete: r.complete,
    stageTable: r.hasStageTable,
    stages,
    e2e: fieldsJson(r.e2e),
    addedTimeToFirstOutputMs: derivedJson(r.derived.addedTimeToFirstOutputMs),
    transfers,
    omniTiming: omniTimingJson(r),
    overallSummary:
      r.overallSummary === null ? null : { line: r.overallSummary.line, fields: fieldsJson(r.overallSummary.fields) },
    breakdown: breakdownJson(breakdownOf(r)),
  };
}

/** Split values: printed ones as printed, inferred ones at the log's precision. */
function derivedSplit(
  values: Readonly<Record<SplitName, number | null>>,
  states: Readonly<Record<SplitName, SplitState>>,
): Record<SplitName, number | null> {
  const out = { ...values };
  for (const k in out) {
    const name = k as SplitName;
    const v = out[name];
    if (v !== null && states[name] === 'inferred') out[name] = toLogPrecision(v);
  }
  return out;
}

export function edgeSummaryJson(e: EdgeSummary): EdgeSummaryJson {
  return {
    fromStage: e.fromStage,
    toStage: e.toStage,
    requestCount: e.requestCount,
    tableCount: e.tableCount,
    fields: distributionsJson(e.fields) as Record<string, Distribution>,
    fieldStates: e.fieldStates,
    omniTimingTxMs: e.omniTimingTxMs === null ? null : distributionJson(e.omniTimingTxMs),
    omniTimingTxStates: e.omniTimingTxStates,
  };
}

export function overallSummariesJson(o: OverallSummaries): OverallSummariesJson {
  return {
    tables: o.tables,
    cutOffTables: o.cutOffTables,
    coveringSeveral: o.coveringSeveral,
    fields: distributionsJson(o.fields) as Record<string, Distribution>,
    fieldStates: o.fieldStates,
    cellsLeftOut: o.cellsLeftOut,
  };
}

/** Everything of the analysis JSON after `requests`, in order. */
export type AnalysisJsonRest = Omit<AnalysisJson, 'schema' | 'requests'>;

/** The split's state counts over every request: a one-output request's prefill and decode in their own states. */
function allSplitStates(s: StageSummary): Record<SplitName, Record<SplitState, number>> {
  if (s.oneOutputRequests === 0) return s.splitStates;
  const states = { ...s.splitStates };
  for (const name of ['prefillMs', 'decodeMs'] as const) {
    const own = s.oneOutputSplitStates[name];
    const counts = { ...states[name] };
    for (const state of Object.keys(counts) as SplitState[]) counts[state] += own[state];
    states[name] = counts;
  }
  return states;
}

export function analysisJsonRest(
  snapshot: AnalysisSnapshot,
  histograms: HistogramSummaryJson[] = [],
  speechStreams: SpeechStreamCounts[] = [],
  stageRoles: Readonly<Record<string, string>> = {},
  preemptions: PreemptionCount[] | null = null,
): AnalysisJsonRest {
  const stageSummary: AnalysisJson['stageSummary'] = {};
  const splitSummary: AnalysisJson['splitSummary'] = {};
  for (const s of snapshot.stages) {
    stageSummary[s.stageKey] = distributionsJson(s.fields) as Record<string, Distribution>;
    splitSummary[s.stageKey] = {
      split: distributionsJson(s.split),
      states: allSplitStates(s),
      fieldsNotRecorded: s.fieldsNotRecorded,
      addedTimeToFirstOutputMs:
        s.addedTimeToFirstOutputMs === null ? null : distributionJson(s.addedTimeToFirstOutputMs),
      requestCount: s.requestCount,
      oneOutputRequests: s.oneOutputRequests,
      prefillDecodeMs: s.prefillDecodeMs === null ? null : distributionJson(s.prefillDecodeMs),
    };
  }
  const replicaSummary: AnalysisJson['replicaSummary'] = {};
  for (const s of snapshot.replicas)
    replicaSummary[`${s.stageKey}/${s.replicaId ?? 0}`] = distributionsJson(s.fields) as Record<string, Distribution>;
  const edgeSummary: AnalysisJson['edgeSummary'] = {};
  for (const e of snapshot.edges) edgeSummary[e.edge] = edgeSummaryJson(e);
  return {
    stageSummary,
    splitSummary,
    replicaSummary,
    edgeSummary,
    endToEnd:
      snapshot.endToEnd === null
        ? null
        : {
            ...distributionJson(snapshot.endToEnd.ms),
            fromOmniTiming: snapshot.endToEnd.fromOmniTiming,
            requestsWithout: snapshot.requestCount - snapshot.coldLeftOut - snapshot.endToEnd.ms.count,
            ...transfersTotalJson(snapshot.endToEnd.transfersTotal),
            ...(snapshot.endToEnd.timePerToken === undefined
              ? {}
              : {
                  timePerToken: {
                    ...snapshot.endToEnd.timePerToken,
                    ms:
                      snapshot.endToEnd.timePerToken.ms === null
                        ? null
                        : distributionJson(snapshot.endToEnd.timePerToken.ms),
                  },
                }),
          },
    overallSummaries: snapshot.overallSummaries === null ? null : overallSummariesJson(snapshot.overallSummaries),
    histograms,
    speechStreams,
    preemptions,
    findings: snapshot.findings.map((f) => ({
      code: f.code,
      severity: f.severity,
      stageId: f.stageId,
      requestIds: f.requestIds,
      requestCount: f.requestCount,
      message: f.message,
    })),
    problems: problemsJson(snapshot.problems),
    boots: snapshot.boots,
    legacyRecords: snapshot.legacyRecords,
    legacyRequests: snapshot.legacyRequests,
    runSummaries: snapshot.runSummaries === null ? null : runSummariesJson(snapshot.runSummaries),
    stageRoles,
    ...(snapshot.servers === null
      ? {}
      : {
          servers: snapshot.servers.map((s) => ({
            server: s.server,
            requests: s.requests,
            e2eMs: s.e2eMs === null ? null : distributionJson(s.e2eMs),
          })),
        }),
  };
}

/** The problems as the JSON gives them; of several files read as one log (`fileLines`), each placed in its file. */
export function problemsJson(
  problems: readonly { readonly line: number; readonly message: string }[],
  fileLines?: readonly FileLines[],
): AnalysisJson['problems'] {
  return problems.map((p) => {
    const place = fileLines === undefined ? null : placeOfLine(fileLines, p.line);
    return place === null
      ? { line: p.line, message: p.message }
      : { line: p.line, message: p.message, file: place.file, fileLine: place.line };
  });
}

export function analysisJson(
  snapshot: AnalysisSnapshot,
  histograms: HistogramSummaryJson[] = [],
  speechStreams: SpeechStreamCounts[] = [],
): AnalysisJson {
  return {
    schema: 1,
    requests: snapshot.requests.map(requestJson),
    ...analysisJsonRest(snapshot, histograms, speechStreams),
  };
}
