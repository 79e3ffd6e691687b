// The whole analysis of one stream of records, incremental: records go in as the parser
// yields them; requests, per-stage summaries and findings are available at any time.
// Used by the CLI (one pass over a file) and by live sessions alike.
import { judgeStageRoles, StageOutputEvidence, type JudgedStageRoles, type StageOutput } from './roleFit';
import { sameStageRoles } from '../stageRoles';
import type { EngineStatsRecord, LogRecord, ParseOutput, ParseProblem } from '../records';
import { EdgeSummaryBuilder } from './edgeSummary';
import { FindingsBuilder } from './findings';
import { EngineSeriesBuilder, type EngineSeries } from './engineSeries';
import { LogClock } from '../explain/logClock';
import { inClockWindow, windowOnClock, type ClockWindow, type WindowSpec } from '../explain/timeWindow';
import { metricNotReportingInEngineLines, type EngineLineScope } from '../explain/metricNotReporting';
import { RequestAssembler } from './requestAssembler';
import { RequestStore } from './requestStore';
import { StageSummaryBuilder } from './stageSummary';
import { EndToEndBuilder } from './endToEnd';
import { ServerSummaries, slowServerFinding, type ServerSummary } from './serverSummaries';
import { ServerSelection } from './serverSelection';
import { isStatsTableAtDebug, TablesMissingCounter } from './tablesMissing';
import { legacyStatsFinding, legacyStatsNote } from './legacyStats';
import { engineStatsOnlyFinding } from './engineStatsOnly';
import { requestScopeWords, type RequestsInScope } from './requestScope';
import { LegacyRequestReader, mayPrecedeTables } from './legacyRequests';
import { RunSummaryCollector, runSummaryTitle } from './runSummaries';
import { METRICS_SUMMARY_FORMAT } from '../log/metricsSummary';
import { OverallSummaryBuilder } from './overallSummaries';
import { BootPipelineEvidence, bootsDifferFinding, type BootPipeline } from './bootPipelines';
import { ServerPipelineEvidence, serversDifferFinding } from './serverPipelines';
import type {
  AnalyzedRequest,
  BootCounts,
  ServerCounts,
  EdgeSummary,
  EndToEndSummary,
  Finding,
  FindingCode,
  OverallSummaries,
  RunSummaries,
  StageSummary,
  TablesMissing,
} from './types';

/** A window that holds no time: that of a log with no time to place it by. */
const NO_TIME: ClockWindow = { fromMs: Number.POSITIVE_INFINITY, toMs: Number.NEGATIVE_INFINITY };

export interface AnalysisSnapshot {
  /** Every request, materialized from the packed store on first access (a live view should page through `StreamAnalysis.requests` instead). */
  readonly requests: readonly AnalyzedRequest[];
  /** requests.length, without materializing them. */
  readonly requestCount: number;
  /** Requests marked cold (first after a server start), without materializing them. */
  readonly coldRequestCount: number;
  /** The cold requests left out of the summaries (excludeCold); 0 when they are in. */
  readonly coldLeftOut: number;
  readonly stages: readonly StageSummary[];
  /** Per stage and replica, only for stages seen on more than one replica. */
  readonly replicas: readonly StageSummary[];
  /** Per transfer edge, over the same requests as the stage summaries. */
  readonly edges: readonly EdgeSummary[];
  readonly findings: readonly Finding[];
  /** End to end over the requests the stage summaries are over. */
  readonly endToEnd: EndToEndSummary | null;
  /** A log that merges several servers': per server, over the same requests; null for a log of one server. */
  readonly servers: readonly ServerSummary[] | null;
  /** Requests with only [OmniTiming] lines; null when every request has its stats tables. */
  readonly tablesMissing: TablesMissing | null;
  readonly problems: readonly ParseProblem[];
  /**
   * Every [Overall Summary] table read (cold requests' too: a table is not a request), per field,
   * while the log has no per-request stage table; null when none, or once the log has one (each
   * request then keeps its own call's summary).
   */
  readonly overallSummaries: OverallSummaries | null;
  /** The latest periodic line per engine. */
  readonly engineStats: readonly EngineStatsRecord[];
  /** Every periodic line per engine, with the stage and replica it serves. */
  readonly engineSeries: readonly EngineSeries[];
  readonly boots: number;
  readonly legacyRecords: number;
  /** Requests read from request_level_metrics dicts of that format (no phase split). */
  readonly legacyRequests: number;
  /** Requests read from their tables and the request_level_metrics dict printed before them (dictWithTables.ts). */
  readonly legacyWithTables: number;
  /** Of legacyRecords, the "Omni Metrics Summary" blocks of the unmerged PR #3069 (no older format). */
  readonly unmergedSummaryBlocks: number;
  /** Of the legacy records, the JSON lines of log_utils.py's stats files (legacyStats.ts). */
  readonly legacyJsonRecords: number;
  /** Run-level summary dicts and blocks (runSummaries.ts), as printed; null when none. */
  readonly runSummaries: RunSummaries | null;
  /** The log has a line at DEBUG (ParseOutput.debugLines): stats tables it lacks want --log-stats, not the level. */
  readonly debugLines: boolean;
  /** A stats table of the log was printed at DEBUG: its stats logger logs at DEBUG, so stage tables it lacks were cut out. */
  readonly statsTablesAtDebug: boolean;
}

