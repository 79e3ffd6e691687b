// A downstream stage's vllm_ttft_ms runs from its arrival to its first output handled; queued +
// prefill is arrival to its first token. Held far apart, the TTFT waited for something upstream
// (under talker first audio, the talker's first-audio frame): it is then not the stage's own
// queueing and prefill, and every view marks it so (finding ttft-includes-upstream-wait).
import { prefillCoversDecode } from './oneOutputStage';
import type { AnalyzedRequest, RequestStage } from './types';

/** A downstream TTFT this much over queued + prefill (and this share of it) waited for something else: output handling takes a few ms. */
const TTFT_GAP_MS = 50;
const TTFT_GAP_SHARE = 0.1;

/** The mark on a TTFT that includes a wait upstream, in every table that shows one. */
export const TTFT_WAITED_MARK = '†';

/** What the mark means, said once where it is shown. */
export const TTFT_WAITED_TEXT =
  "TTFT includes a wait for upstream output: time to first output from the stage's arrival, not its own queueing and prefill (finding ttft-includes-upstream-wait)";

/**
 * How much of a downstream stage's TTFT lies beyond its queued + prefill, when that much says it
 * waited upstream; null otherwise (a first stage, a one-output stage, a value not measured, or a
 * negative one, which is no measurement).
 */
export function ttftUpstreamWaitMs(request: AnalyzedRequest, stage: RequestStage, firstStageId: number): number | null {
  if (stage.stageId === null || stage.stageId <= firstStageId || stage.kind !== 'llm') return null;
  const { values, states } = stage.split;
  if (states.ttftMs !== 'measured' || states.prefillMs !== 'measured') return null;
  const ttft = values.ttftMs;
  const prefill = values.prefillMs;
  if (ttft === null || prefill === null || ttft < 0 || prefill < 0) return null;
  // A queued time known to be no measurement (a negative interval) leaves the gap unknown; a hidden or None one counts 0.
  if (states.queuedMs === 'notRecorded') return null;
  const queued = states.queuedMs === 'measured' ? values.queuedMs : 0;
  if (queued === null || queued < 0) return null;
  if (prefillCoversDecode(request, stage)) return null;
  const gap = ttft - prefill - queued;
  return gap > Math.max(TTFT_GAP_MS, TTFT_GAP_SHARE * ttft) ? gap : null;
}
