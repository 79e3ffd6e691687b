// What the analysis produces: per request and stage the phase split, per stage the
// distributions, and findings. Shared (as types) by the CLI, the language server and the
// webviews through server/protocol.ts.
import type { FieldMap } from '../values';
import type { OmniTimingRecord, UnreadRows } from '../records';
import type { UnrecordedReason } from './unrecordedValues';
import type { RunSummaryStageEntry, RunSummaryTransferEntry } from '../runSummaryStages';

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
 *  notRecorded  a known lie was detected (codec TTFT 0 with no prefill, a TTFT 0 with no output,
 *               a negative interval, nan or inf): value null, the printed number kept in the fields
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
  /**
   * From the `replica_id` row; 0 when the row is hidden (the server hides a row that is 0 on every
   * stage); null when it printed `None`: no replica id, never replica 0.
   */
  readonly replicaId: number | null;
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

/**
 * How to read the send (tx) time `[OmniTiming]` prints for an edge (`transfers=[0->1=0.00ms]`):
 *  measured     a send was timed: above 0, or the edge's TransferEdgeStats column has a measured tx_time_ms
 *  notRecorded  0.00 with no measured tx_time_ms for the edge: no payload transfer recorded, not a 0 ms
 *               hand-off. vLLM-Omni creates the edge when the downstream stage reports its stats (for
 *               every stage after the first) and prints the send time the orchestrator accumulated on
 *               it, 0 when it forwarded nothing there (async chunk streams the input through the
 *               connector instead). `metrics/stats.py` record_transfer_rx / on_forward / _log_omni_timing.
 *  absent       [OmniTiming] was not printed or does not name the edge
 */
export type TransferTxState = 'measured' | 'notRecorded' | 'absent';

/** One edge `from->to` of a request: its TransferEdgeStats column and its [OmniTiming] part, kept apart. */
export interface RequestTransfer {
  /** `0->1` as printed. */
  readonly edge: string;
  readonly fromStage: number | null;
  readonly toStage: number | null;
  /**
   * The edge's TransferEdgeStats column as printed (size_kbytes, tx_time_ms, rx_decode_time_ms,
   * in_flight_time_ms, any other row): absent rows are hidden (zero or not measured), `None` is
   * not measured. Empty when no column was printed for the edge.
   */
  readonly fields: FieldMap;
  /** Whether a TransferEdgeStats column was printed for this edge (DEBUG, and some value not zero). */
  readonly tablePrinted: boolean;
  /** The edge's `[OmniTiming]` tx time, ms as printed (2 decimals); null when absent. */
  readonly omniTimingTxMs: number | null;
  readonly omniTimingTxState: TransferTxState;
}

/** The `[Overall Summary]` printed with a request's call (online serving: one per request). */
export interface RequestOverallSummary {
  /** Line of the table's title. */
  readonly line: number;
  readonly fields: FieldMap;
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
  /** Every edge named by a TransferEdgeStats table or by [OmniTiming], table edges first, in printed order. */
  readonly transfers: readonly RequestTransfer[];
  /**
   * The [Overall Summary] printed with this request's call (it covers `e2e_requests` requests: one
   * per request when serving, one per prompt offline); null when none was printed, or not kept
   * (StreamAnalysisOptions.keepOverallSummaries false). Empty fields when the parser skipped its rows.
   */
  readonly overallSummary: RequestOverallSummary | null;
  /** false when one of its tables was cut off. */
  readonly complete: boolean;
  /**
   * Its stage table was cut off or lost a line (then stageTableUnreadRows says which rows): the rows after the last one read (the table sorts its rows by
   * name) were never reached, so their values are unknown (`notRecorded`), not hidden.
   */
  readonly stageTableCut: boolean;
  /** When a line inside the stage table was lost: every range of rows it did not read (records.ts `unreadRows`). */
  readonly stageTableUnreadRows?: readonly UnreadRows[];
  /** false when only E2E/OmniTiming were printed (the stage table is DEBUG-only on phase-split builds). */
  readonly hasStageTable: boolean;
  readonly derived: RequestDerived;
  /**
   * Read from a `request_level_metrics` dict of vLLM-Omni's format before February 2026
   * (legacyRequests.ts): stage times, tokens, end to end and transfers as printed, no phase split.
   */
  readonly legacyDict?: boolean;
  /**
   * It printed again a record an earlier request of its id printed (requestRepeats.ts): the same
   * lines read twice. `first` on the id's first repeat. It still counts as a request of its own.
   */
  readonly repeat?: RequestRepeat;
  /**
   * In a log that merges several servers' (kubectl --prefix, docker compose, stern), the server
   * that printed it: its lines' tag (LogHeader.source). Absent in a log of one server.
   */
  readonly server?: string;
}

