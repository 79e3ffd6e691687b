// The one typed protocol between the extension host (src/), the language server
// (server/lsp/) and the webviews (webview/). Method names and payloads are declared
// here once; each side builds its RequestType/NotificationType from these names.
// Types only plus string constants: this module imports no runtime library, so the
// browser bundles can use it too.
import type {
  AnalyzedRequest,
  Distribution,
  EndToEndSummary,
  TimePerTokenSummary,
  TransfersTotalSummary,
  EdgeFieldStates,
  EdgeSummary,
  RequestTransfer,
  TransferTxState,
  Finding,
  OverallSummaries,
  Percentile,
  PhaseSplit,
  RequestStage,
  RunSummaries,
  RunSummariesJson,
  RunSummary,
  RunSummaryJson,
  Severity,
  SplitName,
  SplitState,
  StageSummary,
  TablesMissing,
  TimelineSegment,
} from './core/analysis/types';

export type {
  AnalyzedRequest,
  Distribution,
  EndToEndSummary,
  TimePerTokenSummary,
  TransfersTotalSummary,
  Finding,
  OverallSummaries,
  Percentile,
  PhaseSplit,
  RequestStage,
  RunSummaries,
  RunSummariesJson,
  RunSummary,
  RunSummaryJson,
  Severity,
  SplitName,
  SplitState,
  StageSummary,
  TablesMissing,
  TimelineSegment,
};
import type { CompareRunName } from './core/compare/runName';
import type { RankedPhase, RequestColourRule, RequestSlowestPhase } from './core/analysis/slowest';
export type { RankedPhase, RequestColourRule, RequestSlowestPhase };
export type { CompareRunName };
import type {
  ComparisonReport,
  LogSpan,
  TailComparison,
  FindingDiff,
  HistogramComparison,
  HistogramSide,
  MetricComparison,
  MetricId,
  QuantileComparison,
  RunBoot,
  RunServer,
  SideStats,
  UnknownReason,
} from './core/compare/types';
export type {
  ComparisonReport,
  LogSpan,
  TailComparison,
  FindingDiff,
  HistogramComparison,
  HistogramSide,
  MetricComparison,
  MetricId,
  QuantileComparison,
  RunBoot,
  RunServer,
  SideStats,
  UnknownReason,
};
import type { ServerContainer } from './core/containerName';
export type { ServerContainer };
import type { ServerSummary } from './core/analysis/serverSummaries';
export type { ServerSummary };
import type { HistogramSummary } from './core/metricsText/scrapeSummary';
export type { HistogramSummary };
import type { DeployStageMismatch } from './core/deploy/stageMismatch';
export type { DeployStageMismatch };
import type { PrometheusGauges, PrometheusStageRow, PrometheusTrend } from './core/prometheusQuery/stageFigures';
export type { PrometheusGauges, PrometheusStageRow, PrometheusTrend };
import type {
  BreakdownPart,
  BreakdownSummary,
  CostFit,
  CostFitSkipped,
  CostModel,
  ExplainScope,
  GaugeSeries,
  LoadAtArrival,
  LoadBucket,
  LoadReading,
  OneRequestTarget,
  OverTimeSeries,
  PartDistribution,
  PartPhase,
  PartState,
  PreemptionsInTail,
  RequestBreakdown,
  RollingSeries,
  StageLoad,
  StagePreemptions,
  StageSpan,
  TailAttribution,
  TailPart,
  TailQuantile,
  TargetName,
  TransferComponent,
  UnmeasuredTailPart,
} from './core/explain/types';
export type {
  BreakdownPart,
  BreakdownSummary,
  CostFit,
  CostFitSkipped,
  CostModel,
  ExplainScope,
  GaugeSeries,
  LoadAtArrival,
  LoadBucket,
  LoadReading,
  OneRequestTarget,
  OverTimeSeries,
  PartDistribution,
  PartPhase,
  PartState,
  PreemptionsInTail,
  RequestBreakdown,
  RollingSeries,
  StageLoad,
  StagePreemptions,
  StageSpan,
  TailAttribution,
  TailPart,
  TailQuantile,
  TargetName,
  TransferComponent,
  UnmeasuredTailPart,
};

// ---------------------------------------------------------------- sessions

export type SessionSourceKind = 'launch' | 'tail' | 'scrape' | 'attach' | 'import' | 'prometheus';

export type SessionStatus = 'starting' | 'running' | 'stopped' | 'exited' | 'crashed' | 'error';

