// What comparing two runs produces. This is also the JSON schema of
// `stage-lens compare --format json` (schema 1) and the result of the `stageLens/compare`
// request, so every field is plain JSON data (numbers, strings, null), documented here.
//
// Vocabulary:
//   run       one input: a server log, a /metrics scrape, or a saved session folder
//   scope     a stage of the pipeline as printed in the stage table (`0`, `1`, `1_2`),
//             a transfer edge (`0->1`), or `request` for request-level figures (end to end)
//   metric    one timed interval of a scope (see metrics.ts for where each comes from)
//   measured  a number the server printed (or inferred by the analysis' documented rule);
//             every other state (None, hidden row, not recorded, ...) is counted apart and
//             never enters a quantile as 0.
import type { FindingCode, Severity } from '../analysis/types';
import type { Percentile } from '../reportedPercentiles';
import type { HistogramSummary } from '../metricsText/scrapeSummary';
import type { QuantileBounds } from '../metricsText/quantileBounds';
import type { ScrapeCutFamilies } from '../metricsText/scrapeCut';
import type { OneRequestTarget, TailAttribution, TargetName } from '../explain/types';
import type { LogSpan } from '../sessionName';
import type { StageOutput } from '../analysis/roleFit';
import type { StageKind } from '../analysis/types';
import type { StageRolesFrom } from '../stageRoles';
import type { BootCounts, ServerCounts } from '../analysis/types';

export type { LogSpan };

export const STAGE_METRICS = [
  'queued',
  'inputWait',
  'readyQueued',
  'prefill',
  'decode',
  'prefillDecode',
  'ttft',
  'genTime',
  'firstOutput',
  'addedFirstOutput',
] as const;
export const REQUEST_METRICS = ['e2e'] as const;
/** Per transfer edge (scope `0->1`): the TransferEdgeStats times and [OmniTiming]'s send time. */
export const EDGE_METRICS = ['edgeTx', 'edgeInFlight', 'edgeRxDecode', 'edgeOmniTimingTx'] as const;
export type StageMetric = (typeof STAGE_METRICS)[number];
export type RequestMetric = (typeof REQUEST_METRICS)[number];
export type EdgeMetric = (typeof EDGE_METRICS)[number];
export type MetricId = StageMetric | RequestMetric | EdgeMetric;

/** The scope of request-level metrics. */
export const REQUEST_SCOPE = 'request';

/**
 * Why a value is not a number, counted per run:
 *  notMeasured    printed `None`
 *  hidden         the row was absent from the log table (zero or not measured)
 *  notRecorded    a known lie detected (codec TTFT 0 with no prefill, seed 000; a negative interval)
 *  noOutput       serving_time_to_first_output_ms at its 0.0 default (no non-empty output)
 *  notComputable  a derived figure whose inputs were missing (e.g. no upstream first output)
 *  oneOutput      prefill or decode of a stage that emitted one output: its vllm_prefill_ms covers
 *                 both and is compared as the metric prefillDecode instead (oneOutputStage.ts)
 *  noTransferTable  a request that ran both stages of an edge the other run printed, with no
 *                 transfer table of that edge in its log
 */
export type UnknownReason =
  | 'notMeasured'
  | 'hidden'
  | 'notRecorded'
  | 'noOutput'
  | 'notComputable'
  | 'oneOutput'
  /** The stage is known only from an [OmniTiming] line: the run printed no stage table (INFO level, or a stats logger above DEBUG). */
  | 'noStageTable'
  | 'noTransferTable';
export type UnknownCounts = Partial<Record<UnknownReason, number>>;

/** The measured values of one metric of one scope in one run, sorted ascending. */
export interface MetricSamples {
  readonly values: Float64Array;
  /** How many of `values` were inferred by a documented rule rather than printed. */
  readonly inferred: number;
  /** How many of `values` are [OmniTiming] figures (seconds with 2 decimals: a 10 ms step); absent or 0 when none. */
  readonly coarse?: number;
  readonly unknown: UnknownCounts;
}

export interface ScopeSamples {
  readonly scope: string;
  readonly stageId: number | null;
  /** Requests that ran on this scope (cold requests left out when excluded). */
  readonly requestCount: number;
  readonly metrics: Partial<Record<MetricId, MetricSamples>>;
}

/** A finding of one run, reduced to what a comparison needs. */
export interface FindingCount {
  readonly code: FindingCode;
  readonly severity: Severity;
  readonly stageId: number | null;
  readonly requestCount: number;
  readonly message: string;
  /** Seen in a /metrics scrape (a known-to-mislead signature, a family stuck at 0), not in the log: no request count (requestCount 0). */
  readonly fromScrape?: boolean;
  /** The /metrics family it concerns, when it names one (metric-not-reporting). */
  readonly family?: string;
}