/** A request that repeats an earlier one's record: the first repeat of its id, or a later one. */
export type RequestRepeat = 'first' | 'again';

export interface Distribution {
  readonly count: number;
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

/** How many printed numbers of one field were left out of its summary, per reason. */
export type FieldNotRecordedCounts = Readonly<Partial<Record<UnrecordedReason, number>>>;

/** How many requests of a stage had a split value in each non-measured state. */
/** The splits a one-output stage's single number stands in for. */
export type OneOutputSplit = 'prefillMs' | 'decodeMs';

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
  /**
   * Per field, the printed numbers left out of `fields` because they are not measurements
   * (unrecordedValues.ts), by reason; a field with none is absent. The split's fields are
   * counted whichever fields are summarized (their values are `notRecorded` in splitStates).
   */
  readonly fieldsNotRecorded: Readonly<Record<string, FieldNotRecordedCounts>>;
  /** Distribution of addedTimeToFirstOutputMs for this stage, when computable. */
  readonly addedTimeToFirstOutputMs: Distribution | null;
  /**
   * Requests whose vllm_prefill_ms also covers their decode steps (one output, under Model
   * Runner V2 + async chunk: oneOutputStage.ts). Their prefill and decode are left out of
   * `split` and `splitStates`; their vllm_prefill_ms is `prefillDecodeMs`.
   */
  readonly oneOutputRequests: number;
  /**
   * Those requests' own states of prefill (measured, its number being prefill+decode) and decode
   * (notRecorded): with `splitStates`, every request is counted once per split (the JSON's `states`).
   */
  readonly oneOutputSplitStates: Readonly<Record<OneOutputSplit, SplitStateCounts>>;
  /** vllm_prefill_ms of those requests: prefill+decode, never prefill alone; null when none. */
  readonly prefillDecodeMs: Distribution | null;
}

/** End to end per request, ms: `e2e_total_ms` where printed, else [OmniTiming]'s total. */
export interface EndToEndSummary {
  readonly ms: Distribution;
  /** Requests whose value came from [OmniTiming] (10 ms resolution) because their E2E table was not printed. */
  readonly fromOmniTiming: number;
  /** The legacy dicts' per-request transfer totals; absent when no request printed one. */
  readonly transfersTotal?: TransfersTotalSummary;
  /** Each request's printed time per output token (e2e_tpt, e2e_time_per_token_ms); absent when no request printed one. */
  readonly timePerToken?: TimePerTokenSummary;
}

/** A request's time per output token as the dicts print it, over the requests that printed one. */
export interface TimePerTokenSummary {
  /** Over the measurements only; null when none was one. */
  readonly ms: Distribution | null;
  /** Requests that printed a number for it. */
  readonly requests: number;
  /** Printed numbers that are not a measurement, by reason (0.0: noOutput, the no-token default): left out. */
  readonly notRecorded: FieldNotRecordedCounts;
}

/**
 * transfers_total_time_ms and transfers_total_bytes of the request_level_metrics dicts (the
 * format before February 2026), per request, over the requests that printed them.
 */
export interface TransfersTotalSummary {
  /** Over measured times only; null when none was one. */
  readonly timeMs: Distribution | null;
  /** transfers_total_bytes / 1024 (the edges' size_kbytes); null when none was printed. */
  readonly kbytes: Distribution | null;
  /** The legacy requests summarized (those that printed neither are counted here, never as 0). */
  readonly requests: number;
  /** Printed times that are not one (below zero, nan, inf): left out. */
  readonly timeNotATime: number;
}