export interface SessionInfo {
  readonly id: string;
  readonly kind: SessionSourceKind;
  /** Human description of the source: the command line, the file, the URL. */
  readonly description: string;
  /**
   * The session's name for people: what was served (model, or the file / URL read), the deploy
   * file, the start time ("Qwen3-TTS-12Hz-1.7B-CustomVoice · qwen3_tts.yaml · Dec 1 14:02"); an
   * imported log by its file and its log span instead of the import time ("run-42.log ·
   * qwen3_tts.yaml · logged 10-19 07:12:04 – 07:12:12"). Computed by the server
   * (server/capture/sessionTitle.ts, server/core/sessionName.ts).
   */
  readonly title: string;
  /** The log timestamps of its first and last request; null before a timestamped request (absent in metadata saved without it). */
  readonly logSpan?: LogSpan | null;
  /** An imported log's nth import among the sessions of a file of that name ("run-42.log (2)"); absent for the first and for other kinds. */
  readonly importOrdinal?: number;
  /** An import of a log and its rotations: how many files were read before `description`'s, as one log with it; absent for one file. */
  readonly earlierFiles?: number;
  /** ms since epoch */
  readonly startedAt: number;
  readonly status: SessionStatus;
  readonly requestCount: number;
  /** The deploy YAML this session was launched with or matched to by the user (absolute path). */
  readonly deployConfig: string | null;
  /**
   * The deploy config the log says its server loaded, as printed there (a path on the machine that
   * wrote it); absent when a tailed or imported log names none. It is `deployConfig` from the
   * start when that exact file exists here and is a deploy config; otherwise only the user ties
   * a file to the session.
   */
  readonly loggedDeployConfig?: string;
  /**
   * Stage id -> role as the views name stages ("1" -> "code2wav"): the pipeline its deploy file
   * or source names, {} where its stages' own output contradicts that (core/analysis/roleFit.ts).
   * Absent in metadata saved without it: the names alone then (core/stageRoles.ts).
   */
  readonly stageRoles?: Readonly<Record<string, string>>;
  /** The last error of the source (dead endpoint, crash, missing file), if any. */
  readonly lastError: string | null;
  /** Exit code or signal of a launched process, when it ended. */
  readonly exit: { readonly code: number | null; readonly signal: string | null } | null;
  readonly problemCount: number;
  /**
   * The log's gzip data broke off (input-gzip-damaged): how many bytes of log came before the
   * break. Every number of the session is of that part; the views say so where they show them.
   * Absent when the input was whole.
   */
  readonly gzipDamaged?: { readonly logBytes: number };
  /**
   * An imported file that is a /metrics scrape (told apart by content, as the CLI tells it): the
   * session has its histograms and gauges and no per-request log, as an attached /metrics one.
   * Absent for any other session.
   */
  readonly importedScrape?: true;
  /** This language server's relation to the session (see "sessions shared by windows"); absent in stored metadata. */
  readonly access?: SessionAccess;
}

export interface LaunchParams {
  /** Argument vector; never run through a shell. */
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly deployConfig?: string;
  /** When set, also scrape this URL's /metrics. */
  readonly metricsUrl?: string;
}

export interface TailParams {
  readonly path: string;
  /** Read the file from the start (true) or only what is appended from now (false). */
  readonly fromStart: boolean;
  readonly deployConfig?: string;
}

export interface ScrapeParams {
  readonly url: string;
  readonly intervalMs?: number;
}

export interface AttachParams {
  readonly pid: number;
}

export interface ImportParams {
  readonly path: string;
  /**
   * Files read before `path`, oldest first, as one log with it: the log's rotations
   * (`server.log.2.gz`, `server.log.1` before `server.log`). A table cut by a rotation is read whole.
   */
  readonly earlier?: readonly string[];
  readonly deployConfig?: string;
}

/** Read a deployment's per-stage, per-replica figures from a Prometheus server's query API. */
export interface PrometheusParams {
  /** Base URL of the Prometheus server: `http://host:9090`, or with its path prefix (`http://host/prometheus`). */
  readonly url: string;
  /** The label that tells deployments apart (`job`, `namespace`, `deployment`...). */
  readonly deploymentLabel: string;
  /** This deployment's value of that label; when absent, the only value found is used (several: an error naming them). */
  readonly deploymentValue?: string;
  /** PromQL duration of the rate()/increase() window (default `5m`), or `all`: the cumulative buckets since each server started. */
  readonly window?: string;
  /** Time between two polls of the query API (default 5000 ms). */
  readonly intervalMs?: number;
}

export interface PrometheusDeploymentsParams {
  readonly url: string;
  readonly deploymentLabel: string;
}

export interface PrometheusDeployments {
  readonly label: string;
  /** Values of the label on series of the vLLM-Omni / vLLM stage histograms, sorted. */
  readonly values: readonly string[];
}

export interface PrometheusSummary {
  readonly sessionId: string;
  readonly url: string;
  readonly deploymentLabel: string;
  /** The value queried (chosen, or the only one found); null before it is known. */
  readonly deploymentValue: string | null;
  /** `5m`-style duration or `all`. */
  readonly window: string;
  /** Prometheus evaluation time of the last good poll, ms since epoch; null before the first. */
  readonly evaluatedAt: number | null;
  /** Canonical families found for the deployment. */
  readonly families: readonly string[];
  readonly instances: readonly string[];
  /** By family (in PROMETHEUS_FAMILIES order), then stage, then replica; `stage` rows after the stage's replica rows. */
  readonly rows: readonly PrometheusStageRow[];
  readonly trend: PrometheusTrend | null;
  /** Running, waiting and KV-cache usage per (stage, replica) over the trend's range (query_range); null before the first answer or when none is exposed. */
  readonly gauges?: PrometheusGauges | null;
  /** E.g. one replica id reported by several hosts (their figures are merged), Prometheus warnings. */
  readonly warnings: readonly string[];
  /** The current error (server down, PromQL error); the rows are then those of the last good poll. */
  readonly lastError: string | null;
}

export interface ServingProcess {
  readonly pid: number;
  readonly argv: readonly string[];
  readonly deployConfig: string | null;
  readonly port: number | null;
  /** Where stdout/stderr point: a file path, or `pipe`/`terminal`/`unknown`. */
  readonly stdout: string;
  readonly stderr: string;
  /** Whether it prints the per-request stats tables (its log level), decided before attaching. */
  readonly statsTables: StatsTablesOutlook;
  /** The container it runs in (its output then goes to a pipe its runtime reads); absent or null: none. */
  readonly container?: ServerContainer | null;
}

// ---------------------------------------------------------------- stats tables (launch and attach)

/**
 * Whether a server prints vLLM-Omni's per-request stats tables, which upstream logs at
 * DEBUG: without them a log has only [OmniTiming] lines (no queued/prefill/decode/TTFT).
 */
export interface StatsTablesOutlook {
  /** yes: the stats logger runs at DEBUG; no: it does not (only [OmniTiming]); unknown: its level cannot be read. */
  readonly tables: 'yes' | 'no' | 'unknown';
  /** Where that comes from, in words: `VLLM_LOGGING_LEVEL=DEBUG in its environment`. */
  readonly reason: string;
}

export interface SessionRef {
  readonly sessionId: string;
}

