// vLLM's queue time (`vllm:request_queue_time_seconds`, QUEUED -> first SCHEDULED) of a
// downstream stage includes the wait for its upstream input: the stage request is queued
// before its input lands (async chunk: with stage 0; full payload: gated until it arrives).
// The log splits it into input wait and ready queued (vllm_input_wait_ms,
// vllm_ready_queued_ms); a scrape has no such split, so the whole figure is not a
// scheduling wait (docs/formats.md#numbers-that-lie-in-known-ways, queued includes input wait).
import { stageIdOf } from './labels';
import type { Labels } from './model';

export const QUEUE_TIME_FAMILY = 'vllm:request_queue_time_seconds';

/** Why a downstream stage's queue time series misleads; null for stage 0 or a series without a stage id. */
export function downstreamQueueCaveat(labels: Labels): string | null {
  const stageId = stageIdOf(labels);
  if (stageId === null || stageId <= 0) return null;
  return (
    `Stage ${stageId} is downstream: its vLLM queue time includes the wait for upstream input, ` +
    'and a scrape has no input-wait split, so it cannot be read as a wait for a scheduling slot ' +
    "(the log's vllm_input_wait_ms and vllm_ready_queued_ms split it)."
  );
}
