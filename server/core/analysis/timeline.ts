// Waterfall geometry of one request. The log gives durations, not start times, so each
// stage is placed by a rule that the segment carries:
//  anchored       first output (serving_time_to_first_output_ms, measured from the
//                 request's arrival) minus prefill minus queued gives the stage's QUEUED
//                 time; phases follow in order. Durations measured, position derived.
//  async-start    no anchor: the stage is drawn from 0, as under async chunk a downstream
//                 stage is submitted together with stage 0. Position assumed.
//  after-upstream no anchor and not first: drawn after the upstream stage ends (full
//                 payload hand-off). Position assumed.
//  alongside      as after-upstream, but there the stage would end after the request did
//                 (e2e_total_ms): it cannot have started that late, so it is drawn from 0,
//                 alongside its upstream (async chunk; e.g. a cold codec whose input wait
//                 covers stage 0's start-up). Position assumed.
// Stages overlap as they do under async chunk; nothing here forces them apart.
import { numberOf } from '../values';
import { prefillCoversDecode } from './oneOutputStage';
import type { AnalyzedRequest, RequestStage, TimelineSegment } from './types';

const RULE_ANCHORED = 'anchored: start = serving_time_to_first_output_ms - prefill - queued';
const RULE_ASYNC = 'assumed: drawn from the request arrival (async chunk submits downstream stages with stage 0); no measured anchor';
const RULE_AFTER = 'assumed: drawn after the upstream stage ends; no measured anchor';
const RULE_ALONGSIDE =
  'assumed: drawn from the request arrival, alongside the upstream stage: drawn after it, the stage would end after the request (e2e_total_ms); no measured anchor';
/** Printing rounds to 1 µs; a stage ending this little after the request still fits. */
const E2E_SLACK_MS = 0.01;

function anchorOf(stage: RequestStage): number | null {
  const firstOutput = numberOf(stage.fields, 'serving_time_to_first_output_ms');
  const { queuedMs, prefillMs } = stage.split.values;
  if (firstOutput === undefined || firstOutput <= 0 || queuedMs === null || prefillMs === null) return null;
  if (stage.split.states.ttftMs === 'notRecorded') return null;
  return Math.max(0, firstOutput - prefillMs - queuedMs);
}

/** How long the stage is drawn: the server's submit-to-finish time, or its phases when that is missing. */
function drawnLength(stage: RequestStage): number {
  const genTime = genTimeOf(stage);
  if (Number.isFinite(genTime)) return genTime;
  const { inputWaitMs, readyQueuedMs, queuedMs, prefillMs, decodeMs } = stage.split.values;
  const queued = inputWaitMs !== null && readyQueuedMs !== null ? inputWaitMs + readyQueuedMs : (queuedMs ?? 0);
  return Math.max(0, queued) + Math.max(0, prefillMs ?? 0) + Math.max(0, decodeMs ?? 0);
}

function genTimeOf(stage: RequestStage): number {
  return numberOf(stage.fields, 'stage_gen_time_ms') ?? (numberOf(stage.fields, 'omni_timing_stage_s') ?? NaN) * 1000;
}

/** Where a stage without an anchor starts, and the rule that put it there. */
function assumedStart(stage: RequestStage, index: number, upstreamEnd: number | null, e2eTotal: number | undefined): { start: number; rule: string } {
  if (index === 0 || upstreamEnd === null) return { start: 0, rule: RULE_ASYNC };
  if (e2eTotal !== undefined && upstreamEnd + drawnLength(stage) > e2eTotal + E2E_SLACK_MS) return { start: 0, rule: RULE_ALONGSIDE };
  return { start: upstreamEnd, rule: RULE_AFTER };
}

export function timelineOf(request: AnalyzedRequest): TimelineSegment[] {
  const out: TimelineSegment[] = [];
  const stages = [...request.stages].sort((a, b) => (a.stageId ?? 0) - (b.stageId ?? 0) || a.segment - b.segment);
  const e2eTotal = numberOf(request.e2e, 'e2e_total_ms');
  let upstreamEnd: number | null = null;
  stages.forEach((stage, index) => {
    const anchor = anchorOf(stage);
    const assumed = anchor === null ? assumedStart(stage, index, upstreamEnd, e2eTotal) : null;
    const start = anchor ?? (assumed as { start: number }).start;
    const provenance = anchor === null ? 'reconstructed' : 'measured';
    const rule = assumed === null ? RULE_ANCHORED : assumed.rule;
    const { inputWaitMs, readyQueuedMs, queuedMs, prefillMs, decodeMs } = stage.split.values;
    let t = start;
    const push = (phase: TimelineSegment['phase'], ms: number | null): void => {
      if (ms === null || ms < 0) return;
      out.push({ stageKey: stage.stageKey, phase, startMs: t, endMs: t + ms, provenance, rule });
      t += ms;
    };
    if (inputWaitMs !== null && readyQueuedMs !== null) {
      push('inputWait', inputWaitMs);
      push('readyQueued', readyQueuedMs);
    } else {
      push('queued', queuedMs);
    }
    // A one-output stage's prefill runs to its one output at the end: one segment, prefill+decode.
    if (prefillCoversDecode(request, stage)) push('prefillDecode', prefillMs);
    else {
      push('prefill', prefillMs);
      push('decode', decodeMs);
    }
    const genTime = genTimeOf(stage);
    const stageEnd = Number.isFinite(genTime) ? start + genTime : t;
    // The whole stage as the server timed it (submit -> finished), drawn behind the phases.
    if (Number.isFinite(genTime)) out.push({ stageKey: stage.stageKey, phase: 'stage', startMs: start, endMs: stageEnd, provenance, rule });
    upstreamEnd = Math.max(stageEnd, t);
  });
  return out;
}