export interface MatchDeployConfigParams extends SessionRef {
  /** Absolute path of the deploy YAML; null clears the session's match. */
  readonly deployConfig: string | null;
  /** Match even when the session's stage ids are not the config's (the user was told and chose to). */
  readonly acceptStageMismatch?: boolean;
}

export interface DeployConfigFitParams extends SessionRef {
  /** Absolute path of the deploy YAML. */
  readonly deployConfig: string;
}

export interface DeployConfigFitResult {
  /** Why the session's numbers do not belong on the config's stages; null when they fit (or either side's stages are not known yet). */
  readonly stageMismatch: DeployStageMismatch | null;
}

export interface DemoConfigCheckParams {
  /** Absolute path of the deploy YAML Start Demo Server would simulate (read from disk, as the simulator reads it). */
  readonly deployConfig: string;
  /** The `--scenario` Start Demo passes with it, if any. */
  readonly scenario?: string;
}

export interface DemoConfigCheckResult {
  /** Why the demo simulator cannot run the config (the usage error it would print), or null when it can. */
  readonly cannotRun: string | null;
}

export type MatchDeployConfigResult =
  | {
      readonly matched: true;
      readonly session: SessionInfo;
      /** Sessions matched to that config until now: no longer matched to it. */
      readonly replaced: readonly SessionInfo[];
      /**
       * The one of them whose numbers the config showed (core/deployConfigSession.ts), as it is
       * now; null when it showed none or already this session's.
       */
      readonly shownBefore: SessionInfo | null;
    }
  /** Nothing changed (no session renamed): the stages differ and `acceptStageMismatch` was not set. */
  | { readonly matched: false; readonly stageMismatch: DeployStageMismatch };

/** The retention settings (stageLens.retention.*), also sent as initializationOptions.retention. */
export interface RetentionParams {
  /** Saved sessions kept in storage; the oldest beyond it are deleted (never one still capturing). */
  readonly maxSessions: number;
}

export interface RetentionResult {
  /** Sessions deleted by applying the limits. */
  readonly removed: readonly string[];
}

export interface SessionsRemoved {
  readonly sessionIds: readonly string[];
}

export interface SummaryParams extends SessionRef {
  /** Only requests seen in the last N seconds; all when absent. */
  readonly windowSeconds?: number;
  /** Only the requests of this scope (a time window on the log clock, cold left out); see "why a request is slow". */
  readonly scope?: ExplainScope;
}

/** A restart of a scraped /metrics server: when it was seen and the series that showed it (its count went down, or its `_created` changed). */
export interface ScrapeRestart {
  /** The scrape that saw it (ms since epoch). */
  readonly atMs: number;
  /** `family{label="v", ...}` */
  readonly series: string;
  /** Its count (a histogram's) or value (a counter's) in the scrape before, and in the scrape that saw the restart. */
  readonly before: number;
  readonly after: number;
  /**
   * When the series' `_created` changed (seconds since epoch): before, and after. The count may
   * have grown past its old value meanwhile. Absent: the count went down.
   */
  readonly createdBefore?: number;
  readonly createdAfter?: number;
}

export interface SummaryResult {
  readonly sessionId: string;
  readonly requestCount: number;
  readonly stages: readonly StageSummary[];
  /**
   * Per stage and replica (`replicaId` set), only for the stages seen on more than one replica,
   * over the same requests as `stages`, by stage then replica: what the CLI's table prints under
   * such a stage. Absent reads as none.
   */
  readonly replicas?: readonly StageSummary[];
  readonly findings: readonly Finding[];
  /** Per-stage histograms of the last good /metrics scrape, when the session scrapes one. */
  readonly histograms: readonly HistogramSummary[];
  /** The last restart of the scraped server seen (a count went down between scrapes); absent or null: none. */
  readonly scrapeRestart?: ScrapeRestart | null;
  /** For a session that reads a Prometheus server: who reports each replica and its throughput; null for other sessions. */
  readonly prometheus: PrometheusPanel | null;
  /** End to end per request (e2e_total_ms, or [OmniTiming]'s total without the E2E table); null before any. */
  readonly endToEnd: EndToEndSummary | null;
  /**
   * A log that merges several servers' (kubectl logs --prefix, docker compose logs, stern): per
   * server by name, its requests and end to end over the same requests as `endToEnd`, as `analyze`'s
   * "End to end per server". Absent or null: no request named a server.
   */
  readonly servers?: readonly ServerSummary[] | null;
  /** Requests with only [OmniTiming] lines (the stats tables are DEBUG-only): the notice every view shows once; null when none. */
  readonly tablesMissing: TablesMissing | null;
  /**
   * The session's [Overall Summary] tables, per field (what an older build's INFO log has when it
   * printed no per-request table); null when none was read, and for a window or scope of requests
   * (the tables are the log's, not requests'). The server always sets it; absent reads as null.
   */
  readonly overallSummaries?: OverallSummaries | null;
  /**
   * The run-level summary dicts and blocks the log printed (omni.py's [Summary], the December 2025
   * summary dict, PR #3069's "Omni Metrics Summary"): their numbers as printed, the latest 20; the
   * run's figures, never a request's. As in `analyze --format json`: a key printed as None is
   * null (not measured), one not printed or cut off is absent, never 0. Null when none was read,
   * and for a window or scope of requests (they are the log's, not requests'). The server always
   * sets it; absent reads as null.
   */
  readonly runSummaries?: RunSummariesJson | null;
  /** Per transfer edge (`0->1`): see the section "transfer edges" below. */
  readonly edges: readonly EdgeSummary[];
  /** The session's server boots when it has two or more with requests; absent or null: fewer. */
  readonly boots?: SessionBoots | null;
  /**
   * The servers of a session whose log merges several (kubectl logs --prefix, docker compose
   * logs, stern), as the views offer them; absent or null: fewer than two servers with requests.
   */
  readonly sessionServers?: SessionServers | null;
  /**
   * The session's log has a line at DEBUG: with no stats table, the server lacks --log-stats, not
   * the DEBUG level (the empty views say so). Absent reads as false.
   */
  readonly debugLines?: boolean;
  /**
   * A stats table of the session's log was printed at DEBUG: its stats logger logs at DEBUG, so the
   * per-request tables it lacks were cut out of the log read. Absent reads as false.
   */
  readonly statsTablesAtDebug?: boolean;
}

