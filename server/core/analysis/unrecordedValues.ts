// Printed numbers that are not measurements (docs/formats.md#values-and-their-states): each is
// kept as printed in a request's fields, and left out of every percentile, mean and count of
// measured values, counted with its reason instead. One definition for the findings, the
// split, the summaries and the views.
//   nonFinite nan, inf or -inf as Python prints them: a number, but no value.
//   negative  a duration (a field named _ms or _s) below zero: a clock or accounting bug in the
//             server, not a real time (the negative-interval finding).
//   noOutput  serving_time_to_first_output_ms 0.0: the field's default when the stage produced
//             no non-empty output, not a time; likewise image_time_to_first_output_ms and
//             denoise_step_latency_ms 0.0 on a stage that made no image, and a request's time per
//             token (e2e_tpt, e2e_time_per_token_ms) 0.0 when it had no output token.
//   unread    no number at all: a row a cut-off stage table never reached (it sorts its rows by
//             name), unknown rather than hidden.
import type { Cell } from '../values';

export type UnrecordedReason = 'nonFinite' | 'negative' | 'noOutput' | 'unread' | 'oneOutput';

export const FIRST_OUTPUT_FIELD = 'serving_time_to_first_output_ms';
/**
 * A request's end to end per output token: `e2e_tpt` of the request_level_metrics dicts (log_utils.py,
 * the vllm-omni#891 branch), `e2e_time_per_token_ms` of log_utils.py's orchestrator_request_e2e
 * record. Both print `e2e_ms / tokens if tokens > 0 else 0.0`: with an end to end above 0, 0.0
 * is only ever that default (no output token), never 0 ms per token.
 */
export const TIME_PER_TOKEN_FIELDS: readonly string[] = ['e2e_tpt', 'e2e_time_per_token_ms'];
/**
 * Fields whose 0.0 is the default of a stage without that output, never a time (the server only
 * sets them above 0): the first non-empty output; the first image and the time per denoise step,
 * printed on every stage of an image pipeline, 0.000 on the others (vllm-omni@226b43d9).
 */
const NO_OUTPUT_DEFAULT_FIELDS: ReadonlySet<string> = new Set([
  FIRST_OUTPUT_FIELD,
  'image_time_to_first_output_ms',
  'denoise_step_latency_ms',
  ...TIME_PER_TOKEN_FIELDS,
]);

/** Fields that are durations, by their unit suffix. */
export function isDuration(name: string): boolean {
  return name.endsWith('_ms') || name.endsWith('_s');
}

/** A printed duration below zero: not a real time. */
export function isNegativeInterval(name: string, value: number): boolean {
  // -inf is not a number (nonFinite), not a duration below zero.
  return value < 0 && value !== Number.NEGATIVE_INFINITY && isDuration(name);
}

/** Why the printed number `value` of field `name` is not a measurement; null when it is one. */
export function unrecordedReason(name: string, value: number): UnrecordedReason | null {
  // The value is compared first: this runs for every printed number of every stage.
  if (!Number.isFinite(value)) return 'nonFinite';
  if (isNegativeInterval(name, value)) return 'negative';
  if (value === 0 && NO_OUTPUT_DEFAULT_FIELDS.has(name)) return 'noOutput';
  return null;
}

/** The measured number of a cell that is a measurement (not a known non-measurement); undefined otherwise. */
export function measurementOf(name: string, cell: Cell | undefined): number | undefined {
  if (cell === undefined || cell.state !== 'measured') return undefined;
  return unrecordedReason(name, cell.value) === null ? cell.value : undefined;
}

/** Whether a split value needs unrecordedReason at all: below 0, NaN or infinite (one compare for most values). */
export function mayBeUnrecorded(value: number | null): boolean {
  return value !== null && !(value >= 0 && value < Number.POSITIVE_INFINITY);
}

/** How each reason is worded where values left out are listed (the table, the views' hovers). */
export const UNRECORDED_TEXT: Readonly<Record<UnrecordedReason, string>> = {
  nonFinite: 'not a number (printed nan, inf or -inf)',
  negative: 'negative (below zero: not a real time)',
  noOutput: "no output (0.0 is the field's default, not a time)",
  unread: 'not read (the stage table was cut off before its row, or lost the line it was on)',
  oneOutput: 'one output (the stage emits one output: no interval between outputs exists, its 0 is no time)',
};
