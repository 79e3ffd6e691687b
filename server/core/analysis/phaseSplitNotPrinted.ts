// A [StageRequestStats] table that prints none of the phase split's rows (vllm_queued_ms, the
// input split, vllm_prefill_ms, vllm_decode_ms, vllm_ttft_ms) on any stage, though an LLM stage
// produced output: a build with the split prints its TTFT there at least, so the build most
// likely predates the split (the stats tables came in February 2026, the LLM-stage phase split
// later). Each missing row reads "hidden" (a table leaves out a row that is 0 or None on every
// stage); the finding says why they are all missing and what prints them.
import { producedOutput } from './stageKind';
import type { AnalyzedRequest } from './types';
import { SPLIT_FIELD, SPLIT_NAMES } from './types';

/** Whether the request's stage table was read whole and prints no row of the split, with an LLM stage that produced output. */
export function phaseSplitNotPrinted(request: AnalyzedRequest): boolean {
  if (!request.hasStageTable || request.legacyDict === true || request.stageTableCut) return false;
  let llmOutput = false;
  for (const stage of request.stages) {
    for (const name of SPLIT_NAMES) if (stage.fields[SPLIT_FIELD[name]] !== undefined) return false;
    if (stage.kind === 'llm' && producedOutput(stage.fields)) llmOutput = true;
  }
  return llmOutput;
}

export function phaseSplitNotPrintedMessage(requests: number, total: number): string {
  const which = requests >= total ? 'No request' : `${requests} of ${total} requests`;
  return (
    `${which}'s [StageRequestStats] table prints any row of the phase split (vllm_queued_ms, vllm_prefill_ms, vllm_decode_ms, vllm_ttft_ms) on any stage, ` +
    'though a stage produced output: the vLLM-Omni build that wrote this log most likely predates the per-stage phase split, so its queued / prefill / decode / TTFT are not in the log. ' +
    'They read "hidden" (a table leaves out a row that is 0 or None on every stage), never 0 ms; the rows the table does print (stage_gen_time_ms, token counts) are read as printed. ' +
    'Fix: a vLLM-Omni build with the phase split, run with --log-stats and VLLM_LOGGING_LEVEL=DEBUG.'
  );
}