/**
 * The server boots of a session whose log holds several (a server restarted, appending to its
 * log), as the views offer them: one boot's numbers are `scope.boot`'s (the requests `analyze
 * --boot` keeps).
 */
export interface SessionBoots {
  /** Every boot with requests, in order, over all of the session's requests (not only the summary's). */
  readonly boots: readonly RunBoot[];
  /**
   * The boots grouped by the pipeline they served, each group in words ("boots 1 and 3 (6
   * requests, Qwen/Qwen3-TTS): stages 0 llm → latent, 1 llm → audio"). Two or more: the boots
   * served different pipelines (the `boots-differ-in-pipeline` warning), and numbers pooled over
   * every boot describe none of them.
   */
  readonly pipelines: readonly string[];
  /** The boot this summary is over (`scope.boot`); null: every boot. */
  readonly selected: number | null;
}

/**
 * The servers of a merged log, as the views offer them: one server's numbers are `scope.server`'s
 * (the requests `analyze --server` keeps).
 */
export interface SessionServers {
  /** Every server with requests, by name, over all of the session's requests (not only the summary's). */
  readonly servers: readonly { readonly server: string; readonly requests: number }[];
  /** Requests no server's tag named (lines of the merged stream without a tag). */
  readonly untaggedRequests: number;
  /** The server this summary is over (`scope.server`); null: every server. */
  readonly selected: string | null;
}

/** What the side panel shows of a Prometheus session beside its per-replica histogram rows. */
export interface PrometheusPanel {
  /** `5m`-style window of the figures, or `all`. */
  readonly window: string;
  /** Prometheus evaluation time of the last good poll, ms since epoch; null before the first. */
  readonly evaluatedAt: number | null;
  /** One per (stage, replica) the deployment reports, by stage then replica: the Prometheus `instance`s (host:port) behind it. */
  readonly replicas: readonly PrometheusReplica[];
  /** Finished requests per second per (stage, replica), from query_range; null before the first range query answered. */
  readonly trend: PrometheusTrend | null;
}

export interface PrometheusReplica {
  readonly stage: string | null;
  readonly replica: string | null;
  readonly instances: readonly string[];
}

/** What to histogram: a split value or a numeric field of one stage. */
export interface HistogramParams extends SessionRef {
  readonly stageKey: string;
  /** `split:<SplitName>` or `field:<field_name>` */
  readonly metric: string;
  readonly bins: number;
  /** Only the requests of this scope. */
  readonly scope?: ExplainScope;
}

export interface HistogramResult {
  readonly metric: string;
  readonly stageKey: string;
  /** bins + 1 edges, ms (or the field's unit). */
  readonly edges: readonly number[];
  readonly counts: readonly number[];
  /** Values that are not numbers, by state (never binned as 0). */
  readonly notMeasured: number;
  readonly hidden: number;
  readonly notRecorded: number;
  /**
   * Printed numbers that are not measurements because the stage emits one output (its decode,
   * an interval between outputs: oneOutputStage.ts), on that many requests; never binned.
   */
  readonly oneOutput: number;
  /** Of the numbers binned, how many are inferred (a hidden half of a measured pair: shown ≈); the rest are measured. */
  readonly inferred: number;
  /** Of each bin's count, how many are inferred (drawn apart from the measured ones). */
  readonly inferredCounts: readonly number[];
  /** The percentiles whose value rests on an inferred number (shown ≈, never as measured). */
  readonly inferredPercentiles: readonly Percentile[];
  /** p50/p90/p99 (numpy's linear) of the numbers binned, in the same scope; null when none. */
  readonly distribution: Distribution | null;
}

/**
 * Requests over wall time, columnar for the many-requests timeline: request i ends at
 * endMs[i] (the middle of its printed second on the log clock, where Over Time places it,
 * or its capture time when the log has none) and lasted e2eMs[i] (null when not printed).
 */
export interface RequestSpans {
  /**
   * The scope the columns are of (a time window on the log clock, cold left out, one boot),
   * by the rule the request table's and the histograms' scope follows; null: every request.
   */
  readonly scope: ExplainScope | null;
  /** The session's requests, in scope or not (the chart says how many of them it shows). */
  readonly sessionRequests: number;
  readonly requestIds: readonly string[];
  readonly endMs: readonly number[];
  readonly e2eMs: readonly (number | null)[];
  /** That request's slowest stage (core/analysis/slowest.ts: the largest stage_gen_time_ms), or null. */
  readonly slowestStage: readonly (string | null)[];
  /** What colours the requests: slowest stage, or slowest phase where the stages ran alongside (slowest.ts). */
  readonly colourBy: RequestColourRule;
  /** Under 'slowestPhase': each request's slowest phase (null: none above 0); empty otherwise. */
  readonly slowestPhase: readonly (RequestSlowestPhase | null)[];
  readonly cold: readonly boolean[];
}

export interface RequestSpansParams extends SessionRef {
  /** Only the requests of this scope, as the request table's page keeps them. */
  readonly scope?: ExplainScope;
}

/** `<stageKey>.replica`: the replica the request's stage ran on (None last); `server`: the server of a merged log that printed it. */
export type RequestSortKey =
  | 'requestId'
  | 'line'
  | 'server'
  | `${string}.${SplitName}`
  | `${string}.field:${string}`
  | `${string}.replica`
  | `target:${TargetName}`;