/** Requests that printed only [OmniTiming] (the stats tables are DEBUG-only upstream). */
export interface TablesMissing {
  readonly requests: number;
  readonly of: number;
  /** No request has its tables: a log or session of [OmniTiming] lines only. */
  readonly all: boolean;
  /** What is missing, what is shown instead, and the fix; shown once per surface. */
  readonly message: string;
  /** The log has a line at DEBUG: the server did not run at INFO, and `message` says what that leaves. */
  readonly debugLines?: true;
  /** No request has its tables though a stats table was printed at DEBUG: they were cut out of the log read, and `message` says so. */
  readonly cutOut?: true;
}

/**
 * How many [Overall Summary] tables printed a field in each state: a number, `None`, text (a blank
 * cell included), or no row (a whole table without it: zero or not measured). The rest of the
 * tables were cut off before that row could be read.
 */
export interface OverallFieldStates {
  readonly measured: number;
  readonly notMeasured: number;
  readonly text: number;
  readonly hidden: number;
}

/**
 * A run-level summary printed as a dict or block (runSummaries.ts): its numbers as printed,
 * flattened with dotted keys (`stages.0.total_time_ms`); they are the run's, never a request's.
 * A key printed as `None` is null (not measured); a key it did not print is absent.
 */
export interface RunSummary {
  /** The parser's format name (LegacyDictRecord.format). */
  readonly format: string;
  /** What a person calls it ("omni.py's [Summary] dict (vLLM-Omni before February 2026)"). */
  readonly title: string;
  readonly line: number;
  /** The log's timestamp on that line (`MM-DD HH:MM:SS` as printed); null for a line without one. */
  readonly printedAt: string | null;
  /** False when the input ended or broke inside it: the values after the cut are unknown. */
  readonly complete: boolean;
  /** A number as printed, or null where the server printed `None` (not measured, never 0). */
  readonly values: Readonly<Record<string, number | null>>;
  /** Its `stages` list entries (`stages.<position>.*`) with the stage_id each printed (runSummaryStages.ts). */
  readonly stageEntries: readonly RunSummaryStageEntry[];
  /** Its `transfers` list entries (`transfers.<position>.*`) with the edge each printed (runSummaryStages.ts). */
  readonly transferEntries: readonly RunSummaryTransferEntry[];
}

/** The run summaries read: how many, and the latest MAX_RUN_SUMMARIES in log order. */
export interface RunSummaries {
  readonly count: number;
  readonly kept: readonly RunSummary[];
}

/** A run summary as JSON carries it: null for a printed None only, a printed nan / inf / -inf as that text. */
export interface RunSummaryJson extends Omit<RunSummary, 'values'> {
  readonly values: Readonly<Record<string, number | string | null>>;
}

/** The run summaries in `analyze --format json` and the session summary (runSummariesJson). */
export interface RunSummariesJson {
  readonly count: number;
  readonly kept: readonly RunSummaryJson[];
}

/**
 * Every [Overall Summary] table read, per field, one value per table. A table covers
 * `e2e_requests` requests (1 per served request; one per prompt offline), so its values are
 * those requests' together: nothing here is a per-request value.
 */
export interface OverallSummaries {
  readonly tables: number;
  /** Tables cut off (an interrupted write, the end of an excerpt): their unread rows are unknown, not hidden. */
  readonly cutOffTables: number;
  /** Tables whose e2e_requests is above 1. */
  readonly coveringSeveral: number;
  /** Per field, in the order first printed, over measured values only (a field with none is absent). */
  readonly fields: Readonly<Record<string, Distribution>>;
  /** Per field, in the order first printed: every field any table printed. */
  readonly fieldStates: Readonly<Record<string, OverallFieldStates>>;
  /** Cells of field names past the first MAX_OVERALL_FIELDS (hostile input): counted, not summarized. */
  readonly cellsLeftOut: number;
}

