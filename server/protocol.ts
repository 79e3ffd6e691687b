// The one typed protocol between the extension host (src/), the language server
// (server/lsp/) and the webviews (webview/). Method names and payloads are declared
// here once; each side builds its RequestType/NotificationType from these names.
// Types only plus string constants: this module imports no runtime library, so the
// browser bundles can use it too.
import type {
  AnalyzedRequest,
  Distribution,
  Finding,
  PhaseSplit,
  SplitName,
  SplitState,
  StageSummary,
  TimelineSegment,
} from './core/analysis/types';

export type { AnalyzedRequest, Distribution, Finding, PhaseSplit, SplitName, SplitState, StageSummary, TimelineSegment };

// ---------------------------------------------------------------- sessions

export type SessionSourceKind = 'launch' | 'tail' | 'scrape' | 'attach' | 'import';

export type SessionStatus = 'starting' | 'running' | 'stopped' | 'exited' | 'crashed' | 'error';

export interface SessionInfo {
  readonly id: string;
  readonly kind: SessionSourceKind;
  /** Human description of the source: the command line, the file, the URL. */
  readonly description: string;
  /** ms since epoch */
  readonly startedAt: number;
  readonly status: SessionStatus;
  readonly requestCount: number;
  /** The deploy YAML this session was launched with or matched to by the user (absolute path). */
  readonly deployConfig: string | null;
  /** The last error of the source (dead endpoint, crash, missing file), if any. */
  readonly lastError: string | null;
  /** Exit code or signal of a launched process, when it ended. */
  readonly exit: { readonly code: number | null; readonly signal: string | null } | null;
  readonly problemCount: number;
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
  readonly deployConfig?: string;
}

export interface ServingProcess {
  readonly pid: number;
  readonly argv: readonly string[];
  readonly deployConfig: string | null;
  readonly port: number | null;
  /** Where stdout/stderr point: a file path, or `pipe`/`terminal`/`unknown`. */
  readonly stdout: string;
  readonly stderr: string;
}

export interface SessionRef {
  readonly sessionId: string;
}

export interface SummaryParams extends SessionRef {
  /** Only requests seen in the last N seconds; all when absent. */
  readonly windowSeconds?: number;
}

export interface SummaryResult {
  readonly sessionId: string;
  readonly requestCount: number;
  readonly stages: readonly StageSummary[];
  readonly findings: readonly Finding[];
  /** Per-stage histograms of the last good /metrics scrape, when the session scrapes one. */
  readonly histograms: readonly HistogramSummary[];
}

/** One histogram series of a /metrics scrape, quantiles as PromQL's histogram_quantile (family unit). */
export interface HistogramSummary {
  readonly family: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly count: number;
  readonly sum: number;
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
}

/** What to histogram: a split value or a numeric field of one stage. */
export interface HistogramParams extends SessionRef {
  readonly stageKey: string;
  /** `split:<SplitName>` or `field:<field_name>` */
  readonly metric: string;
  readonly bins: number;
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
}

/**
 * Requests over wall time, columnar for the many-requests timeline: request i ends at
 * endMs[i] (log timestamp, second resolution, or capture time when the log has none)
 * and lasted e2eMs[i] (null when not printed).
 */
export interface RequestSpans {
  readonly requestIds: readonly string[];
  readonly endMs: readonly number[];
  readonly e2eMs: readonly (number | null)[];
  /** The stage whose stage_gen_time_ms was largest in that request (the slow stage), or null. */
  readonly slowestStage: readonly (string | null)[];
  readonly cold: readonly boolean[];
}

export type RequestSortKey = 'requestId' | 'line' | `${string}.${SplitName}` | `${string}.field:${string}`;

export interface RequestPageParams extends SessionRef {
  readonly offset: number;
  readonly limit: number;
  readonly sortBy?: RequestSortKey;
  readonly descending?: boolean;
  /** Substring of the request id. */
  readonly filterText?: string;
  /** Only requests that touch this stage. */
  readonly stageId?: number;
  /** Only requests named by this finding code. */
  readonly findingCode?: string;
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
}

