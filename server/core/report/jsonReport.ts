// `analyze --format json` (schema 1). In `fields` an absent (hidden) row is left out and
// an explicit None is null; split values are numbers or null, and `splitState` says
// which of measured / notMeasured / hidden / notRecorded / inferred each one is.
import type { AnalysisSnapshot } from '../analysis/streamAnalysis';
import type { AnalyzedRequest, Distribution, SplitName, SplitState } from '../analysis/types';
import type { FieldMap } from '../values';
import { cellToJson } from '../values';
import { prefillCoversDecode } from '../analysis/oneOutputStage';

import type { HistogramSummary } from '../promSummary';

export type HistogramSummaryJson = HistogramSummary;

export interface StageJson {
  readonly stageId: number | null;
  readonly segment: number;
  readonly replicaId: number;
  readonly kind: string;
  readonly fields: Record<string, number | string | null>;
  readonly split: Readonly<Record<SplitName, number | null>>;
  readonly splitState: Readonly<Record<SplitName, SplitState>>;
  /** true: this stage emitted one output, when it stopped, so split.prefillMs covers its decode steps too (prefill+decode; oneOutputStage.ts). */
  readonly prefillCoversDecode: boolean;
}

export interface RequestJson {
  readonly requestId: string;
  readonly boot: number;
  readonly cold: boolean;
  readonly line: number;
  readonly timestamp: string | null;
  readonly complete: boolean;
  readonly stages: Record<string, StageJson>;
  readonly e2e: Record<string, number>;
  readonly addedTimeToFirstOutputMs: Readonly<Record<string, number>>;
  readonly omniTiming: { readonly totalS: number | null; readonly stages: Record<string, number> } | null;
}

export interface AnalysisJson {
  readonly schema: 1;
  readonly requests: RequestJson[];
  readonly stageSummary: Record<string, Record<string, Distribution>>;
  /** `split` and `states` leave out the prefill and decode of one-output requests: those are `prefillDecodeMs` over `oneOutputRequests`. */
  readonly splitSummary: Record<
    string,
    {
      readonly split: Partial<Record<SplitName, Distribution>>;
      readonly states: Record<SplitName, Record<SplitState, number>>;
      readonly addedTimeToFirstOutputMs: Distribution | null;
      readonly requestCount: number;
      readonly oneOutputRequests: number;
      readonly prefillDecodeMs: Distribution | null;
    }
  >;
  readonly replicaSummary: Record<string, Record<string, Distribution>>;
  readonly histograms: HistogramSummaryJson[];
  readonly findings: { code: string; severity: string; stageId: number | null; requestIds: readonly string[]; requestCount: number; message: string }[];
  readonly problems: { line: number; message: string }[];
  readonly boots: number;
}

function fieldsJson(fields: FieldMap): Record<string, number | string | null> {
  const out: Record<string, number | string | null> = {};
  for (const [name, cell] of Object.entries(fields)) out[name] = cellToJson(cell);
  return out;
}

function numbersOnly(fields: FieldMap): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, cell] of Object.entries(fields)) if (cell.state === 'measured') out[name] = cell.value;
  return out;
}

export function requestJson(r: AnalyzedRequest): RequestJson {
  const stages: Record<string, StageJson> = {};
  for (const s of r.stages) {
    stages[s.stageKey] = { stageId: s.stageId, segment: s.segment, replicaId: s.replicaId, kind: s.kind, fields: fieldsJson(s.fields), split: s.split.values, splitState: s.split.states, prefillCoversDecode: prefillCoversDecode(r, s) };
  }
  return {
    requestId: r.requestId,
    boot: r.boot,
    cold: r.cold,
    line: r.line,
    timestamp: r.timestamp,
    complete: r.complete,
    stages,
    e2e: numbersOnly(r.e2e),
    addedTimeToFirstOutputMs: r.derived.addedTimeToFirstOutputMs,
    omniTiming: r.timing === null ? null : { totalS: r.timing.totalS, stages: Object.fromEntries(r.timing.stages.map((s) => [String(s.stageId), s.seconds])) },
  };
}

export function analysisJson(snapshot: AnalysisSnapshot, histograms: HistogramSummaryJson[] = []): AnalysisJson {
  const stageSummary: AnalysisJson['stageSummary'] = {};
  const splitSummary: AnalysisJson['splitSummary'] = {};
  for (const s of snapshot.stages) {
    stageSummary[s.stageKey] = { ...s.fields };
    splitSummary[s.stageKey] = { split: s.split, states: s.splitStates, addedTimeToFirstOutputMs: s.addedTimeToFirstOutputMs, requestCount: s.requestCount, oneOutputRequests: s.oneOutputRequests, prefillDecodeMs: s.prefillDecodeMs };
  }
  const replicaSummary: AnalysisJson['replicaSummary'] = {};
  for (const s of snapshot.replicas) replicaSummary[`${s.stageKey}/${s.replicaId ?? 0}`] = { ...s.fields };
  return {
    schema: 1,
    requests: snapshot.requests.map(requestJson),
    stageSummary,
    splitSummary,
    replicaSummary,
    histograms,
    findings: snapshot.findings.map((f) => ({ code: f.code, severity: f.severity, stageId: f.stageId, requestIds: f.requestIds, requestCount: f.requestCount, message: f.message })),
    problems: snapshot.problems.map((p) => ({ line: p.line, message: p.message })),
    boots: snapshot.boots,
  };
}
