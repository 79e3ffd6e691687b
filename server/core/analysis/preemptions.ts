// A request vLLM preempted: its KV-cache blocks were taken for other requests and it was
// scheduled again later. vllm_queued_ms ends at the first scheduling, so the wait for the next
// lies in the request's decode, or in a one-output stage's prefill (which covers its decode).
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

/** `preempted 2 times: its decode includes the wait to be scheduled again`; null when the stage printed no preemption. */
export function preemptionCaveat(request: AnalyzedRequest, stage: RequestStage): string | null {
  const n = preemptionCount(stage);
  if (n === null) return null;
  const phase = prefillCoversDecode(request, stage) ? PREFILL_DECODE_LABEL : 'decode';
  return `preempted ${n === 1 ? 'once' : `${n} times`}: its ${phase} includes the wait to be scheduled again`;
}
