// Under Model Runner V2 with async chunk, a non-final autoregressive stage (the Qwen3-TTS
// talker) emits one output, when it stops (docs/formats.md#numbers-that-lie-in-known-ways; upstream's metrics design
// doc). Its vllm_prefill_ms runs from first SCHEDULED to that one output, so it also covers
// every decode step, and its vllm_decode_ms is a measured 0 (or, next to a downstream
// stage's None, a hidden row). Detected from the numbers themselves, so that no view shows
// that figure as prefill alone; a matched deploy config only adds evidence.
import type { FieldMap } from '../values';
import { numberOf } from '../values';
import { rowUnread } from './stageBuilder';
import type { AnalyzedRequest, PhaseSplit, RequestStage } from './types';
import { SPLIT_FIELD } from './types';

/** What the figure is called wherever it is shown. */
export const PREFILL_DECODE_LABEL = 'prefill+decode (one output)';
/** Short form for narrow cells and column heads. */
export const PREFILL_DECODE_SHORT = 'prefill+decode';

/** Without a token count: the first output came within the last 10% of the stage's time. */
const TTFT_NEAR_STAGE_END = 0.9;

function hasDownstream(request: AnalyzedRequest, stageId: number): boolean {
  for (const other of request.stages) if (other.stageId !== null && other.stageId > stageId) return true;
  return false;
}

/** The one-output evidence of a stage's fields, given that its decode is 0 or hidden. */
function emitsOneOutput(fields: FieldMap, ttftMs: number | null): boolean {
  const tokens = numberOf(fields, 'num_tokens_out');
  // Decode is first token -> last token: 0 with several tokens means they all came out at once.
  if (tokens !== undefined) return tokens > 1;
  const outputs = numberOf(fields, 'output_unit_count');
  const genTime = numberOf(fields, 'stage_gen_time_ms');
  return (
    outputs === 1 && ttftMs !== null && genTime !== undefined && genTime > 0 && ttftMs >= TTFT_NEAR_STAGE_END * genTime
  );
}

/**
 * Whether this stage's vllm_prefill_ms also covers its decode steps: an LLM stage with a
 * downstream stage in the same request, prefill measured (or not recorded: printed as no time,
 * or its row lost with a line of the table; the decode 0 still is no measurement), decode a
 * measured 0 or hidden, and more than one token out (or, without a token count, one output and a
 * TTFT at the end of the stage).
 */
export function prefillCoversDecode(request: AnalyzedRequest, stage: RequestStage): boolean {
  // No closures: this runs for every stage of every request, several times.
  const own = ownSignature(stage);
  if (own === NO_SIGNATURE) return false;
  if (own === IF_PREFILL_UNREAD && !rowUnread(request, SPLIT_FIELD.prefillMs)) return false;
  return hasDownstream(request, stage.stageId as number);
}

/**
 * prefillCoversDecode for a reader of single stages (a packed store): `downstream` says whether
 * the request has a stage after `stageId`, and `prefillUnread` whether its table lost the
 * prefill row; each asked only of a stage whose own numbers fit.
 */
export function stageCoversDecode(
  stage: RequestStage,
  downstream: (stageId: number) => boolean,
  prefillUnread: () => boolean,
): boolean {
  const own = ownSignature(stage);
  if (own === NO_SIGNATURE) return false;
  if (own === IF_PREFILL_UNREAD && !prefillUnread()) return false;
  return downstream(stage.stageId as number);
}

const NO_SIGNATURE = 0;
const SIGNATURE = 1;
/** The signature, if the prefill row (not recorded, not printed) was lost with a line of its table. */
const IF_PREFILL_UNREAD = 2;

/** What the stage's own numbers say of the one-output signature, before its request is asked. */
function ownSignature(stage: RequestStage): typeof NO_SIGNATURE | typeof SIGNATURE | typeof IF_PREFILL_UNREAD {
  if (stage.kind !== 'llm' || stage.stageId === null) return NO_SIGNATURE;
  const { states, values } = stage.split;
  const prefillMeasured = states.prefillMs === 'measured' && values.prefillMs !== null;
  if (!prefillMeasured && states.prefillMs !== 'notRecorded') return NO_SIGNATURE;
  const decodeZero = states.decodeMs === 'hidden' || (states.decodeMs === 'measured' && values.decodeMs === 0);
  if (!decodeZero || !emitsOneOutput(stage.fields, states.ttftMs === 'measured' ? values.ttftMs : null))
    return NO_SIGNATURE;
  // A prefill printed but no time (negative, NaN) still leaves the decode 0 no measurement.
  return prefillMeasured || stage.fields[SPLIT_FIELD.prefillMs] !== undefined ? SIGNATURE : IF_PREFILL_UNREAD;
}

/**
 * The split as a request's JSON and CSV rows report it (`oneOutput`: prefillCoversDecode of the
 * stage in its request): a one-output stage's decode (a printed
 * 0, or a hidden row) is not a measurement but part of its prefill figure, so it is null and
 * `notRecorded` beside `prefillCoversDecode` true, never a measured 0 ms of decode to sum.
 */
export function reportedSplit(stage: RequestStage, oneOutput: boolean): PhaseSplit {
  if (!oneOutput) return stage.split;
  const { values, states } = stage.split;
  return { values: { ...values, decodeMs: null }, states: { ...states, decodeMs: 'notRecorded' } };
}

/** The numbers that showed it, for the finding's message. */
export interface OneOutputExample {
  readonly requestId: string;
  readonly prefillMs: number;
  readonly tokensOut: number | null;
  readonly ttftMs: number | null;
  readonly genTimeMs: number | null;
}

export function oneOutputExample(request: AnalyzedRequest, stage: RequestStage): OneOutputExample {
  const { values, states } = stage.split;
  return {
    requestId: request.requestId,
    prefillMs: values.prefillMs ?? 0,
    tokensOut: numberOf(stage.fields, 'num_tokens_out') ?? null,
    ttftMs: states.ttftMs === 'measured' ? values.ttftMs : null,
    genTimeMs: numberOf(stage.fields, 'stage_gen_time_ms') ?? null,
  };
}

/**
 * Fields that time the interval between outputs (per token, per output unit). A stage that emits
 * one output has no such interval: what it prints there (0) is not a measurement, as its
 * /metrics inter-token latency series is empty and its time per output token is marked
 * (metricsText/oneOutputSignature.ts).
 */
export const PER_OUTPUT_INTERVAL_FIELDS: ReadonlySet<string> = new Set([
  'vllm_itl_ms',
  'vllm_itls_ms',
  'vllm_tpot_ms',
  'time_per_output_unit_ms',
  'inter_output_latency_ms',
  'inter_output_latencies_ms',
]);

/** Whether a printed field of a one-output stage is not a measurement: its decode, or an interval between outputs. */
export function notMeasuredOnOneOutput(field: string): boolean {
  return field === 'vllm_decode_ms' || PER_OUTPUT_INTERVAL_FIELDS.has(field);
}

/** Why such a field is left out, where values left out are listed. */
export const ONE_OUTPUT_FIELD_TEXT =
  `the stage emits one output (Model Runner V2 + async chunk): no inter-token latency exists, its decode is in prefill ` +
  `(${PREFILL_DECODE_LABEL}), so its decode and time per output token are not measurements`;
