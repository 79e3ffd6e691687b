// What "why a request is slow" produces: the additive breakdown of one request, tail
// attribution, load at arrival, percentiles over time, cost per token. Types only;
// shared by the CLI, the language server and (through server/protocol.ts) the webviews.
import type { Distribution, FindingCode } from '../analysis/types';

/** What a part of a request's time is. `transfer` parts name their edge and component. */
export type PartPhase =
  | 'preprocess'
  | 'inputWait'
  | 'readyQueued'
  | 'queued'
  | 'prefill'
  | 'decode'
  | 'genOther'
  | 'transfer'
  | 'finalOutput';

/**
 * The pieces of a hand-off between two stages: building the next stage's inputs
 * (`postprocess_time_ms` of the upstream stage), sending (`tx_time_ms`), in flight
 * (`in_flight_time_ms`), receiving and decoding (`rx_decode_time_ms`).
 */
export type TransferComponent = 'postprocess' | 'tx' | 'inFlight' | 'rxDecode';

/**
 * How a part's value stands.
 *  measured       printed by the server
 *  inferred       a hidden row read as 0 by a documented rule (the input split pair)
 *  reconstructed  computed from measured values by a rule the part names
 *  notMeasured    printed as `None`, or a value the log never carries
 *  hidden         the row is absent: zero or not measured
 *  notRecorded    a known lie was detected (codec TTFT 0 with no prefill)
 */
export type PartState = 'measured' | 'inferred' | 'reconstructed' | 'notMeasured' | 'hidden' | 'notRecorded';

export interface BreakdownPart {
  /** Stable name: `preprocess`, `<stageKey>/<phase>`, `<from>-><to>/<component>`, `finalOutput`. */
  readonly key: string;
  /** Column of the stage (`0`, `1`, `1_2`); null for preprocess, transfers and final output. */
  readonly stageKey: string | null;
  readonly stageId: number | null;
  readonly phase: PartPhase;
  /** `0->1`, transfers only. */
  readonly edge: string | null;
  readonly component: TransferComponent | null;
  /** Null unless the state is measured, inferred or reconstructed: never 0 for unknown. */
  readonly ms: number | null;
  readonly state: PartState;
  /** The rule behind a reconstructed value, or a note on a measured one (e.g. its precision). */
  readonly note: string | null;
  /** Position on the request's clock (ms from the client request's arrival); null when the part has no place. */
  readonly startMs: number | null;
  readonly endMs: number | null;
  /** measured: anchored on a measured time of the same origin; reconstructed: placed by `placementRule`. */
  readonly placement: 'measured' | 'reconstructed' | null;
  readonly placementRule: string | null;
  /**
   * A stage's rest of gen time that holds phases the log did not measure (its prefill or decode
   * not a number, and not inside a one-output prefill): the stage's unsplit work, not overhead.
   */
  readonly withUnmeasuredPhases: boolean;
}

/**
 * The parts of a request's end-to-end time. The identity, exact by construction:
 *   totalMs = Σ parts' ms − overlapMs + residualMs
 * overlapMs is the time during which two or more placed parts ran at once within
 * [0, totalMs] (async chunk); residualMs is what no part explains (final output and
 * orchestration when not measured, gaps between stages); it is negative when parts claim
 * more time than the request had (parts without a place that overlap, or placement
 * beyond the end).
 */
export interface RequestBreakdown {
  /** e2e_total_ms, or the [OmniTiming] total; null when the log printed neither. */
  readonly totalMs: number | null;
  readonly totalSource: 'e2e_total_ms' | 'omniTiming.total' | 'e2e_time_ms' | null;
  readonly parts: readonly BreakdownPart[];
  readonly overlapMs: number;
  /** measured when every placed part behind the overlap is anchored on measured times. */
  readonly overlapPlacement: 'measured' | 'reconstructed';
  /** null when totalMs is. */
  readonly residualMs: number | null;
  /** Where each stage sits on the request's clock (submit -> finished), as its parts are placed. */
  readonly stageSpans: readonly StageSpan[];
}

export interface StageSpan {
  readonly stageKey: string;
  readonly stageId: number | null;
  readonly startMs: number;
  readonly endMs: number;
  readonly placement: 'measured' | 'reconstructed';
  /** The rule that placed a stage without a measured anchor. */
  readonly placementRule: string | null;
  /** Ran while the stage before it still worked; null when the positions do not tell (stagePlacement.ts). */
  readonly alongsideUpstream: boolean | null;
}

