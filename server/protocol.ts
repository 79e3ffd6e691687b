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
  StageSummary,
} from './core/analysis/types';

export type { AnalyzedRequest, Distribution, Finding, PhaseSplit, SplitName, StageSummary };

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

/** One drawn segment of a request's waterfall. Times are ms from the request's arrival. */
export interface TimelineSegment {
  readonly stageKey: string;
  readonly phase: 'inputWait' | 'readyQueued' | 'queued' | 'prefill' | 'decode' | 'stage';
  readonly startMs: number;
  readonly endMs: number;
  /** measured: both ends come from the log; reconstructed: placed by `rule`. */
  readonly provenance: 'measured' | 'reconstructed';
  readonly rule: string;
}

export interface RequestDetail {
  readonly request: AnalyzedRequest;
  readonly timeline: readonly TimelineSegment[];
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
}

/** Server -> client notifications: method name -> payload. */
export interface ClientNotifications {
  /** Throttled to at most 4 per second per session. */
  'stageLens/sessionChanged': SessionChanged;
  /** Raw process output for the editor terminal. */
  'stageLens/rawOutput': RawOutput;
}

export type ServerRequestMethod = keyof ServerRequests;
export type ClientNotificationMethod = keyof ClientNotifications;
export type RequestParams<M extends ServerRequestMethod> = ServerRequests[M][0];
export type RequestResult<M extends ServerRequestMethod> = ServerRequests[M][1];