export interface RequestPageParams extends SessionRef {
  readonly offset: number;
  readonly limit: number;
  readonly sortBy?: RequestSortKey;
  readonly descending?: boolean;
  /** Substring of the request id. */
  readonly filterText?: string;
  /** Only requests that touch this stage. */
  readonly stageId?: number;
  /** With `stageId`: only the requests whose stage ran on this replica. */
  readonly replicaId?: number;
  /** Only requests named by this finding code. */
  readonly findingCode?: string;
  /** Only the requests of this scope (a time window on the log clock, cold left out). */
  readonly scope?: ExplainScope;
  /** Only the requests whose target is at or above a value (the tail of a tail attribution). */
  readonly atLeast?: TargetAtLeast;
}

export interface RequestPage {
  readonly total: number;
  readonly offset: number;
  readonly requests: readonly AnalyzedRequest[];
}

export interface RequestDetailParams extends SessionRef {
  readonly requestId: string;
}

export interface RequestDetail {
  readonly request: AnalyzedRequest;
  readonly timeline: readonly TimelineSegment[];
  /** The parts of its end-to-end time (docs/breakdown.md), each with its state and place. */
  readonly breakdown: RequestBreakdown;
}

/** json / csv: the schemas of `stage-lens analyze --format json|csv`; trace: Chrome trace event format (Perfetto). */
export type ExportFormat = 'json' | 'csv' | 'trace';

export interface ExportParams extends SessionRef {
  readonly format: ExportFormat;
  /** Absolute path of the file to write. */
  readonly path: string;
}

export interface ExportResult {
  readonly path: string;
  readonly bytes: number;
  readonly requestCount: number;
}

export interface ImportProgress {
  readonly sessionId: string;
  readonly bytesRead: number;
  readonly totalBytes: number;
  readonly done: boolean;
}

export interface SessionChanged {
  readonly session: SessionInfo;
}

export interface RawOutput {
  readonly sessionId: string;
  readonly stream: 'stdout' | 'stderr' | 'system';
  readonly text: string;
}

// ---------------------------------------------------------------- transfer edges
//
// A request's edges are AnalyzedRequest.transfers (RequestTransfer: the TransferEdgeStats
// column and the [OmniTiming] send time, kept apart). SummaryResult.edges summarises them per
// edge over the same requests as `stages`: p50/p90/p99 of every TransferEdgeStats field and of
// [OmniTiming]'s send time, over measured values only, with the requests in each other state
// counted (hidden rows and requests without a column; `0.00ms` sends that are notRecorded).

export type { EdgeFieldStates, EdgeSummary, RequestTransfer, TransferTxState };

// ---------------------------------------------------------------- compare two runs

/** One side of a comparison: a session of this server, or a file/folder on disk (log, /metrics scrape, saved session folder). */
export type CompareTarget = { readonly sessionId: string } | { readonly path: string };

export interface CompareParams {
  readonly baseline: CompareTarget;
  readonly candidate: CompareTarget;
  /** Leave the first request after each server start out of the quantiles. */
  readonly excludeCold?: boolean;
  /**
   * Only the requests of this server boot of the baseline (a log or a session; numbered as
   * `stageLens/runBoots` lists them), as `compare --baseline-boot`; absent or null: every boot.
   */
  readonly baselineBoot?: number | null;
  /** ...of the candidate, as `compare --candidate-boot`. */
  readonly candidateBoot?: number | null;
  /**
   * Only the requests of this server of a merged log of the baseline (its lines' tag, as
   * `stageLens/runBoots` lists the servers), as `compare --baseline-server`; absent or null: every server.
   * With a boot too: that server's boot (each server numbers its own).
   */
  readonly baselineServer?: string | null;
  /** ...of the candidate, as `compare --candidate-server`. */
  readonly candidateServer?: string | null;
}

/** A run to pick a part of: with `server`, the boots asked for are that server's of a merged log. */
export type RunBootsParams = CompareTarget & { readonly server?: string | null };

/** What of one run the compare command may offer to pick. */
export interface RunBootsResult {
  /** The server boots that gave requests, in order (of `server`, when given); empty for a /metrics scrape or a run without requests. */
  readonly boots: readonly RunBoot[];
  /**
   * The servers of a merged log, by name, with their requests (every server, whatever `server`
   * is); empty for a log of one server, a scrape, and past MAX_SERVERS (the views' server pick stops there too).
   */
  readonly servers: readonly RunServer[];
  /** Requests whose lines carried no server's tag (left out of any one server's). */
  readonly untaggedRequests: number;
}

export interface CompareResult {
  readonly report: ComparisonReport;
  /** How the panel names the two runs (server/core/compare/runName.ts). */
  readonly baselineRun: CompareRunName;
  readonly candidateRun: CompareRunName;
}

// ---------------------------------------------------------------- sessions shared by windows (storage)
// Every window's language server lists the sessions of the one storage folder. A session
// belongs to the server that captures it; the others show it read-only, following its
// files as they grow, and take it over only when that server is gone. Saved sessions are
// listed from their metadata and replayed only when opened.

export interface SessionAccess {
  /** Another language server (window) captures it: shown here read-only; Stop it in that window. */
  readonly readOnly: boolean;
  /** Process id of the language server capturing it (this one's when it captures it here); null when nothing captures it. */
  readonly ownerPid: number | null;
  /**
   * Its requests are in memory here (it was opened: a view, a deploy config's numbers, a
   * compare). Until then `requestCount` and `problemCount` are the ones its metadata last
   * recorded (the capturing window saves them about once a second).
   */
  readonly loaded: boolean;
}

/** A stored file that could not be used as it is; also shown to the user as a warning. */
export interface StorageProblem {
  /** The session's folder name, or null for the storage folder itself. */
  readonly sessionId: string | null;
  /** The file or folder concerned. */
  readonly path: string;
  readonly message: string;
  /** The session was left out of the list (its folder is kept untouched). */
  readonly skipped: boolean;
}