/** `e2e`, `stage<N>.firstOutput`, `stage<N>.ttft` (`stage1_2.…` for a second segment). */
export type TargetName = string;

export type TailQuantile = 'p90' | 'p95' | 'p99';
export const TAIL_QUANTILES: readonly TailQuantile[] = ['p90', 'p95', 'p99'];
export const TAIL_PERCENT: Readonly<Record<TailQuantile, number>> = { p90: 90, p95: 95, p99: 99 };

/** Which requests a query is over. */
export interface ExplainScope {
  /** Only requests that finished in [fromMs, toMs] (ms on the series' time axis: the log clock). */
  readonly fromMs?: number;
  readonly toMs?: number;
  /** Leave the first request after each server start out. */
  readonly excludeCold?: boolean;
  /** Only requests of this server boot: the analysis's boot number, as `analyze --boot` keeps them. */
  readonly boot?: number;
  /** Only requests of this server of a merged log (its tag), as `analyze --server` keeps them. */
  readonly server?: string;
}

export interface TailPart {
  readonly key: string;
  readonly stageId: number | null;
  readonly stageKey: string | null;
  readonly phase: PartPhase;
  /** Transfers only. */
  readonly edge?: string;
  readonly component?: TransferComponent;
  /** Mean over the tail of (this part − its median over the requests in scope), within each request. */
  readonly excessMs: number;
  /** excessMs / the tail's mean excess of the target; null when that is 0. */
  readonly share: number | null;
  /** The part's median over the requests in scope (what the excess is measured from). */
  readonly medianMs: number;
  /** Tail requests in which the part was measured; in the others its time is in the residual. */
  readonly measuredIn: number;
  /**
   * A first-output target's part whose median is 0 because it mostly lies wholly after the
   * target's instant (nothing of it counts), not because it took 0 ms: in how many of the
   * requests in scope that measured it. Absent otherwise.
   */
  readonly afterTarget?: { readonly requests: number; readonly of: number };
  /** A stage's rest of gen time that also holds its prefill or decode where they were not measured (None or hidden). */
  readonly withUnmeasuredPhases?: true;
}

/**
 * A part that makes up the target but whose contribution to it no tail request measured:
 * under a first-output target, that stage's gen time where the log does not split it
 * (prefill or decode not measured). The first output lies somewhere inside it, and the log
 * does not say where. Its time is in the residual; no view shows it as a number.
 */
export interface UnmeasuredTailPart extends Pick<
  TailPart,
  'key' | 'stageId' | 'stageKey' | 'phase' | 'withUnmeasuredPhases'
> {
  /** Why it is not measured; shown beside the part, never a number. */
  readonly reason: string;
}

export interface TailAttribution {
  readonly target: TargetName;
  readonly quantile: TailQuantile;
  /** Present when the attribution is per server boot. */
  readonly boot?: number;
  /** The target's value at the quantile; the tail is every request at or above it. */
  readonly thresholdMs: number;
  readonly requestCount: number;
  /** Requests in scope with the target measured (the quantile and medians are over these). */
  readonly scopeCount: number;
  readonly targetMedianMs: number;
  /** Mean over the tail of (target − targetMedianMs). */
  readonly excessMs: number;
  /** Sorted by excessMs, largest first. */
  readonly parts: readonly TailPart[];
  /** excessMs − Σ parts' excessMs: negative where parts overlap (a downstream input wait and the upstream work it waits for). */
  readonly residualMs: number;
  /**
   * Downstream stages that, in most of the tail requests whose positions tell, ran while the
   * stage before them still worked (absent when none): only their time can lie within upstream time.
   */
  readonly alongsideStages?: readonly string[];
  /**
   * Under a later stage's first output: in how many tail requests the stages upstream counted
   * only up to the instant the next stage had its input (upstreamCut.ts; absent when none).
   */
  readonly upstreamUntilInput?: number;
  /**
   * Under a later stage's first output: the stages on the way (stage keys) whose input wait, in
   * most tail requests, lies within the time the stages upstream of them count, the same time
   * seen from downstream (upstreamCut.ts; absent when none).
   */
  readonly waitsWithinUpstream?: readonly string[];
  /**
   * Present when the scope has fewer values than the quantile needs before some value lies above
   * it (a p99 100, a p95 20, a p90 10; reportedPercentiles.ts): the threshold is then the largest
   * value or an interpolation towards it, not a tail estimate.
   */
  readonly fewValues?: { readonly needed: number };
  /** Tail requests that are cold, the first after a server boot (tailResult always sets it, 0 included). */
  readonly coldRequests?: number;
  /** The part of excessMs the cold tail requests bring: their (target − targetMedianMs) summed, over the tail's count. */
  readonly coldExcessMs?: number;
  /**
   * Under a downstream stage's TTFT: the tail requests whose TTFT includes a wait for upstream
   * output (finding ttft-includes-upstream-wait), time no part of that stage holds, so it is in the
   * residual; waitMs is that wait (TTFT − queued − prefill) summed over them, over the tail's count
   * (absent when none).
   */
  readonly ttftWaitedUpstream?: { readonly requests: number; readonly waitMs: number };
  /** Parts whose contribution is not known in any tail request (absent when none). */
  readonly notMeasured?: readonly UnmeasuredTailPart[];
  /** Up to 50 tail requests, slowest first. */
  readonly requestIds: readonly string[];
}