export interface ExportParams extends SessionRef {
  readonly format: 'json' | 'csv';
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

// ---------------------------------------------------------------- method table

/** Client -> server requests: method name -> [params, result]. */
export interface ServerRequests {
  'stageLens/listSessions': [Record<string, never>, SessionInfo[]];
  'stageLens/launch': [LaunchParams, SessionInfo];
  'stageLens/tail': [TailParams, SessionInfo];
  'stageLens/scrape': [ScrapeParams, SessionInfo];
  'stageLens/attach': [AttachParams, SessionInfo];
  'stageLens/import': [ImportParams, SessionInfo];
  'stageLens/listServingProcesses': [Record<string, never>, ServingProcess[]];
  'stageLens/stop': [SessionRef, SessionInfo];
  'stageLens/restart': [SessionRef, SessionInfo];
  'stageLens/summary': [SummaryParams, SummaryResult];
  'stageLens/requests': [RequestPageParams, RequestPage];
  'stageLens/request': [RequestDetailParams, RequestDetail | null];
  'stageLens/findings': [SessionRef, Finding[]];
  'stageLens/matchDeployConfig': [{ readonly sessionId: string; readonly deployConfig: string | null }, SessionInfo];
  'stageLens/histogram': [HistogramParams, HistogramResult];
  'stageLens/export': [ExportParams, ExportResult];
  'stageLens/requestSpans': [SessionRef, RequestSpans];
}

/** Server -> client notifications: method name -> payload. */
export interface ClientNotifications {
  /** Throttled to at most 4 per second per session. */
  'stageLens/sessionChanged': SessionChanged;
  /** Raw process output for the editor terminal. */
  'stageLens/rawOutput': RawOutput;
  /** Progress of an import (a session of kind `import`), at most 4 per second. */
  'stageLens/importProgress': ImportProgress;
}

export type ServerRequestMethod = keyof ServerRequests;
export type ClientNotificationMethod = keyof ClientNotifications;
export type RequestParams<M extends ServerRequestMethod> = ServerRequests[M][0];
export type RequestResult<M extends ServerRequestMethod> = ServerRequests[M][1];

// ---------------------------------------------------------------- webview messages

/** What a latency view is focused on (clicking a stage or a finding). */
export interface ViewFilter {
  readonly stageId?: number;
  readonly findingCode?: string;
}

export type Percentile = 'p50' | 'p90' | 'p99';

/** Extension host -> webview. */
export type HostToWebview =
  | { readonly type: 'session'; readonly session: SessionInfo | null; readonly stageNames: Readonly<Record<string, string>> }
  | { readonly type: 'summary'; readonly summary: SummaryResult }
  | { readonly type: 'requestPage'; readonly seq: number; readonly page: RequestPage }
  | { readonly type: 'requestDetail'; readonly detail: RequestDetail | null }
  | { readonly type: 'histogram'; readonly seq: number; readonly histogram: HistogramResult }
  | { readonly type: 'spans'; readonly spans: RequestSpans }
  | { readonly type: 'filter'; readonly filter: ViewFilter }
  | { readonly type: 'error'; readonly message: string };

/** Webview -> extension host. */
export type WebviewToHost =
  | { readonly type: 'ready' }
  | { readonly type: 'openLatencyPanel'; readonly filter: ViewFilter }
  | { readonly type: 'queryRequests'; readonly seq: number; readonly params: Omit<RequestPageParams, 'sessionId'> }
  | { readonly type: 'queryRequest'; readonly requestId: string }
  | { readonly type: 'queryHistogram'; readonly seq: number; readonly params: Omit<HistogramParams, 'sessionId'> }
  | { readonly type: 'querySpans' }
  | { readonly type: 'runCommand'; readonly command: 'startDemo' | 'launch' | 'attachLog' | 'attachMetrics' | 'importLog' };
