// Whether a stage column is a diffusion stage. Roles are not in the log; diffusion
// stages are recognised by the keys only they carry (docs/formats.md#diffusion-keys), which are flattened
// into the stage's column and print `None` in the other stages' columns.
import type { FieldMap } from '../values';
import { numberOf } from '../values';
import type { StageKind } from './types';

const DIFFUSION_TIMING_NAMES = [
  'preprocess_time',
  'diffusion_engine_exec_time',
  'diffusion_engine_total_time',
  'output_ready_wait_time',
  'postprocess_time',
  'scheduler_queue_wait',
  'vae_decode_time',
  'forward_time',
  'kv_recv_time',
];

// postprocess_time_ms is also a plain StageRequestStats field on LLM stages.
const DIFFUSION_TIMING_FIELDS: readonly string[] = DIFFUSION_TIMING_NAMES.flatMap((name) => [
  `${name}_ms`,
  `${name}_s`,
]).filter((field) => field !== 'postprocess_time_ms');
const DIFFUSION_TIMING = new Set(DIFFUSION_TIMING_FIELDS);

export function isDiffusionTimingField(name: string): boolean {
  return DIFFUSION_TIMING.has(name);
}

// preprocess_time_ms is also a StageRequestStats field of every stage on the vllm-omni#891
// branch (the orchestrator's input processing before the stage): printed, even measured, it
// does not tell a diffusion stage apart. A diffusion stage always has another timing measured
// (its engine exec time at least), so the other 16 names are the evidence.
const DIFFUSION_EVIDENCE = new Set(DIFFUSION_TIMING_FIELDS.filter((field) => field !== 'preprocess_time_ms'));

/** A measured value of this field shows the stage is a diffusion stage (every timing but `preprocess_time_ms`). */
export function isDiffusionEvidenceField(name: string): boolean {
  return DIFFUSION_EVIDENCE.has(name);
}

// The column's own names walked and looked up in the set, rather than the 16 names read from
// the column by variable key: half the time on the 200 MB bench log's 57,495 stage columns of
// many layouts (0.6 against 1.2 us a column). This runs for every stage of every request.
export function stageKindOf(fields: FieldMap): StageKind {
  for (const name in fields) {
    if (DIFFUSION_EVIDENCE.has(name) && fields[name]?.state === 'measured') return 'diffusion';
  }
  if ((numberOf(fields, 'num_inference_steps') ?? 0) > 0) return 'diffusion';
  return 'llm';
}

/** Older builds ([M]-era) printed diffusion timings as truncated `_ms` integers, with 0 for "not measured". */
export function hasLegacyDiffusionTimings(fields: FieldMap): boolean {
  return Object.keys(fields).some(
    (name) => name.endsWith('_ms') && isDiffusionTimingField(name) && fields[name]?.state === 'measured',
  );
}

const OUTPUT_EVIDENCE: readonly string[] = [
  'output_unit_count',
  'num_tokens_out',
  'audio_generated_frames',
  'serving_time_to_first_output_ms',
  'image_pixels',
];

/** Evidence that the stage produced output (so a TTFT should exist). Runs per stage of every request: no array built. */
export function producedOutput(fields: FieldMap): boolean {
  for (const name of OUTPUT_EVIDENCE) if ((numberOf(fields, name) ?? 0) > 0) return true;
  return false;
}
