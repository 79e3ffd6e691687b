// The vocabulary of the trace export (slice names, category, the phase -> log field map)
// and its `metadata` object, which spells out what every arg, rule and placement means, so a
// trace read without Stage Lens at hand still says which positions are measured.
import type { SplitName, TimelineSegment } from '../analysis/types';
import { SPLIT_FIELD } from '../analysis/types';
import { PREFILL_DECODE_LABEL } from '../analysis/oneOutputStage';
import type { Placement, PlacementRule } from './tracePlacement';
import { PLACEMENT_TEXT } from './tracePlacement';

export type Phase = Exclude<TimelineSegment['phase'], 'stage'>;

export const PHASE_SPLIT: Readonly<Record<Phase, SplitName>> = {
  inputWait: 'inputWaitMs',
  readyQueued: 'readyQueuedMs',
  queued: 'queuedMs',
  prefill: 'prefillMs',
  decode: 'decodeMs',
  // A one-output stage's vllm_prefill_ms: it covers the decode steps too.
  prefillDecode: 'prefillMs',
};

/** Slice names of the phases (as the terminal table and the webviews call them). */
export const PHASE_SLICE_NAME: Readonly<Record<Phase, string>> = {
  inputWait: 'input wait',
  readyQueued: 'ready queued',
  queued: 'queued',
  prefill: 'prefill',
  decode: 'decode',
  prefillDecode: PREFILL_DECODE_LABEL,
};

/** The parts of a transfer, in the order they happen, and their slice names. */
export const TRANSFER_PARTS: ReadonlyArray<{ readonly field: string; readonly name: string }> = [
  { field: 'tx_time_ms', name: 'send (tx)' },
  { field: 'in_flight_time_ms', name: 'in flight' },
  { field: 'rx_decode_time_ms', name: 'receive decode' },
];

export const TRANSFER_RULE_AFTER =
  'assumed: a transfer starts where its upstream stage ends as drawn (the log gives no start time for it); its parts follow one another: send, in flight, receive decode';
export const TRANSFER_RULE_ARRIVAL =
  'assumed: drawn from the request arrival (its upstream stage is not drawn); its parts follow one another: send, in flight, receive decode';

/** The category of every slice. One category: a request-stage's slices must share it to nest on one track. */
export const TRACE_CATEGORY = 'request';
export const E2E_SLICE_NAME = 'e2e';

export interface MetadataInput {
  readonly source: string | null;
  readonly requests: number;
  readonly slices: number;
  readonly placement: Placement;
  readonly placementCounts: Partial<Record<PlacementRule, number>>;
  readonly rules: Readonly<Record<string, string>>;
}

/** The trace's `metadata`: what every arg, rule and placement means. */
export function traceMetadata(m: MetadataInput): Record<string, unknown> {
  return {
    generator: 'stage-lens',
    traceSchema: 1,
    source: m.source,
    requests: m.requests,
    slices: m.slices,
    clock: {
      unit: 'ts in µs',
      basis: m.placement.clock,
      origin: m.placement.origin,
      placement: PLACEMENT_TEXT,
      requestsByPlacement: m.placementCounts,
    },
    tracks: {
      'requests (E2E)':
        'one "e2e" slice per request with a printed end to end, from its placed arrival: e2e_total_ms, else (arg "field") the [OmniTiming] line\'s total= (10 ms resolution) or the e2e_time_ms of the format before February 2026',
      stages: `one process per stage (per stage and replica when a stage ran on several); a request's time on a stage is a top slice "stage <key>" with its phases as children (category "${TRACE_CATEGORY}", one id per request and stage)`,
      transfers:
        'one process per transfer edge ("transfer 0->1"); a request\'s transfer is a top slice with its measured parts as children, always reconstructed (positioned by rule). A part that is hidden (all-zero row) or a [OmniTiming] 0.00 ms send that is not recorded (no payload transfer) has no slice; an edge without a measured part has none at all',
    },
    args: {
      request: 'request id (top slices)',
      placement: 'how the request was placed on the wall clock: a key of clock.placement',
      ms: 'the value as logged, in ms (a slice lasts ms * 1000 µs)',
      provenance: 'measured | reconstructed (see provenance)',
      rule: 'a key of rules: how the slice was positioned; on phases only when reconstructed',
      state:
        '"inferred" on a phase whose value was not printed but follows from a documented rule (see rules.inferred)',
      span: 'what a top slice covers (see span)',
      genTimeMs: 'the stage time the server logged (stage_gen_time_ms, or genTimeField)',
      edge: 'the transfer edge `from->to` (transfer slices)',
      source:
        'where a transfer part comes from: "TransferEdgeStats" (the DEBUG table) or "[OmniTiming]" (its send time, 0.01 ms resolution)',
      sizeKbytes: 'size_kbytes of the transfer, as logged',
    },
    span: {
      'gen-time':
        'the top slice is the stage as the server timed it (stage_gen_time_ms, or omni_timing_stage_s): submit -> finished',
      phases:
        'the top slice covers the phases, which reach past the timed stage or have no stage time to sit in; genTimeMs (when given) is the server-timed length',
    },
    provenance: {
      measured:
        'duration logged by the server and position anchored (rule "anchored") on a measured time of the same origin (serving_time_to_first_output_ms) within the request; the request\'s own wall-clock position follows its placement',
      reconstructed: 'the position within the request (or an inferred duration) follows `rule`, not a measurement',
    },
    rules: {
      ...m.rules,
      inferred:
        'state "inferred": the value is 0 by the documented rule that a hidden half of the input split is 0 when the other half is measured (the log hides all-zero rows); not printed by the server',
    },
    sliceFields: {
      [E2E_SLICE_NAME]: 'e2e_total_ms',
      ...Object.fromEntries(
        Object.entries(PHASE_SPLIT).map(([phase, split]) => [PHASE_SLICE_NAME[phase as Phase], SPLIT_FIELD[split]]),
      ),
      ...Object.fromEntries(TRANSFER_PARTS.map((p) => [p.name, p.field])),
    },
    oneOutput: `a stage that emits one output when it stops (Model Runner V2 + async chunk, a non-final autoregressive stage) has one "${PREFILL_DECODE_LABEL}" slice instead of prefill and decode: its vllm_prefill_ms covers its decode steps too`,
    notShown:
      'a phase whose value is not measured (None), hidden (row absent: zero or not measured) or not recorded (a known-false value) has no slice; no slice stands for 0 ms unless the value was logged (or inferred) as 0',
  };
}