// ---------------------------------------------------------------- why a request is slow
// Tail attribution, load at arrival, percentiles over time and cost per token of a
// session (docs/breakdown.md). Every query takes an ExplainScope: a time window on the
// log clock (the axis of OverTimeSeries.times; finish time = the log timestamp + 0.5 s, or
// the capture time when a line has none) and the exclude-cold switch. The answers come
// from per-request columns the session keeps as requests arrive, so they stay fast at
// 100k requests and do not re-analyse anything per notification.

export interface TailAttributionParams extends SessionRef {
  /** `e2e`, `stage<N>.firstOutput`, `stage<N>.ttft`; default the session's main target. */
  readonly target?: TargetName;
  /** Default p99. */
  readonly quantile?: TailQuantile;
  readonly scope?: ExplainScope;
  /** One attribution per server boot. */
  readonly byBoot?: boolean;
}

export interface TailAttributionResult {
  readonly sessionId: string;
  /** Requests of the session (in scope or not). */
  readonly requestCount: number;
  /** Targets some request of the session measured. */
  readonly targets: readonly TargetName[];
  /**
   * What a user of this deployment asks about first: the last stage's time to first
   * output (time to first audio for Qwen3-TTS and Qwen3-Omni), or e2e when no stage prints one.
   */
  readonly mainTarget: TargetName | null;
  /**
   * One entry, or one per boot; none for a scope (or boot) where no request measured the target,
   * nor where only one did: that one is in `oneRequest`.
   */
  readonly tails: readonly TailAttribution[];
  /**
   * The scope (or each boot) where only one request measured the target, with its value: no
   * tail to explain, as `explain`'s `oneRequest` (that request is its own median, every part
   * +0 ms). Empty when none.
   */
  readonly oneRequest: readonly OneRequestTarget[];
  /**
   * The requests that printed a preemption (vllm_num_preemptions > 0) in the target's tail at
   * the quantile against all in scope, per stage up to the target's, with a reading: `explain`'s
   * "Preemptions" section. null when none printed one (or the target is not measured); absent
   * reads as null.
   */
  readonly preemptions?: PreemptionsInTail | null;
}

export interface LoadAtArrivalParams extends SessionRef {
  readonly target?: TargetName;
  readonly quantile?: TailQuantile;
  readonly scope?: ExplainScope;
}

export interface LoadAtArrivalResult {
  readonly sessionId: string;
  /** null when the target is not measured. */
  readonly load: LoadAtArrival | null;
}

export interface OverTimeParams extends SessionRef {
  readonly scope?: ExplainScope;
  /** Default: e2e and every stage's firstOutput and ttft that some request measured. */
  readonly metrics?: readonly TargetName[];
  /** Default: from the data's rate (about 50 requests per window, at most 500 steps). */
  readonly stepMs?: number;
  readonly windowMs?: number;
}

export interface OverTimeResult {
  readonly sessionId: string;
  readonly series: OverTimeSeries;
  /**
   * The scope the series are of (RequestSpans.scope's rule: the one the request table keeps its
   * requests by); null: every request.
   */
  readonly scope: ExplainScope | null;
  /**
   * The boot and window the gauges (running, waiting, KV cache usage) are cut to: the samples
   * taken in that boot, within that window. Cold requests left out cut no gauge (the engines'
   * load is no request's). null: every sample of the session.
   */
  readonly gaugeScope: Omit<ExplainScope, 'excludeCold'> | null;
  /** The requests in that scope (with a log time or not). */
  readonly requests: number;
  /** The session's requests, in scope or not (the chart says how many of them it is over). */
  readonly sessionRequests: number;
}

export interface CostModelParams extends SessionRef {
  readonly scope?: ExplainScope;
}

export interface CostModelResult {
  readonly sessionId: string;
  readonly model: CostModel;
}

export interface BreakdownSummaryParams extends SessionRef {
  readonly scope?: ExplainScope;
}

export interface BreakdownSummaryResult {
  readonly sessionId: string;
  readonly summary: BreakdownSummary;
}

// ---------------------------------------------------------------- why a request is slow: the views
// The side panel's "Why p99 is slow", Latency Details' Tail tab, load at arrival and the
// Over Time charts ask these through the host (webview messages below); the table and the
// histograms take the same ExplainScope (the Over Time brush, the exclude-cold switch).

/** Requests whose target is at or above `ms` (RequestPageParams.atLeast). */
export interface TargetAtLeast {
  readonly target: TargetName;
  readonly ms: number;
}

/** The tail the request table is filtered to: the target at or above its value at the quantile. */
export interface TailFilter extends TargetAtLeast {
  readonly quantile: TailQuantile;
}

/** What a webview may ask of tail attribution (the session is the host's). */
export type TailQuery = Omit<TailAttributionParams, 'sessionId'>;
export type LoadQuery = Omit<LoadAtArrivalParams, 'sessionId'>;
export type OverTimeQuery = Omit<OverTimeParams, 'sessionId'>;

// ---------------------------------------------------------------- method table
// The language server's custom requests and notifications, for any LSP client. Each line
// says who sends it, when, and what it guarantees; docs/lsp-extensions.md describes them
// for users of other editors and is kept in step with this section by a test
// (test/unit/lsp-extensions-doc.test.ts). Every request fails as a JSON-RPC error
// (InvalidRequest) whose message a user can read: an unknown session, bad parameters.
// A request naming a saved session opens it first (replays its stored files once).