/**
 * One /metrics histogram series, quantiles as PromQL's histogram_quantile, in the family
 * unit: a scrape summary's row (count unknown as null, open-ended quantiles, the codec TTFT
 * caveat) without its sum.
 */
export type HistogramRow = Omit<HistogramSummary, 'sum'>;

export type RunKind = 'log' | 'scrape' | 'session';

/** Everything a comparison needs of one run. */
export interface RunData {
  /** File path, session folder or session id, as the user named it. */
  readonly source: string;
  readonly kind: RunKind;
  /** Per-request samples (a log, or a session with a captured log); null for a scrape only. */
  readonly samples: RunSamples | null;
  /** Histograms of a scrape (or of a session's last scrape); null when there is none. */
  readonly histograms: readonly HistogramRow[] | null;
  /** Lines or series that could not be read (never thrown). */
  readonly problemCount: number;
  /** Histogram series its scrape exposes, every family and replica (what `analyze` counts); absent when not known. */
  readonly exposedHistogramSeries?: number;
  /** What its scrape shows to be wrong (scrapeFindings.ts); absent or empty without a scrape. */
  readonly scrapeFindings?: readonly FindingCount[];
  /** With one server boot selected (compare --baseline-boot/--candidate-boot): that boot, the requests of others left out, the boots the log has. */
  readonly bootCounts?: BootCounts;
  /** With one server of a merged log selected (compare --baseline-server/--candidate-server): it, the others' requests left out, the servers the log has. */
  readonly serverCounts?: ServerCounts;
  /**
   * The server boots of a log or session with requests, in order (before any boot selection; of
   * the server selected, when one is: each server of a merged log numbers its own); absent for a scrape.
   */
  readonly boots?: readonly RunBoot[];
  /** Every server of a merged log with requests, by name (before any selection); absent for a scrape. */
  readonly servers?: readonly RunServer[];
  /** Requests whose lines carried no server's tag; absent for a scrape. */
  readonly untaggedRequests?: number;
  /** Bytes of log read before its gzip data broke off (what the run is of); absent for an input read whole. */
  readonly partialLogBytes?: number;
  /**
   * Where a /metrics scrape was cut short (its input-gzip-damaged finding's sentence, or its
   * input-cut-short one's when its text ends inside a line, as `analyze` lists them): its series
   * before the cut are the run. A log's break is among its findings.
   */
  readonly scrapeBreak?: string;
  /**
   * A scrape cut short: every family (canonical names) it read whole, those before the cut, and
   * the one it broke off in. A series of any other family absent from it is unknown in this run
   * (the cut may have taken it), not missing, and a finding read from such a family could not show
   * in it (findingCheckability.ts). Absent: the scrape was read whole, or where it broke off is not
   * known (a session's saved rows without their text).
   */
  readonly scrapeCut?: ScrapeCutFamilies;
  /**
   * What names its pipeline where its log names no served model: a saved session's deploy file
   * and source, as the editor names its stages (its folder's path says nothing of it); absent:
   * `source`, the file's path.
   */
  readonly pipelineNames?: string;
  /**
   * A saved session's stage roles as it recorded them (SessionInfo.stageRoles, as the editor
   * judged them against its stages): they name its stages instead of `pipelineNames`' (as explain
   * takes them); absent for a file and for a session that recorded none.
   */
  readonly recordedStageRoles?: Readonly<Record<string, string>>;
}

/** One server boot of a run: its number (as the analysis numbers boots), its requests, the model its start-up lines name (null: none). */
export interface RunBoot {
  readonly boot: number;
  readonly requests: number;
  readonly model: string | null;
}

/** One server of a merged log (its lines' tag) and its requests. */
export interface RunServer {
  readonly server: string;
  readonly requests: number;
}