/** What a window left out (StreamAnalysis.windowCounts). */
export interface WindowCounts {
  /** On the log clock; null while the log printed no time. */
  readonly window: ClockWindow | null;
  /** Requests with a time outside the window. */
  readonly outside: number;
  /** Requests without a time (no log prefix): no window can hold them. */
  readonly untimed: number;
  /** When the log's timed requests finished (the start of the printed second; ±Infinity: none). */
  readonly firstMs: number;
  readonly lastMs: number;
}

/** What a live view refreshes. */
export interface LiveSummary {
  readonly stages: StageSummary[];
  /** Per stage and replica, only for stages seen on more than one replica. */
  readonly replicas: StageSummary[];
  readonly edges: EdgeSummary[];
  readonly findings: Finding[];
  readonly endToEnd: EndToEndSummary | null;
  /** Per server of a log that merges several servers' (ServerSummaries); null in a log of one. */
  readonly servers: readonly ServerSummary[] | null;
  readonly tablesMissing: TablesMissing | null;
  readonly overallSummaries: OverallSummaries | null;
  /** Run-level summary dicts and blocks (runSummaries.ts), as printed; null when none. */
  readonly runSummaries: RunSummaries | null;
  /** The log has a line at DEBUG (ParseOutput.debugLines): stats tables it lacks want --log-stats, not the level. */
  readonly debugLines: boolean;
  /** A stats table of the log was printed at DEBUG: its stats logger logs at DEBUG, so stage tables it lacks were cut out. */
  readonly statsTablesAtDebug: boolean;
}

export interface StreamAnalysisOptions {
  /** Leave cold requests (first after a boot) out of the stage summaries; they stay in `requests` and findings. */
  readonly excludeCold?: boolean;
  /** Called for each request as it is finalized. */
  readonly onRequest?: (request: AnalyzedRequest) => void;
  /** Stage id -> role ("talker"), asked when findings are made: they name each stage as the views do ("stage 0 · talker"). */
  readonly stageRoles?: () => Readonly<Record<string, string>>;
  /** Year of the log's `MM-DD` timestamps (default: the current year). */
  readonly year?: number;
  /** Keep each request's [Overall Summary] in the store (default true; a few slots per request). */
  readonly keepOverallSummaries?: boolean;
  /**
   * Keep every request in the packed store (default true). A one-shot reader that writes
   * each request as it comes (onRequest) or needs none (a table of summaries) keeps none:
   * less work per request and memory that does not grow with the log; `requests` is then
   * empty and the snapshot's `requests` throws.
   */
  readonly keepRequests?: boolean;
  /**
   * The stage fields summarized per stage (default every numeric field; the phase split
   * always): a reader that prints only some (the table) need not sort the others.
   */
  readonly summaryFields?: ReadonlySet<string>;
  /**
   * Keep the per-replica summaries as requests come (default: only when no request is kept).
   * A live view asks for them on every refresh: kept as they come, they are not recomputed
   * over every request each time.
   */
  readonly replicasAsTheyCome?: boolean;
  /** Summarize the transfer edges (default true). */
  readonly edgeSummaries?: boolean;
  /**
   * Only requests that finished in this window (their stats' log time; a time without a date is
   * on the day of the log's first timed line, windowOn): the others are counted (`windowCounts`),
   * nothing else.
   */
  readonly window?: WindowSpec;
  /**
   * Only the requests of this server boot (the analysis's boot number: 0 for requests before the
   * first boot marker): the others are counted (`bootCounts`), nothing else, as a window's are.
   */
  readonly boot?: number;
  /**
   * Only the requests of this server of a log that merges several servers' (its lines' tag,
   * AnalyzedRequest.server): the others, and requests of no server's tag, are counted
   * (`serverCounts`), nothing else; its records alone give the engine lines, [Overall Summary]
   * tables and the model served.
   */
  readonly server?: string;
  /**
   * Summarize at all (default true). A reader that writes each request and nothing of the
   * whole (the CSV) turns it off: no stage, edge or end-to-end summaries, no findings, no
   * tables-missing notice; the snapshot's are then empty. The [Overall Summary] digest is kept
   * (one value per table and field): without a stage table it is all such a log holds, and the
   * CSV, which has no row for it, says so.
   */
  readonly summarize?: boolean;
  /**
   * Whether the log is still being written (a capture that runs), asked when findings are made:
   * engine-stats-only then waits for the Engine lines to say requests went through (engineStatsOnly.ts).
   */
  readonly live?: () => boolean;
}

