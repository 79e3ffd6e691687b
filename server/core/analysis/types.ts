// What the analysis produces: per request and stage the phase split, per stage the
// distributions, and findings. Shared (as types) by the CLI, the language server and the
// webviews through server/protocol.ts.
import type { FieldMap } from '../values';
import type { OmniTimingRecord, TransferEdge } from '../records';

export const SPLIT_NAMES = ['queuedMs', 'inputWaitMs', 'readyQueuedMs', 'prefillMs', 'decodeMs', 'ttftMs'] as const;
export type SplitName = (typeof SPLIT_NAMES)[number];

/** The log field each split value comes from. */
export const SPLIT_FIELD: Readonly<Record<SplitName, string>> = {
  queuedMs: 'vllm_queued_ms',
  inputWaitMs: 'vllm_input_wait_ms',
  readyQueuedMs: 'vllm_ready_queued_ms',
  prefillMs: 'vllm_prefill_ms',
  decodeMs: 'vllm_decode_ms',
  ttftMs: 'vllm_ttft_ms',
};

/** How people call each split value (terminal table, webviews). */
export const SPLIT_LABEL: Readonly<Record<SplitName, string>> = {
  queuedMs: 'queued',
  inputWaitMs: 'input wait',
  readyQueuedMs: 'ready queued',
  prefillMs: 'prefill',
  decodeMs: 'decode',
  ttftMs: 'TTFT',
};

/**
 * How one split value stands.
 *  measured     printed by the server
 *  notMeasured  printed as `None`
 *  hidden       row absent: zero or not measured (value null)
 *  notRecorded  a known lie was detected (codec TTFT 0 with no prefill): value null
 *  inferred     derived from other measured fields by a documented rule (value set)
 */
export type SplitState = 'measured' | 'notMeasured' | 'hidden' | 'notRecorded' | 'inferred';

export interface PhaseSplit {
  readonly values: Readonly<Record<SplitName, number | null>>;
  readonly states: Readonly<Record<SplitName, SplitState>>;
}

export type StageKind = 'llm' | 'diffusion';

export interface RequestStage {
  /** Column as printed: `0`, `1`, `1_2`. Stable key for a stage (segment) of a request. */
  readonly stageKey: string;
  readonly stageId: number | null;
  readonly segment: number;
  /** From the `replica_id` row; 0 when the row is hidden (the server hides an all-zero row). */
  readonly replicaId: number;
  readonly kind: StageKind;
  readonly fields: FieldMap;
  readonly split: PhaseSplit;
}

/** Cross-stage figures computed within one request (never from two stages' aggregates). */
export interface RequestDerived {
  /**
   * stageKey -> this stage's serving_time_to_first_output_ms minus the previous stage's,
   * both from the same request (both measured from the request's arrival).
   */
  readonly addedTimeToFirstOutputMs: Readonly<Record<string, number>>;
}

export interface AnalyzedRequest {
  readonly requestId: string;
  /** 1-based number of the server boot this request ran in; 0 when no boot marker preceded it. */
  readonly boot: number;
  /** First request after a boot marker: a cold start can put one-time costs into any phase. */
  readonly cold: boolean;
  /** Line of the first record of this request. */
  readonly line: number;
  /** Log timestamp (`MM-DD HH:MM:SS`) of the first record, when printed. */
  readonly timestamp: string | null;
  readonly stages: readonly RequestStage[];
  readonly e2e: FieldMap;
  readonly timing: OmniTimingRecord | null;
  readonly transfers: readonly TransferEdge[];
  /** false when one of its tables was cut off. */
  readonly complete: boolean;
  /** false when only E2E/OmniTiming were printed (the stage table is DEBUG-only on phase-split builds). */
  readonly hasStageTable: boolean;
  readonly derived: RequestDerived;
}

export interface Distribution {
  readonly count: number;
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

/** How many requests of a stage had a split value in each non-measured state. */
export type SplitStateCounts = Readonly<Record<SplitState, number>>;

export interface StageSummary {
  readonly stageKey: string;
  readonly stageId: number | null;
  /** null: all replicas of the stage together. */
  readonly replicaId: number | null;
  readonly requestCount: number;
  /** Every numeric field over measured values only. */
  readonly fields: Readonly<Record<string, Distribution>>;
  /** Split values over numeric values only (measured and inferred). */
  readonly split: Readonly<Partial<Record<SplitName, Distribution>>>;
  readonly splitStates: Readonly<Record<SplitName, SplitStateCounts>>;
  /** Distribution of addedTimeToFirstOutputMs for this stage, when computable. */
  readonly addedTimeToFirstOutputMs: Distribution | null;
  /**
   * Requests whose vllm_prefill_ms also covers their decode steps (one output, under Model
   * Runner V2 + async chunk: oneOutputStage.ts). Their prefill and decode are left out of
   * `split` and `splitStates`; their vllm_prefill_ms is `prefillDecodeMs`.
   */
  readonly oneOutputRequests: number;
  /** vllm_prefill_ms of those requests: prefill+decode, never prefill alone; null when none. */
  readonly prefillDecodeMs: Distribution | null;
}

export type Severity = 'error' | 'warning' | 'info';

export type FindingCode =
  | 'ttft-not-recorded'
  | 'split-mismatch'
  | 'negative-interval'
  | 'queued-includes-input-wait'
  | 'cold-start'
  | 'diffusion-zero-ambiguous'
  | 'truncated-record'
  | 'stage-tables-missing'
  | 'prefill-covers-decode';

export interface Finding {
  readonly code: FindingCode;
  readonly severity: Severity;
  readonly stageId: number | null;
  /** The requests it concerns (capped in live summaries: see requestCount). */
  readonly requestIds: readonly string[];
  /** How many requests it concerns in all. */
  readonly requestCount: number;
  readonly message: string;
}

/** One drawn segment of a request's waterfall. Times are ms from the client request's arrival. */
export interface TimelineSegment {
  readonly stageKey: string;
  /** prefillDecode: a one-output stage's vllm_prefill_ms, which covers its decode steps too (never drawn as prefill). */
  readonly phase: 'inputWait' | 'readyQueued' | 'queued' | 'prefill' | 'decode' | 'prefillDecode' | 'stage';
  readonly startMs: number;
  readonly endMs: number;
  /**
   * measured: the duration is measured and the position is anchored on a measured time of
   * the same origin (serving_time_to_first_output_ms); reconstructed: the position (or the
   * duration) follows `rule`, not a measurement.
   */
  readonly provenance: 'measured' | 'reconstructed';
  readonly rule: string;
}

export type { Percentile } from '../percentiles';
