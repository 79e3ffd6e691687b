// Waterfall geometry of one request: each stage placed on the request's clock by the rules
// of stagePlacement.ts (anchored on a measured first output, or assumed), its phases in
// order from there, and the whole stage as the server timed it (submit -> finished) drawn
// behind them. Stages overlap as they do under async chunk; nothing here forces them apart.
import type { AnalyzedRequest, TimelineSegment } from './types';
import { genTimeOf, placeStages } from './stagePlacement';
import { prefillCoversDecode } from './oneOutputStage';
import { preprocessOf } from './preprocess';

export function timelineOf(request: AnalyzedRequest): TimelineSegment[] {
  const out: TimelineSegment[] = [];
  // After the preprocessing, as the breakdown places them (preprocess.ts).
  for (const { stage, startMs: start, anchored, rule } of placeStages(request, preprocessOf(request)?.ms ?? 0)) {
    const provenance = anchored ? 'measured' : 'reconstructed';
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
    if (Number.isFinite(genTime))
      out.push({ stageKey: stage.stageKey, phase: 'stage', startMs: start, endMs: start + genTime, provenance, rule });
  }
  return out;
}