/**
 * How many requests had a transfer field measured, None, a printed number that is not a time
 * (notRecorded: a negative duration, nan or inf, unrecordedValues.ts), or no number (hidden row, or no table column).
 */
export interface EdgeFieldStates {
  readonly measured: number;
  readonly notMeasured: number;
  readonly notRecorded: number;
  readonly hidden: number;
}

/** One transfer edge `from->to` over the requests that name it (a TransferEdgeStats column or [OmniTiming]). */
export interface EdgeSummary {
  readonly edge: string;
  readonly fromStage: number | null;
  readonly toStage: number | null;
  readonly requestCount: number;
  /** Requests that printed a TransferEdgeStats column for the edge. */
  readonly tableCount: number;
  /** Every TransferEdgeStats field (size_kbytes, tx_time_ms, rx_decode_time_ms, in_flight_time_ms, ...) over measured values only. */
  readonly fields: Readonly<Record<string, Distribution>>;
  /** Per field, the requests in each state (hidden counts requests without a column too); every field any request printed. */
  readonly fieldStates: Readonly<Record<string, EdgeFieldStates>>;
  /** [OmniTiming]'s send time over measured values only (never the notRecorded 0.00s); null when none. */
  readonly omniTimingTxMs: Distribution | null;
  readonly omniTimingTxStates: Readonly<Record<TransferTxState, number>>;
}

export type Severity = 'error' | 'warning' | 'info';

export type FindingCode =
  | 'ttft-not-recorded'
  | 'diffusion-ttft-default'
  | 'ttft-no-output'
  | 'split-mismatch'
  | 'negative-interval'
  | 'queued-includes-input-wait'
  | 'ttft-includes-upstream-wait'
  | 'preempted-requests'
  | 'cold-start'
  | 'diffusion-zero-ambiguous'
  | 'truncated-record'
  | 'stage-tables-missing'
  | 'phase-split-not-printed'
  | 'overall-summary-per-prompt'
  | 'metric-not-reporting'
  | 'prefill-covers-decode'
  | 'stage-times-overlap'
  | 'input-compressed'
  | 'input-binary'
  | 'input-zero-filled'
  | 'input-deploy-config'
  | 'input-gzip-damaged'
  | 'input-cut-short'
  | 'legacy-stats-format'
  | 'engine-stats-only'
  | 'repeated-request-ids'
  | 'boots-differ-in-pipeline'
  | 'slow-server'
  | 'servers-differ-in-pipeline';

export interface Finding {
  readonly code: FindingCode;
  readonly severity: Severity;
  readonly stageId: number | null;
  /** The requests it concerns (capped in live summaries: see requestCount). */
  readonly requestIds: readonly string[];
  /** How many requests it concerns in all. */
  readonly requestCount: number;
  readonly message: string;
  /** metric-not-reporting: the metric family (or log line) that reads 0. */
  readonly family?: string;
  /** metric-not-reporting: what shows it (series, counts). */
  readonly evidence?: string;
  /** metric-not-reporting: the known causes, each with its upstream issue. */
  readonly knownCauses?: readonly string[];
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

export type { Percentile } from '../reportedPercentiles';

/** What a boot selection (StreamAnalysisOptions.boot) left out, and the boots the log has. */
export interface BootCounts {
  readonly boot: number;
  /** Requests of other boots (left out). */
  readonly outside: number;
  /** Every boot that gave a request (in or out of a time window), in order, with its request count. */
  readonly boots: readonly { readonly boot: number; readonly requests: number }[];
}

/** With one server of a merged log selected (--server): its tag, the other servers' requests (left out), and every server's. */
export interface ServerCounts {
  readonly server: string;
  /** Requests of other servers, or of no server's tag (left out). */
  readonly outside: number;
  /** Every server that gave a request (in the boot selected, in or out of a time window), by name, with its request count. */
  readonly servers: readonly { readonly server: string; readonly requests: number }[];
  /** Requests whose lines carried no server's tag (left out too). */
  readonly untagged: number;
  /** The boot selected with the server (--boot), whose servers `servers` are; absent: every boot. */
  readonly boot?: number;
}
