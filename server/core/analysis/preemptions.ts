// A request vLLM preempted: its KV-cache blocks were taken for other requests and it was
// scheduled again later. vllm_queued_ms ends at the first scheduling, so the wait for the next
// lies in the request's prefill (and TTFT) when it came before the first token, in its decode
// when after. The count does not say when: only a vllm_decode_ms of a measured 0 (first token =
// last token) places it before the first token, and a one-output stage's prefill covers its decode.
// Only a printed count above 0 is a preemption: an absent row is zero or not measured (the log
// hides a row that is 0 on every stage), `None` is not measured.
import { prefillCoversDecode, PREFILL_DECODE_LABEL } from './oneOutputStage';
import type { AnalyzedRequest, RequestStage } from './types';

export const PREEMPTIONS_FIELD = 'vllm_num_preemptions';

/** The stage's printed vllm_num_preemptions when above 0; null when 0, hidden, None or not a number. */
export function preemptionCount(stage: RequestStage): number | null {
  const count = stage.fields[PREEMPTIONS_FIELD];
  return count !== undefined && count.state === 'measured' && count.value > 0 ? count.value : null;
}

/**
 * Which phase of a preempted request holds the wait to be scheduled again, as far as its fields
 * tell: `prefillDecode` on a one-output stage (its prefill covers its decode), `prefill` when its
 * vllm_decode_ms is a measured 0 (no token after the first, so the preemption came before it),
 * `prefillOrDecode` otherwise.
 */
export type PreemptionWait = 'prefillDecode' | 'prefill' | 'prefillOrDecode';

export function preemptionWait(request: AnalyzedRequest, stage: RequestStage): PreemptionWait {
  if (prefillCoversDecode(request, stage)) return 'prefillDecode';
  const { values, states } = stage.split;
  return states.decodeMs === 'measured' && values.decodeMs === 0 ? 'prefill' : 'prefillOrDecode';
}

const WAIT_PHASE: Readonly<Record<PreemptionWait, string>> = {
  prefillDecode: PREFILL_DECODE_LABEL,
  prefill: 'prefill',
  prefillOrDecode: 'prefill or decode',
};

/** `preempted 2 times: its prefill or decode includes the wait to be scheduled again`; null when the stage printed no preemption. */
export function preemptionCaveat(request: AnalyzedRequest, stage: RequestStage): string | null {
  const n = preemptionCount(stage);
  if (n === null) return null;
  const phase = WAIT_PHASE[preemptionWait(request, stage)];
  return `preempted ${n === 1 ? 'once' : `${n} times`}: its ${phase} includes the wait to be scheduled again`;
}