export class StreamAnalysis {
  private readonly assembler = new RequestAssembler();
  private readonly summaries: StageSummaryBuilder;
  private readonly edgeSummaries = new EdgeSummaryBuilder();
  private readonly findingsBuilder: FindingsBuilder;
  private readonly stageOutputs = new StageOutputEvidence();
  private readonly endToEnd = new EndToEndBuilder();
  private readonly servers = new ServerSummaries();
  private readonly tablesMissing = new TablesMissingCounter();
  private readonly store: RequestStore;
  private readonly problemList: ParseProblem[] = [];
  /**
   * The [Overall Summary] digest, for a log whose summaries are all it says: dropped at its first
   * per-request stage table, so a DEBUG log's session does not keep a second copy of every
   * request's summary (~2 MB per 100k requests).
   */
  private overall: OverallSummaryBuilder | null = new OverallSummaryBuilder();
  private readonly engines = new Map<string, EngineStatsRecord>();
  private readonly engineSeriesBuilder = new EngineSeriesBuilder();
  /** With a boot or server selected, every engine line of the log (engineSeriesBuilder keeps the selection's): what engine-stats-only counts. */
  private readonly logEngineSeries: EngineSeriesBuilder | null;
  private readonly clock: LogClock;
  private bootCount = 0;
  /** Log clock of each boot marker, in order (boot n starts at the n-th); NaN for one without a timestamp. */
  private readonly bootStarts: number[] = [];
  /** The model the log says it serves: it names the pipeline, and so the stage roles, before the file's name does. */
  private servedModelName: string | null = null;
  /** The roles last judged, given again while they are the same: figures kept per roles key on the object. */
  private judgedRoles: Readonly<Record<string, string>> = {};
  private legacyCount = 0;
  private legacyRequestCount = 0;
  /** Requests read from their tables and the request_level_metrics dict before them (dictWithTables.ts). */
  private dictsWithTables = 0;
  /** legacyRequestCount and dictsWithTables over the log's every request, a boot's or window's left-out ones too. */
  private logLegacyRequests = 0;
  private logDictsWithTables = 0;
  /** Of the legacy dicts, the "Omni Metrics Summary" blocks of the unmerged PR #3069 (legacyStats.ts). */
  private unmergedCount = 0;
  /** Of the legacy dicts, the JSON lines of log_utils.py's stats files. */
  private jsonCount = 0;
  /** Made at the first legacy dict: a log in the current format never builds one. */
  private legacy: LegacyRequestReader | null = null;
  private readonly runSummaries = new RunSummaryCollector();
  private coldCount = 0;
  private accepted = 0;
  /** ParseOutput.debugLines of any parser output so far. */
  private debugLineRead = false;
  /** [Overall Summary] tables of the boot and window selected, kept past the first stage table (unlike `overall`). */
  private overallTableCount = 0;
  /** A stats table was printed at DEBUG (AnalysisSnapshot.statsTablesAtDebug), of the whole input. */
  private statsTableAtDebugRead = false;
  /** The window placed on the log clock (windowOn); null until the log printed a time. */
  private clockWindow: ClockWindow | null = null;
  /** Log clock of the first line with a log prefix (NaN until then): where a window is placed. */
  private firstLogMs = Number.NaN;
  private readonly bootPipelines = new BootPipelineEvidence();
  private readonly serverPipelines = new ServerPipelineEvidence();
  /** Requests per boot, before any selection: the boots a --boot may name. */
  private readonly bootRequests = new Map<number, number>();
  private bootOutside = 0;
  /** The server selected (options.server), counting the requests of the boot selected per server: the servers a --server may name. */
  private readonly serverSelection: ServerSelection;
  private readonly windowTally = {
    outside: 0,
    untimed: 0,
    firstMs: Number.POSITIVE_INFINITY,
    lastMs: Number.NEGATIVE_INFINITY,
  };
  private readonly keepRequests: boolean;
  /** The boot and window selected, in words (requestScopeWords); null for the whole log. */
  private readonly scopeWords: string | null;
  private readonly summarizeEdges: boolean;
  private readonly summarize: boolean;