export interface RunSamples {
  /** All requests read, cold ones included. */
  readonly requestCount: number;
  readonly coldRequests: number;
  /** true: cold requests (first after a server start) were left out of the samples. */
  readonly coldExcluded: boolean;
  readonly scopes: readonly ScopeSamples[];
  readonly findings: readonly FindingCount[];
  /** p99 tail attribution of the run's main target and of e2e (over the same requests as the samples); null with no request. */
  readonly tails?: RunTails | null;
  /** When the log says the run's requests were printed; null when it printed no timestamp. */
  readonly logSpan?: LogSpan | null;
  /**
   * Requests that ran both stages of a pair, keyed as an edge from the lower stage id
   * (`0->1`): what an edge the run printed no transfer table of was run by.
   */
  readonly stagePairRequests?: Readonly<Record<string, number>>;
  /** What each stage printed over all the run's requests (cold ones too): the evidence its stage roles must fit (roleFit.ts). */
  readonly stageOutputs?: readonly StageOutput[];
  /** The model the log says it serves ('model' of its non-default args): it names the pipeline whatever the file is called. */
  readonly servedModel?: string | null;
  /** [Overall Summary] tables read (one value per table and field, no request's): why a log of 0 requests has no split. */
  readonly overallSummaryTables?: number;
  /** The log has a line at DEBUG (ParseOutput.debugLines): a log of 0 requests then lacks --log-stats, not the level. */
  readonly debugLines?: true;
}

/** A run's p99 tails, by target (targetTails: a target only one request measured has none). */
export interface RunTails {
  readonly mainTarget: TargetName | null;
  readonly tails: Readonly<Record<TargetName, TailAttribution>>;
  /** Targets only one of the run's requests measured: that request and its value, in place of a tail. */
  readonly oneRequest: Readonly<Record<TargetName, OneRequestTarget>>;
}

/** Tail attribution of both runs side by side (tailCompare.ts). */
export interface TailComparison {
  readonly target: TargetName;
  readonly quantile: 'p99';
  /** The run's p99 tail of the target; null when it has none: no request measured the target, or only one (see oneRequest). */
  readonly baseline: TailAttribution | null;
  readonly candidate: TailAttribution | null;
  /**
   * Per run, the one request that alone measured the target, with its value: that request is its
   * own median, so it has no tail (every part +0 ms) and its side above is null.
   */
  readonly oneRequest: { readonly baseline: OneRequestTarget | null; readonly candidate: OneRequestTarget | null };
  /** Stages whose prefill holds their decode (one output) in a run: their prefill part is named prefill+decode. */
  readonly oneOutputStages?: readonly string[];
  /** Stage id -> role of the pipeline the runs' sources name (server/core/stageRoles.ts), where their stages fit it (roleFit.ts): the target's words, "time to first audio (stage 1 · code2wav)". */
  readonly stageRoles?: Readonly<Record<string, string>>;
  /** "the p99 excess of end-to-end time moved from stage 1 input wait (+812 ms) to stage 0 prefill (+640 ms) …" */
  readonly sentence: string;
}

// ---------------------------------------------------------------- comparison results

export interface SideStats {
  /** Requests of the run that reached this scope. */
  readonly requests: number;
  /** Values that entered the quantiles (measured + inferred). */
  readonly measured: number;
  readonly inferred: number;
  readonly unknown: UnknownCounts;
  /** null when there is no measured value. */
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
}

export interface ConfidenceInterval {
  readonly low: number;
  readonly high: number;
}

export interface QuantileComparison {
  readonly quantile: Percentile;
  readonly baseline: number;
  readonly candidate: number;
  /** candidate − baseline, ms (for a /metrics histogram of unit '', in its own unit). */
  readonly diffMs: number;
  /** 100 · (candidate − baseline) / baseline; 0 when both are 0; null when only the baseline is 0. */
  readonly diffPct: number | null;
  /** CI of diffMs; null when not testable (see `testable`). */
  readonly ci: ConfidenceInterval | null;
  /** The CI excludes 0; null when not testable. */
  readonly beyondNoise: boolean | null;
  /** Why there is no CI, when there is none. */
  readonly notTestable: string | null;
  /** The practical threshold: a smaller |diffMs| is no change worth flagging (the larger of --min-change-ms and --min-change-pct of the baseline). */
  readonly thresholdMs: number;
  /** Measured values each run needs for this quantile to be flagged (p50, p90: 10; p99: 100). */
  readonly minSamples: number;
  /** What the change is, in one word; only `changed` is flagged (see ChangeVerdict). */
  readonly verdict: ChangeVerdict;
}

/**
 *  changed         beyond noise, |Δ| above the practical threshold, enough values in both runs: flagged
 *  belowThreshold  beyond noise but no larger than the practical threshold
 *  fewSamples      fewer measured values in a run than this quantile needs (p99: 100)
 *  withinNoise     the CI includes 0
 *  notTestable     no CI (a /metrics histogram, or fewer than the minimum values)
 */
export type ChangeVerdict = 'changed' | 'belowThreshold' | 'fewSamples' | 'withinNoise' | 'notTestable';

