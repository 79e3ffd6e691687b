// Waterfall geometry of one request. The log gives durations, not start times, so each
// stage is placed by a rule that the segment carries:
//  anchored       first output (serving_time_to_first_output_ms, measured from the
//                 request's arrival) minus prefill minus queued gives the stage's QUEUED
//                 time; phases follow in order. Durations measured, position derived.
//  async-start    no anchor: the stage is drawn from 0, as under async chunk a downstream
//                 stage is submitted together with stage 0. Position assumed.
//  after-upstream no anchor and not first: drawn after the upstream stage ends (full
//                 payload hand-off). Position assumed.
// Stages overlap as they do under async chunk; nothing here forces them apart.
import { numberOf } from '../values';
import type { AnalyzedRequest, RequestStage, TimelineSegment } from './types';

const RULE_ANCHORED = 'anchored: start = serving_time_to_first_output_ms - prefill - queued';
const RULE_ASYNC = 'assumed: drawn from the request arrival (async chunk submits downstream stages with stage 0); no measured anchor';
const RULE_AFTER = 'assumed: drawn after the upstream stage ends; no measured anchor';

function anchorOf(stage: RequestStage): number | null {
  const firstOutput = numberOf(stage.fields, 'serving_time_to_first_output_ms');
  const { queuedMs, prefillMs } = stage.split.values;
  if (firstOutput === undefined || firstOutput <= 0 || queuedMs === null || prefillMs === null) return null;
  if (stage.split.states.ttftMs === 'notRecorded') return null;
  return Math.max(0, firstOutput - prefillMs - queuedMs);
}

export function timelineOf(request: AnalyzedRequest): TimelineSegment[] {
  const out: TimelineSegment[] = [];
  const stages = [...request.stages].sort((a, b) => (a.stageId ?? 0) - (b.stageId ?? 0) || a.segment - b.segment);
  let upstreamEnd: number | null = null;
  stages.forEach((stage, index) => {
    const anchor = anchorOf(stage);
    const start = anchor ?? (index === 0 || upstreamEnd === null ? 0 : upstreamEnd);
    const provenance = anchor === null ? 'reconstructed' : 'measured';
    const rule = anchor !== null ? RULE_ANCHORED : index === 0 || upstreamEnd === null ? RULE_ASYNC : RULE_AFTER;
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
    push('prefill', prefillMs);
    push('decode', decodeMs);
    const genTime = numberOf(stage.fields, 'stage_gen_time_ms') ?? (numberOf(stage.fields, 'omni_timing_stage_s') ?? NaN) * 1000;
    const stageEnd = Number.isFinite(genTime) ? start + genTime : t;
    // The whole stage as the server timed it (submit -> finished), drawn behind the phases.
    if (Number.isFinite(genTime)) out.push({ stageKey: stage.stageKey, phase: 'stage', startMs: start, endMs: stageEnd, provenance, rule });
    upstreamEnd = Math.max(stageEnd, t);
  });
  return out;
}
