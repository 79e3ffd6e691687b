// Where each stage of a request sits on the request's clock (ms from the client request's
// arrival). The log gives durations, not start times, so each stage is placed by a rule:
//  anchored       first output (serving_time_to_first_output_ms, measured from the
//                 request's arrival) minus prefill minus queued gives the stage's QUEUED
//                 time. Durations measured, position derived from a measured time.
//  async-start    no anchor: the first stage starts at the floor (the request's arrival,
//                 or the end of preprocessing when that is known); under async chunk the
//                 downstream stages are submitted together with stage 0. Position assumed.
//  after-upstream no anchor and not first: after the upstream stage ends (full payload
//                 hand-off). Position assumed.
// An anchor that falls before the request's arrival, or would end the stage well after the
// request (e2e), is rejected (the first output was not the stage's own, or was held back,
// as the codec's are under talker first audio) and a rule below applies.
//  alongside      as after-upstream, but there the stage would end after the request did
//                 (e2e_total_ms): it cannot have started that late, so it starts at the
//                 floor, alongside its upstream (async chunk). Position assumed.
// Whether a stage ran while its upstream stage still worked is known only from positions that
// are not assumed: an anchored stage starting before the end of an upstream stage that is
// anchored or first (it starts at the floor), or a stage that cannot have started after its
// upstream (alongside). A stage drawn after its upstream by assumption says nothing.
// Used by the waterfall (timeline.ts, floor 0) and the additive breakdown (floor = preprocess).
import { FIRST_OUTPUT_FIELD, measurementOf } from './unrecordedValues';
import { numberOf } from '../values';
import type { AnalyzedRequest, RequestStage } from './types';

export const RULE_ANCHORED = 'anchored: start = serving_time_to_first_output_ms - prefill - queued';
const RULE_ASYNC_FROM_ARRIVAL =
  'assumed: drawn from the request arrival (async chunk submits downstream stages with stage 0); no measured anchor';
const RULE_ASYNC_FROM_PREPROCESS =
  'assumed: starts when preprocessing ends (async chunk submits downstream stages with stage 0); no measured anchor';
const RULE_ANCHOR_BEFORE_ARRIVAL =
  "first output minus prefill minus queued falls before the request arrived (the first output was not this stage's own, e.g. the talker's first audio frame), so: ";
/** A stage may end this share of its length after the request before its anchor is rejected (the printed values are rounded and the first output is taken at the orchestrator). */
const OVERRUN_SHARE = 0.05;
/** Rounding of three printed values. */
const ANCHOR_SLACK_MS = 0.01;
const RULE_ANCHOR_REJECTED =
  'first output minus prefill minus queued would end the stage after the request (its first output was held back), so: ';
const RULE_AFTER = 'assumed: drawn after the upstream stage ends; no measured anchor';
const RULE_ALONGSIDE_FROM_ARRIVAL =
  'assumed: drawn from the request arrival, alongside the upstream stage: drawn after it, the stage would end after the request (e2e_total_ms); no measured anchor';
const RULE_ALONGSIDE_FROM_PREPROCESS =
  'assumed: starts when preprocessing ends, alongside the upstream stage: started after it, the stage would end after the request (e2e_total_ms); no measured anchor';
/** Printing rounds to 1 µs; a stage ending this little after the request still fits. */
const E2E_SLACK_MS = 0.01;
/** [OmniTiming] prints seconds with 2 decimals: a stage may seem to end up to 10 ms late. */
const TIMING_SLACK_MS = 10;

export interface StagePlacement {
  readonly stage: RequestStage;
  /** Start on the request's clock, ms. */
  readonly startMs: number;
  /** max(start + stage_gen_time_ms, end of its phases). */
  readonly endMs: number;
  readonly anchored: boolean;
  readonly rule: string;
  /** Ran while the stage before it still worked (true), did not (false), or unknown (null; the first stage too). */
  readonly alongsideUpstream: boolean | null;
}

const GEN_TIME = 'stage_gen_time_ms';

/**
 * stage_gen_time_ms, or the [OmniTiming] stage seconds when the table is missing; NaN when
 * neither, or when stage_gen_time_ms printed a number that is not a time (negative, nan, inf).
 */
export function genTimeOf(stage: RequestStage): number {
  const cell = stage.fields[GEN_TIME];
  if (cell !== undefined && cell.state === 'measured') return measurementOf(GEN_TIME, cell) ?? NaN;
  return (numberOf(stage.fields, 'omni_timing_stage_s') ?? NaN) * 1000;
}

/** The stage's queued time: input wait + ready queued when both are numbers, else vllm_queued_ms. */
export function queuedOf(stage: RequestStage): number | null {
  const { inputWaitMs, readyQueuedMs, queuedMs } = stage.split.values;
  return inputWaitMs !== null && readyQueuedMs !== null ? inputWaitMs + readyQueuedMs : queuedMs;
}