  constructor(private readonly options: StreamAnalysisOptions = {}) {
    this.clock = new LogClock(options.year ?? new Date().getUTCFullYear());
    this.findingsBuilder = new FindingsBuilder(options.excludeCold === true);
    this.store = new RequestStore({ keepOverallSummaries: options.keepOverallSummaries !== false });
    this.keepRequests = options.keepRequests ?? true;
    this.summaries = new StageSummaryBuilder({
      replicasAsTheyCome: options.replicasAsTheyCome ?? !this.keepRequests,
      fields: options.summaryFields,
      // A reader that keeps no request reports once, at the end (analyze, explain).
      keepsTails: !this.keepRequests,
    });
    this.summarizeEdges = options.edgeSummaries ?? true;
    this.summarize = options.summarize ?? true;
    this.serverSelection = new ServerSelection(options.server ?? null);
    this.logEngineSeries =
      options.boot === undefined && options.server === undefined ? null : new EngineSeriesBuilder();
    this.scopeWords = requestScopeWords({
      ...(options.boot === undefined ? {} : { boot: options.boot }),
      ...(options.server === undefined ? {} : { server: options.server }),
      window: options.window !== undefined,
      excludeCold: options.excludeCold === true,
    });
    this.findingsBuilder.nameScope(this.scopeWords);
  }

  /** Feeds one parser output; returns the requests it finalized. */
  ingest(output: ParseOutput): AnalyzedRequest[] {
    for (const problem of output.problems) this.problemList.push(problem);
    this.findingsBuilder.addProblems(output.problems);
    if (output.debugLines === true && !this.debugLineRead) {
      this.debugLineRead = true;
      this.findingsBuilder.debugLinesRead();
    }
    if (Number.isNaN(this.firstLogMs) && output.firstLogTime !== undefined)
      this.firstLogMs = this.clock.toMs(output.firstLogTime) ?? Number.NaN;
    const done: AnalyzedRequest[] = [];
    for (const record of output.records) this.addRecord(record, done);
    return done;
  }

  /**
   * Finalizes the request still open (end of input). An analysis that keeps its requests (a
   * session's) is queried from then on: its summaries' sample sets are fitted to their samples,
   * the room they kept for more let go (~6 MB per 100k requests). One that keeps none reports
   * once and ends (analyze, explain): fitting would be work for nothing.
   */
  flush(): AnalyzedRequest[] {
    const done = this.accept(this.assembler.flush());
    if (this.legacy !== null) this.acceptLegacy(this.legacy.release(), done);
    if (this.keepRequests) {
      this.summaries.trim();
      this.edgeSummaries.trim();
      this.endToEnd.trim();
      this.findingsBuilder.trim();
      this.overall?.trim();
    }
    return done;
  }

  /** Accepts requests read from legacy dicts, appending them to `done`. */
  private acceptLegacy(requests: readonly AnalyzedRequest[], done: AnalyzedRequest[]): void {
    for (const request of requests) {
      this.logLegacyRequests += 1;
      if (!this.acceptOne(request)) continue;
      this.legacyRequestCount += 1;
      done.push(request);
    }
  }

  /**
   * With a window: where it lies on the log clock (null while the log printed no time), the
   * requests outside it and those without a time (both left out), and when the log's timed
   * requests finished; null without a window.
   */
  windowCounts(): WindowCounts | null {
    const spec = this.options.window;
    return spec === undefined ? null : { window: this.placedWindow(spec), ...this.windowTally };
  }

  /**
   * A window on this log's clock: a time without a date on the day of its first timed line, the
   * same day for every request, line and reader (analyze selects by it, explain places its scope
   * by it); null while the log printed no time.
   */
  windowOn(spec: WindowSpec): ClockWindow | null {
    return Number.isNaN(this.firstLogMs) ? null : windowOnClock(spec, this.firstLogMs);
  }

  /** The window selected (options.window), placed once (windowOn). */
  private placedWindow(spec: WindowSpec): ClockWindow | null {
    return (this.clockWindow ??= this.windowOn(spec));
  }

  /**
   * The stream went quiet: finalizes the open requests whose calls look over
   * (RequestAssembler.flushQuiet), when no parser still reads a table that may belong to
   * one. The others stay open until their call's next record, the next call, or the end:
   * live capture then gives the same requests as reading the same bytes at once.
   */
  flushIdle(parsers: Iterable<{ readonly holdsRequestTable: boolean }>): AnalyzedRequest[] {
    // A stats record waiting for its other file's record: a quiet stream is one file being written.
    const done: AnalyzedRequest[] = [];
    if (this.legacy !== null) this.acceptLegacy(this.legacy.release(), done);
    for (const parser of parsers) if (parser.holdsRequestTable) return done;
    for (const request of this.accept(this.assembler.flushQuiet())) done.push(request);
    return done;
  }

  get requestCount(): number {
    return this.accepted;
  }

  get problemCount(): number {
    return this.problemList.length;
  }

  /** A line at DEBUG was read (AnalysisSnapshot.debugLines), without building a summary. */
  get debugLines(): boolean {
    return this.debugLineRead;
  }