/** Client -> server requests: method name -> [params, result]. */
export interface ServerRequests {
  /** Extension at start and on refresh: every session of the storage folder (re-read first), newest first; saved ones from their metadata. */
  'stageLens/listSessions': [Record<string, never>, SessionInfo[]];
  /** Launch command: starts the server process without a shell and captures its output; answers once started (the process may still fail: watch `status`). */
  'stageLens/launch': [LaunchParams, SessionInfo];
  /**
   * Attach Log File command: follows a log file (rotation and truncation included) from its start or its end.
   * A gzip file (a rotated log, done growing) is imported whole instead: the answer is an `import` session.
   */
  'stageLens/tail': [TailParams, SessionInfo];
  /** Attach /metrics command: scrapes a Prometheus text endpoint every `intervalMs`; histograms only, no per-request rows. */
  'stageLens/scrape': [ScrapeParams, SessionInfo];
  /** Attach to Process command: follows the log of a running server (found by listServingProcesses) through its stdout/stderr files. */
  'stageLens/attach': [AttachParams, SessionInfo];
  /** Import Log command: reads a whole file once, reporting stageLens/importProgress; the session ends `exited` at its end. */
  'stageLens/import': [ImportParams, SessionInfo];
  /** Attach to Process command's pick list: local vLLM-Omni serving processes with where their output goes and whether it prints the stats tables. */
  'stageLens/listServingProcesses': [Record<string, never>, ServingProcess[]];
  /** Stop command and cancelled imports: stops this server's capture (a launched process is terminated); refused for a session another window captures. */
  'stageLens/stop': [SessionRef, SessionInfo];
  /** Any client: stops a launched session and launches the same command again as a new session; refused for sessions not launched by Stage Lens. */
  'stageLens/restart': [SessionRef, SessionInfo];
  /** Side panel and status bar, on every sessionChanged: per-stage splits with percentiles, findings, histograms, end to end; unmeasured values never counted as 0. */
  'stageLens/summary': [SummaryParams, SummaryResult];
  /** Latency panel's request table: one sorted, filtered page of analysed requests (the host caps `limit`). */
  'stageLens/requests': [RequestPageParams, RequestPage];
  /** Latency panel, when a request is chosen: its per-stage timeline and breakdown; null when the id is unknown. */
  'stageLens/request': [RequestDetailParams, RequestDetail | null];
  /** Any client: the session's findings (request ids capped), the same as in the summary. */
  'stageLens/findings': [SessionRef, Finding[]];
  /** Match Deploy Config command: sets (or clears, null) the deploy YAML whose stages show the session's numbers (one session per file); refused, changing nothing, when the stage ids differ (the config's as its open document has them, unsaved edits included, else on disk) unless `acceptStageMismatch`. */
  'stageLens/matchDeployConfig': [MatchDeployConfigParams, MatchDeployConfigResult];
  /** A deploy config's code lens, before showing the session on screen for it: whether the session's stages are the config's (checked as matchDeployConfig checks them); changes nothing. */
  'stageLens/deployConfigFit': [DeployConfigFitParams, DeployConfigFitResult];
  /** Start Demo Server, before it launches with a deploy config: whether the simulator can run it, by the simulator's own check (nothing is launched). */
  'stageLens/demoConfigCheck': [DemoConfigCheckParams, DemoConfigCheckResult];
  /** Latency panel's histogram tab: bins of one split or field of one stage; values in other states counted apart, never binned. */
  'stageLens/histogram': [HistogramParams, HistogramResult];
  /** Export command: writes the session as JSON, CSV or a Chrome trace to `path` (every log-derived string escaped). */
  'stageLens/export': [ExportParams, ExportResult];
  /** Latency panel's Each request chart: one column per request of the scope (end time, e2e, slowest stage, cold), the scope it is of echoed. */
  'stageLens/requestSpans': [RequestSpansParams, RequestSpans];
  /** Compare Sessions panel: two runs (sessions or paths) compared per stage and phase, with noise and findings that appeared or disappeared; refused when they cannot be compared. */
  'stageLens/compare': [CompareParams, CompareResult];
  /** Compare command, after a run is picked: its server boots with requests, offered as a choice when there are several. */
  'stageLens/runBoots': [RunBootsParams, RunBootsResult];
  /** Extension when stageLens.retention.* changes: applies the limits at once and answers the sessions deleted (never one still capturing). */
  'stageLens/setRetention': [RetentionParams, RetentionResult];
  /** Read From Prometheus command: polls a Prometheus server's query API for one deployment; bad parameters are refused before a session exists. */
  'stageLens/prometheus': [PrometheusParams, SessionInfo];
  /** Any client: a Prometheus session's per-stage, per-replica figures; null for other kinds of session. */
  'stageLens/prometheusSummary': [SessionRef, PrometheusSummary | null];
  /** Read From Prometheus command's pick list: values of the deployment label on the stage histograms, sorted. */
  'stageLens/prometheusDeployments': [PrometheusDeploymentsParams, PrometheusDeployments];
  /** Any client: stored files found unusable since the server started (skipped sessions, corrupt chunk indexes). */
  'stageLens/storageProblems': [Record<string, never>, StorageProblem[]];
  /** Why-slow views and other clients: which parts of the end-to-end time make a quantile's tail, per scope (or per boot). */
  'stageLens/tailAttribution': [TailAttributionParams, TailAttributionResult];
  /** Why-slow views and other clients: the target's quantile by the load each request met when it arrived. */
  'stageLens/loadAtArrival': [LoadAtArrivalParams, LoadAtArrivalResult];
  /** Why-slow views and other clients: rolling percentiles of e2e and each stage's first output and TTFT over the log clock. */
  'stageLens/overTime': [OverTimeParams, OverTimeResult];
  /** Why-slow views and other clients: time per token fitted per stage, with the stages it could not fit and why. */
  'stageLens/costModel': [CostModelParams, CostModelResult];
  /** Why-slow views and other clients: the distribution of each additive part of end-to-end time over the scope. */
  'stageLens/breakdownSummary': [BreakdownSummaryParams, BreakdownSummaryResult];
}