/**
 *  compared       measured in both runs: quantiles and their differences
 *  baselineOnly   measured in the baseline only (the candidate counts say why not)
 *  candidateOnly  measured in the candidate only
 *  neither        measured in neither run (e.g. the LLM split of a diffusion stage)
 */
export type ComparisonStatus = 'compared' | 'baselineOnly' | 'candidateOnly' | 'neither';

export interface RankTest {
  /** Mann-Whitney U of the candidate sample. */
  readonly u: number;
  readonly z: number;
  /** Two-sided. */
  readonly pValue: number;
  /** pValue < 1 − confidence. */
  readonly beyondNoise: boolean;
}

export interface MetricComparison {
  readonly scope: string;
  readonly stageId: number | null;
  readonly metric: MetricId;
  readonly status: ComparisonStatus;
  readonly baseline: SideStats;
  readonly candidate: SideStats;
  /** p50/p90/p99 compared; empty unless status is `compared`. */
  readonly quantiles: readonly QuantileComparison[];
  /** Distribution shift test; null unless compared and testable. */
  readonly rankTest: RankTest | null;
}

export interface HistogramSide {
  /** null: unknown (no `_count` exposed). */
  readonly count: number | null;
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
  /** Quantiles that are only lower bounds (rank in the +Inf bucket). */
  readonly openEnded: readonly Percentile[];
  /** Quantiles that are bounds, not values (≤ the lowest bucket's bound, ≥ the highest finite one), `le` in the side's unit (ms for seconds families). */
  readonly bounds: QuantileBounds;
  /**
   * The series is known to be wrong in this run (codec TTFT signature, one output, downstream
   * queue time) or cut short (`cut`): why; null when neither.
   */
  readonly caveat: string | null;
  /** The scrape was cut short where it may have lost lines of the series: its numbers are unknown in this run. */
  readonly cut?: boolean;
  /** The series is a one-output stage's prefill (covering its decode), decode or time per output token in this run. */
  readonly oneOutput?: boolean;
}

export interface HistogramComparison {
  /** The canonical name (`vllm_omni:…`), which rules match on. */
  readonly family: string;
  /** The name as both runs' scrapes exposed it, where it differs from `family` (an older build's `vllm:omni_…`). Absent: the same, or two spellings. */
  readonly exposedName?: string;
  /** Labels that identify the series (model_name left out). */
  readonly labels: Readonly<Record<string, string>>;
  /** `ms` for *_seconds / *_s families (converted), else the family's own unit (''). */
  readonly unit: 'ms' | '';
  /** Which runs observed the series; `neither` only for a series cut short in a run, or absent from a scrape cut short before it (unknown, not empty, so kept). */
  readonly status: ComparisonStatus;
  readonly baseline: HistogramSide | null;
  readonly candidate: HistogramSide | null;
  /**
   * A run whose series is known to be wrong or cut short (its side's `caveat`): no difference is
   * taken on it, whatever the status. null: usable in both runs.
   */
  readonly notUsableIn: 'baseline' | 'candidate' | 'both' | null;
  /**
   * A run without the series whose scrape was cut short before it (the cut family, or one after
   * the cut): its values are unknown there, not absent, so no difference is taken. Absent: none.
   */
  readonly unreadIn?: 'baseline' | 'candidate';
  /** Point estimates only: a histogram has no per-request samples, so significance is not testable. Empty unless compared and usable in both runs. */
  readonly quantiles: readonly QuantileComparison[];
}

/**
 *  appeared     in the candidate, not in the baseline
 *  disappeared  in the baseline, not in the candidate (e.g. ttft-not-recorded after the fix)
 *  persisted    in both
 *  notCheckableInCandidate / notCheckableInBaseline  in one run, and the other could not show
 *               it (no stats tables, no log, no scrape, a scrape cut short inside or before the
 *               families it is read from): neither gone nor new
 */
export type FindingChange =
  'appeared' | 'disappeared' | 'persisted' | 'notCheckableInCandidate' | 'notCheckableInBaseline';

export interface FindingDiff {
  readonly code: FindingCode;
  readonly stageId: number | null;
  readonly severity: Severity;
  readonly change: FindingChange;
  /** Requests concerned in each run (0 when absent). */
  readonly baselineRequests: number;
  readonly candidateRequests: number;
  /** All requests of each run (the counts' denominators); null for a run without per-request data. Runs of different sizes are compared by rate. */
  readonly baselineOf?: number | null;
  readonly candidateOf?: number | null;
  /** The candidate's message when present there, else the baseline's. */
  readonly message: string;
  /** notCheckableIn*: why that run could not show it ("no stats tables: ..."). */
  readonly notCheckable?: string;
  /** Seen in the runs' /metrics scrapes, not their logs: no request counts (both 0). */
  readonly fromScrape?: boolean;
  readonly family?: string;
}