  /** A stats table was printed at DEBUG (AnalysisSnapshot.statsTablesAtDebug), without building a summary. */
  get statsTablesAtDebug(): boolean {
    return this.statsTableAtDebugRead;
  }

  /** [Overall Summary] tables read in the boot and window selected: without DEBUG lines, printed at INFO. */
  get overallTables(): number {
    return this.overallTableCount;
  }

  /** The requests so far (live: grows as requests arrive). */
  get requests(): RequestStore {
    return this.store;
  }

  /** Whether a request so far hit the per-request finding `code` (no summary built). */
  hasFinding(code: FindingCode): boolean {
    return this.findingsBuilder.has(code);
  }

  /** Stage summaries and findings only (what a live view refreshes), request ids capped per finding. */
  summary(maxRequestIds = 200): LiveSummary {
    const stages = this.summaries.stages();
    return {
      stages,
      replicas: this.summaries.replicas(this.includedRequests()),
      edges: this.edgeSummaries.edges(),
      findings: [
        ...this.bootFindings(),
        ...this.serverFindings(),
        ...this.findingsBuilder.findings(stages, maxRequestIds, this.stageRoles()),
        ...this.legacyFindings(),
        ...this.engineFindings(this.selectedEngineLines()),
      ],
      endToEnd: this.endToEnd.summary(),
      servers: this.servers.summary(),
      tablesMissing: this.tablesMissing.notice(this.debugLineRead, this.overallTableCount, this.statsTableAtDebugRead),
      overallSummaries: this.overall?.summary() ?? null,
      runSummaries: this.runSummaries.summaries(),
      debugLines: this.debugLineRead,
      statsTablesAtDebug: this.statsTableAtDebugRead,
    };
  }

  /** The periodic engine lines so far, per engine. */
  engineSeries(): EngineSeries[] {
    return this.engineSeriesBuilder.series();
  }

  /** Where each boot started on the log clock: boot n at the n-th entry (NaN: its marker had no timestamp). */
  bootStartsMs(): readonly number[] {
    return this.bootStarts;
  }

  private legacyFindings(): Finding[] {
    const f = this.legacyFindingOver(this.accepted, this.legacyRequestCount);
    return f === null ? [] : [f];
  }

  /**
   * The log's legacy-stats-format finding for some of its requests (a window, a boot, a scope):
   * the dicts are the log's, so its words and figures are (the requests of every boot and time
   * read from them); it is a warning when none of those `requests` has a phase split
   * (`legacyRequests` of them read from dicts alone), as the whole log's is. Null without dicts.
   */
  legacyFindingOver(requests: number, legacyRequests: number): Finding | null {
    const f = legacyStatsFinding(
      this.legacyCount,
      this.logLegacyRequests,
      this.logRequestCount(),
      this.unmergedCount,
      this.jsonCount,
      this.legacy?.joined ?? 0,
      this.logDictsWithTables,
    );
    return f === null ? null : { ...f, severity: legacyRequests >= requests ? 'warning' : 'info' };
  }

  /**
   * The legacy-format line of an output without findings (the CSV), null without dicts: the log's
   * dicts and the requests read from them, and how many of those the boot or window selected holds.
   */
  legacyNote(): string | null {
    const words = this.scopeWords;
    return legacyStatsNote(
      this.legacyCount,
      this.logLegacyRequests,
      this.unmergedCount,
      this.jsonCount,
      this.logDictsWithTables,
      words === null ? null : { words, legacyRequests: this.legacyRequestCount, withTables: this.dictsWithTables },
    );
  }

  /**
   * The findings of the log as a whole, not of its requests: what its input is (compressed,
   * binary, a deploy config, cut short) and what its engine stats lines say. A window or scope
   * of its requests carries them, `within` it saying how many of the log's requests it holds;
   * the KV-cache usage is judged over the engine lines the view keeps (`lines`: a boot's, a
   * window's).
   */
  logFindings(within: RequestsInScope | null = null, lines: EngineLineScope = {}): Finding[] {
    return [...this.findingsBuilder.inputFindings(within), ...this.engineFindings(lines)];
  }

  /** A merged log's servers of different pipelines, and its slow-server warning, over each server's own requests. */
  private serverFindings(): Finding[] {
    const mixed = serversDifferFinding(this.serverPipelines.pipelines());
    const slow = slowServerFinding(this.servers.summary());
    return [...(mixed === null ? [] : [mixed]), ...(slow === null ? [] : [slow])];
  }

  private bootFindings(): Finding[] {
    const f = bootsDifferFinding(this.bootPipelines.pipelines());
    return f === null ? [] : [f];
  }

  /** Evidence of the boots' pipelines with the models the log named and no request: fed some of the requests (a window of the stored ones). */
  bootPipelineEvidence(): BootPipelineEvidence {
    return this.bootPipelines.modelsOnly();
  }

