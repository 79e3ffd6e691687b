// Human labels for stages, phases and fields. DOM-free.

// The split's names, labels and log fields are shared with the CLI's table: one source.
export { PREFILL_DECODE_LABEL, PREFILL_DECODE_SHORT, SPLIT_FIELD, SPLIT_LABEL, SPLIT_NAMES } from '../../server/shared';
import { PREFILL_DECODE_LABEL } from '../../server/shared';
import type { TimelineSegment } from '../../server/protocol';

export const FIELD_GEN_TIME = 'stage_gen_time_ms';
/** A stage's time from its [OmniTiming] line, in seconds (10 ms steps): all an INFO-level log has. */
export const FIELD_OMNI_TIMING_STAGE = 'omni_timing_stage_s';
export const FIELD_FIRST_OUTPUT = 'serving_time_to_first_output_ms';
export const FIELD_AUDIO_DURATION = 'audio_duration_s';

const FIELD_LABEL: Readonly<Record<string, string>> = {
  [FIELD_GEN_TIME]: 'gen time',
  [FIELD_FIRST_OUTPUT]: 'first output',
  [FIELD_AUDIO_DURATION]: 'audio',
  [FIELD_OMNI_TIMING_STAGE]: 'stage time',
};

/**
 * Where a field's numbers come from, where that is not a log field of its own name: a stage's
 * [OmniTiming] time is Stage Lens's key (in seconds), shown in ms like every other time.
 */
const FIELD_SOURCE: Readonly<Record<string, string>> = {
  [FIELD_OMNI_TIMING_STAGE]: '[OmniTiming] stages=',
};

/** A short label for a field; unknown fields keep their log name (shown as text, never markup). */
export function fieldLabel(name: string): string {
  return FIELD_LABEL[name] ?? name;
}

/** A field as a picker offers it: its label and where it is read, "gen time (stage_gen_time_ms)". */
export function fieldChoiceLabel(name: string): string {
  const label = fieldLabel(name);
  return label === name ? name : `${label} (${FIELD_SOURCE[name] ?? name})`;
}

/** An edge key as people read it: `0->1` (its key in JSON and CSV) -> `0 → 1`, as the CLI writes it. */
export { edgeLabel } from '../../server/shared';

/** "stage 1 · code2wav", "stage 1_2", "stage 0". */
export { stageLabel } from '../../server/shared';

/** Stage id part of a stage key: `1_2` -> `1`. */
export function stageIdOfKey(stageKey: string): string {
  const cut = stageKey.indexOf('_');
  return cut < 0 ? stageKey : stageKey.slice(0, cut);
}

/** Role name of a stage from the deploy config ("talker"), or ''. */
export { roleOfStage as stageRole } from '../../server/shared';

export type TimelinePhase = TimelineSegment['phase'];

export const PHASE_LABEL: Readonly<Record<TimelinePhase, string>> = {
  inputWait: 'input wait',
  readyQueued: 'ready queued',
  queued: 'queued',
  prefill: 'prefill',
  decode: 'decode',
  prefillDecode: PREFILL_DECODE_LABEL,
  stage: 'whole stage (submit → finished)',
};

/**
 * A column name for the narrow (card) layout, where it wraps at words only: a zero-width
 * space after `+` and `/` lets "receive+decode" wrap after its `+`, not inside "decode".
 */
export function cardLabel(label: string): string {
  return label.replace(/([+/])(?=\S)/g, '$1\u200b');
}