/**
 * A target that one request in scope measured (per boot where asked): no tail to explain, since
 * that request is its own median and every part's excess would be +0 ms; said with its value.
 */
export interface OneRequestTarget {
  readonly target: TargetName;
  readonly boot?: number;
  readonly requestId: string;
  /** The target's value in that request (ms). */
  readonly valueMs: number;
}

/** Requests by how many others were in flight when they arrived. */
export interface LoadBucket {
  /** Inclusive bounds of the in-flight count; maxInFlight null for the open last bucket. */
  readonly minInFlight: number;
  readonly maxInFlight: number | null;
  readonly count: number;
  readonly tailCount: number;
  /** The target's distribution over the bucket's requests; null when none. */
  readonly target: Distribution | null;
}

export interface StageLoad {
  readonly stageKey: string;
  readonly stageId: number | null;
  /** Requests (others) in this stage at each request's arrival: over all requests in scope, and over the tail. */
  readonly all: Distribution | null;
  readonly tail: Distribution | null;
}

/** What the tail's load at arrival says: queued behind others, slower at the same load, or slower at a lower load. */
export type LoadReading = 'busier' | 'sameLoad' | 'lower' | 'mixed' | 'unknown';

export interface LoadAtArrival {
  readonly target: TargetName;
  readonly quantile: TailQuantile;
  /** Present when the load is of one server boot's requests (explain --by-boot). */
  readonly boot?: number;
  /** Requests whose arrival is known (finish time and e2e_total_ms); the others are left out. */
  readonly arrivalsKnown: number;
  readonly arrivalsUnknown: number;
  /** Arrival = finish − e2e_total_ms; finish = the log timestamp (1 s resolution) + 0.5 s. */
  readonly resolutionMs: number;
  readonly thresholdMs: number | null;
  readonly inFlight: { readonly all: Distribution | null; readonly tail: Distribution | null };
  readonly buckets: readonly LoadBucket[];
  readonly stages: readonly StageLoad[];
  readonly reading: LoadReading;
  readonly readingText: string;
}

/** Rolling p50/p90/p99 of one metric, one value per step of the time axis (null: no request in the window). */
export interface RollingSeries {
  readonly metric: TargetName;
  readonly count: readonly number[];
  readonly p50: readonly (number | null)[];
  readonly p90: readonly (number | null)[];
  readonly p99: readonly (number | null)[];
}

/** A gauge per stage and replica on the same steps (last sample in each step; null: no sample). */
export interface GaugeSeries {
  readonly stage: string | null;
  readonly replica: string | null;
  /** Where the samples came from: the log's `Engine NNN:` lines, /metrics scrapes, a Prometheus server. */
  readonly source: 'log' | 'metrics' | 'prometheus';
  /** `Engine 000` for log lines. */
  readonly engine: string | null;
  /** In a log that merges several servers', the server whose engine it is (its lines' tag); absent otherwise. */
  readonly server?: string;
  /** How the stage and replica were found: the `[Stage-N]` prefix, inferred from the flat engine index, or the series' labels. */
  readonly mapping: 'stagePrefix' | 'inferred' | 'labels' | null;
  readonly running: readonly (number | null)[];
  readonly waiting: readonly (number | null)[];
  /** Percent (0-100), whatever the source's unit. */
  readonly kvCacheUsagePerc: readonly (number | null)[];
}