/** Server -> client notifications: method name -> payload. */
export interface ClientNotifications {
  /** Any change of a session (status, counts, deploy config); throttled to at most 4 per second per session. */
  'stageLens/sessionChanged': SessionChanged;
  /** Raw process output of a launched or attached server, for the editor terminal. */
  'stageLens/rawOutput': RawOutput;
  /** Saved sessions deleted by retention (their files are gone). */
  'stageLens/sessionsRemoved': SessionsRemoved;
  /** Progress of an import (a session of kind `import`), at most 4 per second. */
  'stageLens/importProgress': ImportProgress;
}

export type ServerRequestMethod = keyof ServerRequests;
export type ClientNotificationMethod = keyof ClientNotifications;
export type RequestParams<M extends ServerRequestMethod> = ServerRequests[M][0];
export type RequestResult<M extends ServerRequestMethod> = ServerRequests[M][1];

// ---------------------------------------------------------------- webview messages

/**
 * The commands a webview button may run (the empty state's "Start Demo Server"...): the name
 * the page posts -> the VS Code command the host executes. The one list: the page's type, the
 * host's check of what a page posts (src/views/messageGuard.ts) and the command run
 * (src/views/webviewMessages.ts) all read it; nothing else is ever run for a webview.
 */
export const WEBVIEW_COMMANDS = {
  startDemo: 'stageLens.startDemo',
  launch: 'stageLens.launchServer',
  attachProcess: 'stageLens.attachProcess',
  attachLog: 'stageLens.attachLogFile',
  attachMetrics: 'stageLens.attachMetrics',
  attachPrometheus: 'stageLens.attachPrometheus',
  importLog: 'stageLens.importLog',
  openSession: 'stageLens.openSession',
} as const;

export type WebviewCommand = keyof typeof WEBVIEW_COMMANDS;

/** What a latency view is focused on (clicking a stage, a finding, or the tail of "Why p99 is slow"). */
export interface ViewFilter {
  readonly stageId?: number;
  readonly findingCode?: string;
  /** The tail requests of a target: at or above its value at the quantile. */
  readonly tail?: TailFilter;
}

/** Extension host -> webview. */
export type HostToWebview =
  | {
      readonly type: 'session';
      readonly session: SessionInfo | null;
      readonly stageNames: Readonly<Record<string, string>>;
    }
  | { readonly type: 'summary'; readonly summary: SummaryResult }
  | { readonly type: 'requestPage'; readonly seq: number; readonly page: RequestPage }
  | { readonly type: 'requestDetail'; readonly detail: RequestDetail | null }
  | { readonly type: 'histogram'; readonly seq: number; readonly histogram: HistogramResult }
  /** sessionId: the session asked about, so that an answer arriving after another session is shown is dropped. */
  | { readonly type: 'spans'; readonly seq: number; readonly sessionId: string; readonly spans: RequestSpans }
  | { readonly type: 'filter'; readonly filter: ViewFilter }
  /** seq 0: pushed by the host with each summary (the side panel's "Why p99 is slow"). */
  | { readonly type: 'tail'; readonly seq: number; readonly tail: TailAttributionResult }
  | { readonly type: 'loadAtArrival'; readonly seq: number; readonly load: LoadAtArrivalResult }
  | { readonly type: 'overTime'; readonly seq: number; readonly overTime: OverTimeResult }
  | { readonly type: 'error'; readonly message: string };

/** Webview -> extension host. */
export type WebviewToHost =
  | { readonly type: 'ready' }
  | { readonly type: 'openLatencyPanel'; readonly filter: ViewFilter }
  | { readonly type: 'queryRequests'; readonly seq: number; readonly params: Omit<RequestPageParams, 'sessionId'> }
  | { readonly type: 'queryRequest'; readonly requestId: string }
  | { readonly type: 'queryHistogram'; readonly seq: number; readonly params: Omit<HistogramParams, 'sessionId'> }
  /** The Each request chart's columns over the scope every view is over; the answer's seq is the question's. */
  | { readonly type: 'querySpans'; readonly seq: number; readonly scope?: ExplainScope }
  /** The boot the view's summary (and the side panel's tail) is over, for that session; null: every boot. */
  | { readonly type: 'selectBoot'; readonly sessionId: string; readonly boot: number | null }
  /** The server of a merged log the view's summary (and the side panel's tail) is over, for that session; null: every server. */
  | { readonly type: 'selectServer'; readonly sessionId: string; readonly server: string | null }
  | { readonly type: 'queryTail'; readonly seq: number; readonly params: TailQuery }
  | { readonly type: 'queryLoad'; readonly seq: number; readonly params: LoadQuery }
  | { readonly type: 'queryOverTime'; readonly seq: number; readonly params: OverTimeQuery }
  | { readonly type: 'runCommand'; readonly command: WebviewCommand };

/** Extension host -> Compare Sessions panel. */
export type CompareHostToWebview =
  | { readonly type: 'loading'; readonly baselineRun: CompareRunName; readonly candidateRun: CompareRunName }
  | { readonly type: 'comparison'; readonly result: CompareResult }
  | { readonly type: 'error'; readonly message: string };

/** What the Compare Sessions panel drew (extension-host tests read it back). */
export interface CompareRendered {
  /** Metric rows in the table (one per stage and metric shown). */
  readonly rows: number;
  /** Quantile cells marked as a change (beyond noise, above the practical threshold, enough values: verdict `changed`). */
  readonly beyondNoise: number;
  /** `change:code:stage` of each finding row, e.g. `disappeared:ttft-not-recorded:1`. */
  readonly findings: readonly string[];
  /** Row key `<scope>.<metric>` -> the row's text as shown. */
  readonly texts: Readonly<Record<string, string>>;
}

/** Compare Sessions panel -> extension host. */
export type CompareWebviewToHost =
  | { readonly type: 'ready' }
  | { readonly type: 'rendered'; readonly rendered: CompareRendered }
  /** The page could not draw the comparison it was sent; `message` says why. */
  | { readonly type: 'drawFailed'; readonly message: string };