export interface SignificanceMethod {
  readonly bootstrap: string;
  readonly confidence: number;
  readonly resamples: number;
  readonly seed: number;
  /** Fewer measured values than this on a side: not testable. */
  readonly minSamples: number;
  readonly rankTest: string;
  readonly beyondNoise: string;
  readonly histograms: string;
  /** The practical threshold: a change must exceed the larger of these to be flagged. */
  readonly minChangeMs: number;
  readonly minChangePct: number;
  /** Values each run needs per quantile to be flagged. */
  readonly quantileMinSamples: Readonly<Record<Percentile, number>>;
  /** The whole rule for flagging a change, in words. */
  readonly flagged: string;
}

export interface RunSummary {
  readonly source: string;
  readonly kind: RunKind;
  /** null for a scrape (no per-request data). */
  readonly requestCount: number | null;
  readonly coldRequests: number | null;
  readonly coldExcluded: boolean;
  readonly problemCount: number;
  /** Latency histogram rows of a scrape, one per family and stage (a stage's replicas added): what is compared; null when there is none. */
  readonly histogramSeries: number | null;
  /** Histogram series the scrape exposes, every family and replica (what `analyze` counts); null or absent when not known (a session's saved scrape). */
  readonly exposedHistogramSeries?: number | null;
  /** The log timestamps of its first and last request; null with no timestamped request (a scrape, a log without them). */
  readonly logSpan?: LogSpan | null;
  /** The server boot of the log its requests are from, when one was selected (absent: every boot). */
  readonly boot?: number;
  /** The server of a merged log its requests are from, when one was selected (absent: every server). */
  readonly server?: string;
  /** Bytes of log read before its gzip data broke off: its numbers are of that part only (absent: read whole). */
  readonly partialLogBytes?: number;
  /** Its log has a line at DEBUG (RunSamples.debugLines): a run of [OmniTiming] lines only did not run at INFO; absent otherwise. */
  readonly debugLines?: true;
  /**
   * Its /metrics scrape was cut short (RunData.scrapeCut): the families it read whole, the one it
   * broke off in and that family's stages read whole before the cut; a series of any other is
   * unknown in this run. Absent: read whole, or where it broke off is not known.
   */
  readonly scrapeCut?: ScrapeCutFamilies;
}

export interface ComparisonReport {
  readonly schema: 1;
  readonly baseline: RunSummary;
  readonly candidate: RunSummary;
  readonly method: SignificanceMethod;
  /** Per scope and metric; scopes in pipeline order, `request` last. */
  readonly metrics: readonly MetricComparison[];
  readonly histograms: readonly HistogramComparison[];
  readonly findings: readonly FindingDiff[];
  /** Facts a reader needs (one run has no per-request data, stages differ, ...). */
  readonly notes: readonly string[];
  /** Where the p99 excess lies in each run; null or absent when neither run has per-request data. */
  readonly tail?: TailComparison | null;
  /** Stage id -> role of the pipeline the runs' sources name (server/core/stageRoles.ts), where their stages fit it (roleFit.ts): the tables name stages with them ("stage 1 · code2wav"). */
  readonly stageRoles?: Readonly<Record<string, string>>;
  /** Each run's stage roles from the model its log serves, a saved session's recorded roles or its names, where its stages fit them (before the two are reconciled into stageRoles). */
  readonly runStageRoles?: {
    readonly baseline: Readonly<Record<string, string>>;
    readonly candidate: Readonly<Record<string, string>>;
  };
  /** Where `stageRoles` came from, as in analyze's and explain's JSON: the run's whose roles they are ('none': stages by id). */
  readonly stageRolesFrom?: StageRolesFrom;
  /** Where each run's `runStageRoles` came from ('session': the roles a saved session recorded). */
  readonly runStageRolesFrom?: {
    readonly baseline: StageRolesFrom;
    readonly candidate: StageRolesFrom;
  };
  /** Each run's stage kinds (stage id -> llm or diffusion, as the analysis judged its output): a stage of one kind in each run is two pipelines. */
  readonly runStageKinds?: {
    readonly baseline: Readonly<Record<string, StageKind>>;
    readonly candidate: Readonly<Record<string, StageKind>>;
  };
  /** The runs ran different stages (two pipelines or deploy configs), or a stage of another role or kind in each (two pipelines): said first, as every stage row is in doubt; also in the notes. */
  readonly stagesDiffer?: string | null;
}