/** The measured anchor, unclamped (it may fall before the request's arrival); null when there is none. */
function rawAnchorOf(stage: RequestStage): number | null {
  const firstOutput = measurementOf(FIRST_OUTPUT_FIELD, stage.fields[FIRST_OUTPUT_FIELD]);
  const { queuedMs, prefillMs } = stage.split.values;
  if (firstOutput === undefined || queuedMs === null || prefillMs === null) return null;
  if (stage.split.states.ttftMs === 'notRecorded') return null;
  return firstOutput - prefillMs - queuedMs;
}

/** Sum of the phases that are numbers (negative values do not advance the clock). */
function phasesLength(stage: RequestStage): number {
  const { inputWaitMs, readyQueuedMs, queuedMs, prefillMs, decodeMs } = stage.split.values;
  const queued =
    inputWaitMs !== null && readyQueuedMs !== null
      ? Math.max(0, inputWaitMs) + Math.max(0, readyQueuedMs)
      : Math.max(0, queuedMs ?? 0);
  return queued + Math.max(0, prefillMs ?? 0) + Math.max(0, decodeMs ?? 0);
}

/** The order of stages on the clock: stage id, then segment. */
const byStageOrder = (a: RequestStage, b: RequestStage): number =>
  (a.stageId ?? 0) - (b.stageId ?? 0) || a.segment - b.segment;

/** The request's stages in order (stage id, then segment); as they are when they are in order already (they nearly always are). */
function orderedStages(request: AnalyzedRequest): readonly RequestStage[] {
  const stages = request.stages;
  for (let i = 1; i < stages.length; i++)
    if (byStageOrder(stages[i - 1] as RequestStage, stages[i] as RequestStage) > 0)
      return [...stages].sort(byStageOrder);
  return stages;
}

/** Every stage of the request placed on its clock; stages without an anchor never start before `floorMs`. */
export function placeStages(request: AnalyzedRequest, floorMs = 0): StagePlacement[] {
  const e2e = numberOf(request.e2e, 'e2e_total_ms');
  const timingTotal = request.timing?.totalS ?? null;
  const e2eTotal = e2e ?? (timingTotal === null ? undefined : timingTotal * 1000);
  const slack = e2e !== undefined ? E2E_SLACK_MS : TIMING_SLACK_MS;
  const fromPreprocess = floorMs > 0;
  const out: StagePlacement[] = [];
  let upstreamEnd: number | null = null;
  /** The upstream stage's end is a placed position, not an assumed one. */
  let upstreamEndKnown = false;
  const stages = orderedStages(request);
  for (let index = 0; index < stages.length; index++) {
    const stage = stages[index] as RequestStage;
    const genTime = genTimeOf(stage);
    const phases = phasesLength(stage);
    // Its length as drawn: the generation time, or its phases without one.
    const drawn = Number.isFinite(genTime) ? genTime : phases;
    let anchor = rawAnchorOf(stage);
    let prefix = '';
    // An anchor that contradicts the request's own bounds is not the stage's position: a first
    // output before the phases could have produced it (the talker's first audio frame passed
    // through the codec), or after them (held-back outputs replayed under talker first audio).
    if (anchor !== null && anchor < -ANCHOR_SLACK_MS) {
      anchor = null;
      prefix = RULE_ANCHOR_BEFORE_ARRIVAL;
    } else if (
      anchor !== null &&
      e2eTotal !== undefined &&
      anchor + drawn > e2eTotal + Math.max(slack, OVERRUN_SHARE * drawn)
    ) {
      anchor = null;
      prefix = RULE_ANCHOR_REJECTED;
    }
    if (anchor !== null) anchor = Math.max(0, anchor);
    let start: number;
    let rule: string;
    let alongsideUpstream: boolean | null = null;
    if (anchor !== null) {
      start = anchor;
      rule = RULE_ANCHORED;
      if (index > 0 && upstreamEnd !== null && upstreamEndKnown) alongsideUpstream = start < upstreamEnd - slack;
    } else if (index === 0 || upstreamEnd === null) {
      start = floorMs;
      rule = fromPreprocess ? RULE_ASYNC_FROM_PREPROCESS : RULE_ASYNC_FROM_ARRIVAL;
    } else if (e2eTotal !== undefined && upstreamEnd + drawn > e2eTotal + slack) {
      start = floorMs;
      rule = fromPreprocess ? RULE_ALONGSIDE_FROM_PREPROCESS : RULE_ALONGSIDE_FROM_ARRIVAL;
      alongsideUpstream = true;
    } else {
      start = upstreamEnd;
      rule = RULE_AFTER;
    }
    if (prefix !== '') rule = prefix + rule;
    const phasesEnd = start + phases;
    const endMs = Number.isFinite(genTime) ? Math.max(start + genTime, phasesEnd) : phasesEnd;
    out.push({ stage, startMs: start, endMs, anchored: anchor !== null, rule, alongsideUpstream });
    upstreamEnd = endMs;
    upstreamEndKnown = anchor !== null || index === 0;
  }
  return out;
}