  /** The model a merged log's server named at the start of its boot `boot` (null: none of its lines did). */
  serverBootModel(server: string, boot: number, bootZeroHasRequests: boolean): string | null {
    return this.serverPipelines.bootModel(server, boot, bootZeroHasRequests);
  }

  /** Evidence of a merged log's servers' pipelines with the models they named and no request: fed some of the requests. */
  serverPipelineEvidence(): ServerPipelineEvidence {
    return this.serverPipelines.modelsOnly();
  }

  /** The pipeline each boot served, over the requests kept (bootPipelines.ts). */
  bootPipelineShapes(): BootPipeline[] {
    return this.bootPipelines.pipelines();
  }

  /** With a boot selected: the requests of other boots (left out) and the boots the log has; null without one. */
  bootCounts(): BootCounts | null {
    const boot = this.options.boot;
    if (boot === undefined) return null;
    const boots = [...this.bootRequests].sort((a, b) => a[0] - b[0]).map(([b, requests]) => ({ boot: b, requests }));
    return { boot, outside: this.bootOutside, boots };
  }

  /** With a server selected: the requests of other servers (left out) and the servers the log has; null without one. */
  serverCounts(): ServerCounts | null {
    const counts = this.serverSelection.counts();
    const boot = this.options.boot;
    return counts === null || boot === undefined ? counts : { ...counts, boot };
  }

  /**
   * What the engine lines say: a KV-cache usage stuck at 0 over the lines `lines` keeps (those of
   * the boot and window selected, else all of them), and engine-stats-only, which says what kind
   * of log this is (one without a request): over its every line, or with a window the lines
   * `lines` keeps, said as the window's.
   */
  private engineFindings(lines: EngineLineScope): Finding[] {
    const series = this.engineSeriesBuilder.series();
    const logSeries = this.logEngineSeries === null ? series : this.logEngineSeries.series();
    const only = engineStatsOnlyFinding(
      logSeries,
      this.logRequestCount(),
      this.options.live?.() ?? false,
      lines.window === undefined ? null : lines,
    );
    return [...metricNotReportingInEngineLines(series, lines), ...(only === null ? [] : [only])];
  }

  /**
   * The engine lines of the boot and window selected: the window placed as windowCounts says it
   * (in a log that printed no time it holds no line).
   */
  private selectedEngineLines(): EngineLineScope {
    const spec = this.options.window;
    const boot = this.options.boot === undefined ? {} : { boot: this.options.boot };
    if (spec === undefined) return boot;
    return { ...boot, window: this.placedWindow(spec) ?? NO_TIME };
  }

  /**
   * The snapshot's findings with the KV-cache usage judged over the engine lines `lines` keeps:
   * for a reader that places the window itself (explain, on its index's clock), as analyze's
   * snapshot judges the lines of the boot and window selected.
   */
  findingsOver(lines: EngineLineScope): Finding[] {
    return this.findingsOf(this.summaries.stages(), lines);
  }

  private findingsOf(stages: readonly StageSummary[], lines: EngineLineScope): Finding[] {
    return [
      ...this.bootFindings(),
      ...this.serverFindings(),
      ...this.findingsBuilder.findings(stages, undefined, this.stageRoles()),
      ...this.engineFindings(lines),
      ...this.legacyFindings(),
    ];
  }

  /** The boots of the log's cold requests (a boot's or window's left-out ones too): those cold-start counts. */
  coldBoots(): ReadonlySet<number> {
    return this.findingsBuilder.coldBoots();
  }

  /** The requests the log gave, those a boot or a window left out too. */
  private logRequestCount(): number {
    let n = 0;
    for (const requests of this.bootRequests.values()) n += requests;
    return n;
  }

  snapshot(): AnalysisSnapshot {
    const stages = this.summaries.stages();
    const store = this.store;
    const kept = this.keepRequests;
    let requests: AnalyzedRequest[] | null = null;
    let replicas: StageSummary[] | null = null;
    const summaries = this.summaries;
    const included = (): Iterable<AnalyzedRequest> => this.includedRequests();
    return {
      get requests(): readonly AnalyzedRequest[] {
        if (!kept) throw new Error('this analysis keeps no requests (keepRequests: false)');
        return (requests ??= [...store]);
      },
      requestCount: this.accepted,
      coldRequestCount: this.coldCount,
      coldLeftOut: this.options.excludeCold === true ? this.coldCount : 0,
      stages,
      get replicas(): readonly StageSummary[] {
        return (replicas ??= summaries.replicas(included()));
      },
      edges: this.edgeSummaries.edges(),
      findings: this.findingsOf(stages, this.selectedEngineLines()),
      endToEnd: this.endToEnd.summary(),
      servers: this.servers.summary(),
      tablesMissing: this.tablesMissing.notice(this.debugLineRead, this.overallTableCount, this.statsTableAtDebugRead),
      problems: this.problemList,
      overallSummaries: this.overall?.summary() ?? null,
      engineStats: [...this.engines.values()],
      engineSeries: this.engineSeriesBuilder.series(),
      boots: this.bootCount,
      legacyRecords: this.legacyCount,
      legacyRequests: this.legacyRequestCount,
      legacyWithTables: this.dictsWithTables,
      unmergedSummaryBlocks: this.unmergedCount,
      legacyJsonRecords: this.jsonCount,
      runSummaries: this.runSummaries.summaries(),
      debugLines: this.debugLineRead,
      statsTablesAtDebug: this.statsTableAtDebugRead,
    };
  }

