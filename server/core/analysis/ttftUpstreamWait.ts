// A downstream stage's TTFT that includes a wait for upstream output (finding
// ttft-includes-upstream-wait): TTFT is arrival to the first output handled, queued + prefill
// is arrival to the first token; held apart, the first output waited for something upstream
// (under talker first audio, the codec's outputs are replayed after the talker's first-audio
// frame). The finding and explain's tail read it with this one rule.
import { prefillCoversDecode } from './oneOutputStage';
import type { AnalyzedRequest, RequestStage } from './types';

/** A downstream TTFT this much over queued + prefill (and this share of it) waited for something else: output handling takes a few ms. */
const TTFT_GAP_MS = 50;
const TTFT_GAP_SHARE = 0.1;

/** By how much the stage's TTFT exceeds its queued + prefill where that is a wait upstream; null when it is not. */
export function ttftUpstreamWaitMs(request: AnalyzedRequest, stage: RequestStage, firstStageId: number): number | null {
  const { values, states } = stage.split;
  const downstream = stage.stageId !== null && stage.stageId > firstStageId;
  if (
    !downstream ||
    stage.kind !== 'llm' ||
    states.ttftMs !== 'measured' ||
    states.prefillMs !== 'measured' ||
    prefillCoversDecode(request, stage)
  )
    return null;
  const ttft = values.ttftMs ?? 0;
  const gap = ttft - (values.prefillMs ?? 0) - (states.queuedMs === 'measured' ? (values.queuedMs ?? 0) : 0);
  return gap > Math.max(TTFT_GAP_MS, TTFT_GAP_SHARE * ttft) ? gap : null;
}