/** Samples of one engine's gauges, as read (before resampling); kv in percent. */
export interface GaugeSamples {
  readonly stage: string | null;
  readonly replica: string | null;
  readonly source: GaugeSeries['source'];
  readonly engine: string | null;
  readonly server?: string;
  readonly mapping: GaugeSeries['mapping'];
  readonly times: ArrayLike<number>;
  /** The server boot of each sample (absent: not known, left out when a boot is picked). */
  readonly boots?: ArrayLike<number>;
  readonly running: ArrayLike<number>;
  readonly waiting: ArrayLike<number>;
  readonly kvCacheUsagePerc: ArrayLike<number>;
}

export interface OverTimeSeries {
  /**
   * Step end times on the log clock (ms), within span: the last step ends at the last finish,
   * not at the grid's next round time after it. Empty when no request has a time.
   */
  readonly times: readonly number[];
  readonly stepMs: number;
  /** Each step's percentiles are over the requests that finished in (t − windowMs, t]. */
  readonly windowMs: number;
  /** What the log covers: the first to the last finish in scope (the gauges' samples when no request has a time); null when empty. */
  readonly span: { readonly fromMs: number; readonly toMs: number } | null;
  /**
   * Finished requests per second in each step, over the part of the step the log covers (the
   * step clipped to the printed seconds of the first and last finish). null where that part
   * is under two seconds (too short for a rate on a clock printed to the second), and in every
   * step when no request has a time (not measured).
   */
  readonly requestRate: readonly (number | null)[];
  readonly series: readonly RollingSeries[];
  readonly gauges: readonly GaugeSeries[];
}

export interface CostFit {
  readonly stageId: number | null;
  readonly stageKey: string;
  readonly x: 'num_tokens_in' | 'num_tokens_out';
  readonly y: 'vllm_prefill_ms' | 'vllm_decode_ms';
  readonly slopeMsPer1kTokens: number;
  readonly interceptMs: number;
  readonly r2: number;
  readonly n: number;
  /** Why the fit may not mean what it says (e.g. a prefill that holds the decode steps). */
  readonly caveat?: string;
}

/** A fit that was not shown, and why (too few points, no spread in x). */
export interface CostFitSkipped {
  readonly stageId: number | null;
  readonly stageKey: string;
  readonly x: CostFit['x'];
  readonly y: CostFit['y'];
  readonly n: number;
  readonly reason: string;
}

export interface CostModel {
  readonly fits: readonly CostFit[];
  readonly skipped: readonly CostFitSkipped[];
}

/** One part's distribution over the requests in scope (its ms in each request's breakdown). */
export interface PartDistribution {
  readonly key: string;
  readonly stageKey: string | null;
  readonly stageId: number | null;
  readonly phase: PartPhase;
  readonly edge: string | null;
  readonly component: TransferComponent | null;
  readonly distribution: Distribution | null;
  /** Requests in scope in which the part had no value (not measured, hidden, not recorded). */
  readonly missing: number;
}

export interface BreakdownSummary {
  readonly parts: readonly PartDistribution[];
  readonly overlap: Distribution | null;
  readonly residual: Distribution | null;
}

/** One stage's preempted requests (a printed vllm_num_preemptions above 0) in a target's tail and in scope. */
export interface StagePreemptions {
  readonly stageKey: string;
  readonly stageId: number | null;
  readonly tailPreempted: number;
  readonly allPreempted: number;
}

export type PreemptionReading = 'overRepresented' | 'notOverRepresented' | 'tooFew';

/**
 * Did the tail's requests lose time to preemption? Per stage up to the target's, the requests
 * that printed a preemption, in the tail against all in scope that measured the target (a
 * hidden row is zero or not measured: not counted as a preemption, nor as none).
 */
export interface PreemptionsInTail {
  readonly target: TargetName;
  readonly quantile: TailQuantile;
  readonly thresholdMs: number;
  readonly tailCount: number;
  readonly scopeCount: number;
  /** Stages with a preempted request in scope, in stage order. */
  readonly stages: readonly StagePreemptions[];
  readonly reading: PreemptionReading;
  readonly readingText: string;
}

/**
 * What a deploy config (`explain --deploy-config`) sets that speaks to one finding of the log:
 * cited where the report shows what the finding explains (a one-output part, the overlap set
 * apart, a stage's preemptions, a TTFT not recorded).
 */
export interface FindingCitation {
  readonly code: FindingCode;
  readonly stageId: number | null;
  /** The sentence, as the finding's message ends with it (server/core/deploy/configEvidence.ts). */
  readonly text: string;
}