  /** The requests the stage summaries are over. */
  private *includedRequests(): Iterable<AnalyzedRequest> {
    for (const request of this.store) if (!(this.options.excludeCold === true && request.cold)) yield request;
  }

  /** Feeds one record; the requests it finalized are accepted and appended to `done`. */
  private addRecord(record: LogRecord, done: AnalyzedRequest[]): void {
    if (!this.statsTableAtDebugRead && isStatsTableAtDebug(record)) {
      this.statsTableAtDebugRead = true;
      this.findingsBuilder.statsTablesAtDebugRead();
    }
    if (record.kind === 'overallSummary') {
      if (
        this.inBoot(this.assembler.bootOf(record.header?.source)) &&
        this.inServer(record.header?.source) &&
        this.inWindow(record.header?.timestamp ?? null, false)
      ) {
        this.overall?.add(record.fields, record.complete);
        this.overallTableCount += 1;
        this.findingsBuilder.overallTablesRead(this.overallTableCount);
      }
    } else if (record.kind === 'stageTable') {
      this.overall = null;
    } else if (record.kind === 'servedModel') {
      const boot = this.assembler.bootOf(record.header?.source);
      this.bootPipelines.noteModel(boot, record.model);
      const server = record.header?.source;
      if (server !== undefined && server !== null) this.serverPipelines.noteModel(server, boot, record.model);
      // With a boot or server selected, its own model names the stages (another's may be another pipeline).
      if (this.inBoot(boot) && this.inServer(record.header?.source)) this.servedModelName ??= record.model;
    } else if (record.kind === 'engineStats') {
      this.engines.set(record.engine, record);
      // With a boot selected, the engines' load is that boot's too.
      const boot = this.assembler.bootOf(record.header?.source);
      const timeMs = this.clock.midpoint(record.header?.timestamp ?? null) ?? Number.NaN;
      if (this.inBoot(boot) && this.inServer(record.header?.source)) this.engineSeriesBuilder.add(record, timeMs, boot);
      this.logEngineSeries?.add(record, timeMs, boot);
    } else if (record.kind === 'legacyDict') {
      // Read apart from the assembler: the dict is a whole request, and the current format's path stays as it is.
      this.legacyCount += 1;
      if (record.format === METRICS_SUMMARY_FORMAT) this.unmergedCount += 1;
      if (record.json === true) this.jsonCount += 1;
      // A run summary names no request: kept as printed (within the window, as [Overall Summary] tables are).
      if (runSummaryTitle(record.format) !== null) {
        if (
          this.inBoot(this.assembler.bootOf(record.header?.source)) &&
          this.inServer(record.header?.source) &&
          this.inWindow(record.header?.timestamp ?? null, false)
        )
          this.runSummaries.add(record);
        return;
      }
      const assembler = this.assembler;
      const requests = (this.legacy ??= new LegacyRequestReader((key) => assembler.placeLegacyRequest(key))).read(
        record,
      );
      if (!mayPrecedeTables(record) || requests.length !== 1) {
        this.acceptLegacy(requests, done);
        return;
      }
      const before = done.length;
      this.assembler.holdDictInto(record.header, record.requestId as string, requests[0], done);
      this.keepAccepted(done, before);
      return;
    }
    const before = done.length;
    this.assembler.addInto(record, done);
    if (record.kind === 'bootMarker') {
      this.bootCount = this.assembler.bootNumber;
      // A start prints several markers (the API server's version, its start, the orchestrator's
      // ready line): a boot starts at the first of them, the one its number advanced at.
      if (this.bootCount > this.bootStarts.length)
        this.bootStarts.push(this.clock.toMs(record.header?.timestamp ?? null) ?? Number.NaN);
    }
    this.keepAccepted(done, before);
  }

  /** Keeps the accepted ones of the requests from `before` on in `done`. */
  private keepAccepted(done: AnalyzedRequest[], before: number): void {
    let kept = before;
    for (let i = before; i < done.length; i++) if (this.acceptCounted(done[i])) done[kept++] = done[i];
    done.length = kept;
  }

  private accept(requests: AnalyzedRequest[]): AnalyzedRequest[] {
    return requests.filter((request) => this.acceptCounted(request));
  }

  /** acceptOne, counting the requests read from dicts (a held dict comes out of the assembler, alone or with its tables). */
  private acceptCounted(request: AnalyzedRequest): boolean {
    const legacy = request.legacyDict === true;
    const withDict = !legacy && this.assembler.readWithDict(request);
    if (legacy) this.logLegacyRequests += 1;
    if (withDict) this.logDictsWithTables += 1;
    if (!this.acceptOne(request)) return false;
    if (legacy) this.legacyRequestCount += 1;
    if (withDict) this.dictsWithTables += 1;
    return true;
  }

  /** Whether a request (`count`: tallied when outside) or a record printed at `timestamp` is in the window. */
  private inWindow(timestamp: string | null, count: boolean): boolean {
    const spec = this.options.window;
    if (spec === undefined) return true;
    const t = this.clock.toMs(timestamp);
    const tally = this.windowTally;
    if (t === null) {
      if (count) tally.untimed += 1;
      return false;
    }
    // A record's time is its line's: that line has a log prefix, if the parser gave no first one.
    if (Number.isNaN(this.firstLogMs)) this.firstLogMs = t;
    const window = this.placedWindow(spec) as ClockWindow;
    if (!count) return inClockWindow(window, t);
    if (t < tally.firstMs) tally.firstMs = t;
    if (t > tally.lastMs) tally.lastMs = t;
    if (inClockWindow(window, t)) return true;
    tally.outside += 1;
    return false;
  }

  /**
   * The stage roles the served model the log prints gives, else those the source's names give
   * (options.stageRoles); over either, the names the server printed for its stages (`0:thinker`
   * columns: the `model_stage` names of the deploy config the server loaded, which no file name
   * outranks); {} where the stages' own output contradicts them (roleFit.ts).
   */
  stageRoles(): Readonly<Record<string, string>> {
    const fit = this.judgedStageRoles().roles;
    if (!sameStageRoles(fit, this.judgedRoles)) this.judgedRoles = fit;
    return this.judgedRoles;
  }

  /** Whether stageRoles() are the names the server printed for its stages. */
  stageRolesFromLabels(): boolean {
    return this.judgedStageRoles().fromLabels;
  }

  private judgedStageRoles(): JudgedStageRoles {
    return judgeStageRoles(this.servedModelName, () => this.options.stageRoles?.() ?? {}, this.stageOutputs.stages());
  }

  /** The model the log says it serves (its first start-up's non-default args), or null. */
  servedModel(): string | null {
    return this.servedModelName;
  }

  /** What each stage printed so far (roleFit.ts), for a reader that judges stage roles of its own (explain). */
  stageOutputEvidence(): readonly StageOutput[] {
    return this.stageOutputs.stages();
  }

  /** Whether boot `boot` is the one selected (or none is). */
  private inBoot(boot: number): boolean {
    return this.options.boot === undefined || this.options.boot === boot;
  }

  /** Whether a record of server `source` (undefined or null: no server's tag) is of the server selected (or none is). */
  private inServer(source: string | null | undefined): boolean {
    return this.serverSelection.has(source);
  }

  /** Takes in a finalized request; false when it is outside the boot, the server or the window (left out). */
  private acceptOne(request: AnalyzedRequest): boolean {
    this.bootRequests.set(request.boot, (this.bootRequests.get(request.boot) ?? 0) + 1);
    if (!this.inBoot(request.boot)) {
      this.bootOutside += 1;
      this.findingsBuilder.leaveOut(request);
      return false;
    }
    // Counted within the boot selected: the servers a --server may name there.
    if (!this.serverSelection.keep(request)) {
      this.findingsBuilder.leaveOut(request);
      return false;
    }
    if (!this.inWindow(request.timestamp, true)) {
      this.findingsBuilder.leaveOut(request);
      return false;
    }
    if (this.keepRequests) this.store.add(request);
    this.accepted += 1;
    this.stageOutputs.add(request);
    this.bootPipelines.add(request);
    this.serverPipelines.add(request);
    if (request.cold) this.coldCount += 1;
    if (this.summarize) {
      if (!(this.options.excludeCold === true && request.cold)) {
        this.summaries.add(request);
        if (this.summarizeEdges) this.edgeSummaries.add(request);
        this.endToEnd.add(request);
        this.servers.add(request);
        this.tablesMissing.add(request);
      }
      // It leaves cold starts out as the summaries do (excludeCold), as the editor's scoped views do.
      this.findingsBuilder.add(request);
    }
    this.engineSeriesBuilder.noteRequest(request);
    this.options.onRequest?.(request);
    return true;
  }
}
