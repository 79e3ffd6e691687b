// One capture session: its sources' bytes go through one parser per stream into one
// incremental analysis, and to disk (append-only) before anything else, so that what
// was captured survives a crash of the server or the editor.
import * as path from 'node:path';
import { TextDecoder } from 'node:util';
import { LogStreamParser } from '../core/log';
import { StreamAnalysis } from '../core/analysis/streamAnalysis';
import type { RequestStore } from '../core/analysis/requestStore';
import type { RequestsInScope } from '../core/analysis/requestScope';
import type { AnalyzedRequest } from '../core/analysis/types';
import type { BootPipeline, BootPipelineEvidence } from '../core/analysis/bootPipelines';
import type { ServerPipelineEvidence } from '../core/analysis/serverPipelines';
import { RequestOrderCache } from './requestQueries';
import { ScopedSummaryCache } from './scopedSummaries';
import { ExplainIndex } from '../core/explain/explainIndex';
import { ScrapeGauges } from '../core/explain/scrapeGauges';
import { KvUsageTracker, metricNotReportingInScrape, type EngineLineScope } from '../core/explain/metricNotReporting';
import { scrapeCutFinding, WHOLE_INPUT, type ScrapeEnd } from '../core/metricsText/scrapeCut';
import { preemptionsOf } from '../core/metricsText/preemptions';
import { speechStreamsOf } from '../core/metricsText/speechStreams';
import { NO_SCRAPE_COUNTERS, type ScrapeCounters } from './storage/storedScrapeCounters';
import type { ParsedExposition } from '../core/metricsText/model';
import { parseExposition } from '../core/metricsText/exposition';
import { histogramSummariesOf, scrapeProblemsOf } from '../core/metricsText/scrapeSummary';
import { ScrapeProblemLedger } from './scrapeProblemLedger';
import { MAX_SCRAPE_BYTES } from './inputByKind';
import { scrapeLifeOf } from '../core/metricsText/counterReset';
import { scrapeGzipDamagedFindingOf, type GzipInputKind } from '../core/gzipInput';
import type { ParseProblem } from '../core/records';
import type { Finding, FindingCode } from '../core/analysis/types';
import type { ExitInfo, CaptureListener, CaptureSource, ChunkStream } from './source';
import type { SessionFiles, SessionMeta, StoredChunk } from './sessionFiles';
import type { StoredChunkReader } from './storage/storedChunks';
import type { HistogramSummary, LogSpan, ScrapeRestart, SessionInfo, SessionStatus } from '../protocol';
import { NO_SCRAPE_LIFE, restartBetween, type ScrapeLife } from '../core/metricsText/counterReset';
import { withTitle } from './sessionTitle';
import type { FileLines } from '../core/joinedLines';
import { inputDamageInfo } from './storage/storedMeta';
import { localDeployConfig } from './deployEvidence';
import { Throttle } from './throttle';
import { stageRolesOfNames } from '../core/stageRoles';
import type { ServerStartLine } from './scrapeStartup';
import { isCapturing } from './retention';
import { IdleFlush, idleWaitMs, quietSince } from './idleFlush';

/** While capturing, the request and problem counts in session.json are brought up to date at most this often. */
const COUNT_SAVE_MS = 1000;

/** Where a session's metadata goes when it changes. */
export interface MetaStore {
  /** Saves it when this window may write the session's files; otherwise it is kept in memory only. */
  save(meta: SessionMeta): void;
}

/** How bytes reach the analysis: captured here (stored first), read from files another window is writing, or replayed. */
type IngestMode = 'capture' | 'follow' | 'replay';

export interface SessionEvents {
  /** Anything changed (requests, status, error). The registry throttles these. */
  changed(session: Session): void;
  /** Raw output for the editor terminal. */
  raw(session: Session, stream: 'stdout' | 'stderr' | 'system', text: string): void;
}

export class Session {
  private meta: SessionMeta;
  private readonly parsers = new Map<ChunkStream, LogStreamParser>();
  private readonly decoders = new Map<ChunkStream, TextDecoder>();
  private analysis: StreamAnalysis;
  /** capturedAt[i] = when request i (in analysis order) was finalized, ms since epoch. */
  private capturedAt: number[] = [];
  /** The log timestamps of the first and the last request, in log order (a log over New Year stays in order). */
  private firstLogTime: string | null = null;
  private lastLogTime: string | null = null;
  private chunkTime = Date.now();
  private readonly idleFlush = new IdleFlush(
    () => idleWaitMs(this.sources),
    () => {
      if (this.analysis.flushIdle(this.parsers.values()).length > 0) {
        this.countSaver.trigger();
        this.events.changed(this);
      }
    },
  );
  private sources: CaptureSource[] = [];
  private scrapeRows: HistogramSummary[] | null = null;
  private restart: ScrapeRestart | null = null;
  /** What the last endpoint scrape said about its server's life (counters, `_created`), for the next one's restart check. */
  private scrapeLife: ScrapeLife = NO_SCRAPE_LIFE;
  private readonly countSaver = new Throttle(COUNT_SAVE_MS, () => this.saveCounts());
  /** Per-request columns for "why is it slow" (tail, load, over time, cost), fed as requests arrive. */
  private explainColumns: ExplainIndex;
  /** Running / waiting / KV-cache usage per (stage, replica) from this session's scrapes. */
  readonly scrapeGauges = new ScrapeGauges();
  private readonly kvUsage = new KvUsageTracker();
  /** Null until a scrape is read here: the stored ones (an earlier capture's, another window's) are read then. */
  private scrapeFindings: Finding[] | null = null;
  /** As scrapeFindings: null until a scrape is read here or the stored ones are. */
  private counters: ScrapeCounters | null = null;
  /** The last start-up line of the server's log (a launched server's /metrics start-up, scrapeStartup.ts). */
  private startLine: ServerStartLine | null = null;
  /** Whether the stored input damage (meta.inputDamage) was read into the analysis: once, at the end of the streams. */
  private damageRead = false;
  /** Where an imported scrape's gzip data broke off (input-gzip-damaged), once its streams ended. */
  private scrapeDamage: Finding | null = null;
  /** Whether an imported scrape's text was read (imported here, or read back from the stored bytes). */
  private scrapeTextRead = false;
  private readonly scrapeProblemLedger = new ScrapeProblemLedger();

  constructor(
    meta: SessionMeta,
    readonly files: SessionFiles,
    private readonly events: SessionEvents,
    private readonly store: MetaStore,
  ) {
    this.meta = meta;
    this.explainColumns = this.newExplainIndex();
    this.analysis = this.newAnalysis();
  }

  get id(): string {
    return this.meta.info.id;
  }

  get info(): SessionInfo {
    return withTitle(this.meta, {
      ...this.meta.info,
      requestCount: this.analysis.requestCount,
      problemCount: this.analysis.problemCount,
      logSpan: this.logSpan(),
      stageRoles: this.analysis.stageRoles(),
      ...inputDamageInfo(this.meta),
    });
  }

  /** When the log says its requests were printed; null before a timestamped request. */
  private logSpan(): LogSpan | null {
    const stored = this.meta.info.logSpan ?? null;
    if (this.firstLogTime === null || this.lastLogTime === null) return stored;
    // A reopened session reads its stored bytes again: until it has read the requests its
    // metadata counts, the stored span says more (and its title stays put).
    if (stored !== null && this.analysis.requestCount < this.meta.info.requestCount) return stored;
    if (stored !== null && stored.first === this.firstLogTime && stored.last === this.lastLogTime) return stored;
    return { first: this.firstLogTime, last: this.lastLogTime };
  }

  get sessionMeta(): SessionMeta {
    return this.meta;
  }

  /** The analysis so far (requests, summaries, findings, problems). */
  snapshot() {
    return this.analysis.snapshot();
  }

  /** The boots' pipelines with the models the log named, to be fed some of the session's requests (a window of them). */
  bootPipelineEvidence(): BootPipelineEvidence {
    return this.analysis.bootPipelineEvidence();
  }

  /** The model a merged log's server named at the start of its boot `boot` (null: none of its lines did). */
  serverBootModel(server: string, boot: number, bootZeroHasRequests: boolean): string | null {
    return this.analysis.serverBootModel(server, boot, bootZeroHasRequests);
  }

  /** A merged log's servers' pipelines with the models they named, to be fed some of the session's requests. */
  serverPipelineEvidence(): ServerPipelineEvidence {
    return this.analysis.serverPipelineEvidence();
  }

  /** The pipeline each server boot served (its requests and model), in boot order. */
  bootPipelines(): BootPipeline[] {
    return this.analysis.bootPipelineShapes();
  }

  /** Stage summaries and findings (request ids capped, 200 by default) for live views. */
  summary(maxRequestIds?: number) {
    return this.analysis.summary(maxRequestIds);
  }

  /** The parse problems of its log, without those its endpoint's scrapes listed (compare counts its last scrape's instead). */
  logProblemCount(): number {
    return this.analysis.problemCount - this.scrapeProblemLedger.listed.length;
  }

  /** The model the log says it serves (its first start-up's), or null. */
  servedModel(): string | null {
    return this.analysis.servedModel();
  }

  /** The log has a line at DEBUG (AnalysisSnapshot.debugLines). */
  get debugLines(): boolean {
    return this.analysis.debugLines;
  }

  /** A stats table of the log was printed at DEBUG (AnalysisSnapshot.statsTablesAtDebug). */
  get statsTablesAtDebug(): boolean {
    return this.analysis.statsTablesAtDebug;
  }

  /** The log's [Overall Summary] tables (StreamAnalysis.overallTables). */
  get overallTables(): number {
    return this.analysis.overallTables;
  }

  /** The boots of the log's cold requests (StreamAnalysis.coldBoots). */
  coldBoots(): ReadonlySet<number> {
    return this.analysis.coldBoots();
  }

  /** The log's legacy-stats-format finding for `requests` of its requests, `legacyRequests` of them read from dicts (StreamAnalysis.legacyFindingOver). */
  legacyFindingOver(requests: number, legacyRequests: number): Finding | null {
    return this.analysis.legacyFindingOver(requests, legacyRequests);
  }

  /** The findings of the log as a whole (its input, its engine lines), `within` a view of some of its requests (the engine `lines` it keeps): StreamAnalysis.logFindings. */
  logFindings(within: RequestsInScope | null = null, lines: EngineLineScope = {}): Finding[] {
    return this.analysis.logFindings(within, lines);
  }

  /** Sorted/filtered request orders of the request table, kept while no request arrives. */
  readonly requestOrders = new RequestOrderCache();

  /** Scoped summaries' figures (one boot, a window, cold left out), kept while their requests are the same. */
  readonly scopedSummaries = new ScopedSummaryCache();

  requestTimes(): readonly number[] {
    return this.capturedAt;
  }

  /** The last restart of the scraped server this capture saw (a count went down, or a `_created` changed), or null. */
  scrapeRestart(): ScrapeRestart | null {
    return this.restart;
  }

  /** An import of several files read as one log: where each file's lines are in its line numbers; null otherwise. */
  fileLines(): readonly FileLines[] | null {
    return this.meta.fileLines ?? null;
  }

  /** Histogram rows of the last good /metrics scrape (empty when the session scrapes nothing). */
  histograms(): readonly HistogramSummary[] {
    if (this.scrapeRows === null) this.scrapeRows = this.files.lastScrape() ?? [];
    return this.scrapeRows;
  }

  /** The log's periodic engine lines, per engine. */
  engineSeries() {
    return this.analysis.engineSeries();
  }

  /** Where each server boot of the log started, on the log clock (StreamAnalysis.bootStartsMs). */
  bootStartsMs(): readonly number[] {
    return this.analysis.bootStartsMs();
  }

  /** The explain index of the session's requests (same order as requests()). */
  get explainIndex(): ExplainIndex {
    return this.explainColumns;
  }

  /** metric-not-reporting findings of the scrapes (the latest scrape's, KV usage over all of them). */
  metricFindings(): readonly Finding[] {
    if (this.scrapeFindings === null) this.scrapeFindings = this.files.lastScrapeFindings() ?? [];
    return this.scrapeFindings;
  }

  /** What an imported scrape's file says of itself (its gzip data broke off): after its findings, as `analyze` lists them. */
  scrapeInputFindings(): readonly Finding[] {
    return this.scrapeDamage === null ? [] : [this.scrapeDamage];
  }

  /** The last scrape's preemption and speech stream counters (none: unknown, not 0), as `analyze` reads them. */
  scrapeCounters(): ScrapeCounters {
    if (this.counters === null) this.counters = this.files.lastScrapeCounters() ?? NO_SCRAPE_COUNTERS;
    return this.counters;
  }

  /**
   * A good scrape's gauges (running, waiting, KV usage), its counters, and what it says about metrics
   * that do not report and of being cut short. `end`: how its input ended (an import's gzip data broke off).
   */
  applyScrapeGauges(exposition: ParsedExposition, atMs: number, end: ScrapeEnd = WHOLE_INPUT): void {
    this.scrapeGauges.add(exposition, atMs);
    this.kvUsage.noteExposition(exposition, end);
    const cut = scrapeCutFinding(exposition, end);
    this.scrapeFindings = [
      ...metricNotReportingInScrape(exposition, this.kvUsage, end),
      ...(cut === null ? [] : [cut]),
    ];
    this.counters = { preemptions: preemptionsOf(exposition), speechStreams: speechStreamsOf(exposition) };
  }

  /**
   * A good scrape arrived: keep its histogram rows (on disk too) and clear the scrape error.
   * `life`: an endpoint's counter values and `_created` times (scrapeLifeOf), which say a restart too.
   * `text`: an endpoint's body, kept on disk so compare reads the last scrape as it reads a saved copy of it.
   */
  applyScrape(
    rows: HistogramSummary[],
    from: 'endpoint' | 'prometheus',
    life: ScrapeLife = NO_SCRAPE_LIFE,
    text?: string,
  ): void {
    // An endpoint's counts only grow while its server lives (Prometheus's are over a window).
    const reset = from === 'endpoint' ? restartBetween(this.histograms(), this.scrapeLife, rows, life) : null;
    if (from === 'endpoint') this.scrapeLife = life;
    if (reset !== null) this.restart = { atMs: Date.now(), ...reset };
    this.files.saveScrape(rows);
    if (text !== undefined) this.files.saveScrapeText(text);
    // Kept with the rows: a reopened session lists its findings as its rows are marked.
    if (from === 'endpoint') {
      this.files.saveScrapeFindings(this.metricFindings());
      this.files.saveScrapeCounters(this.scrapeCounters());
    }
    this.scrapeRows = rows;
    if (this.meta.info.status === 'starting') this.setStatus('running', null);
    this.setLastError(null);
    this.events.changed(this);
  }

  /**
   * A whole /metrics scrape read from a file (an import): its histograms and gauges, as a scraped
   * endpoint's, and the lines it could not read as the session's parse problems, as a log's are.
   */
  applyImportedScrape(text: string): void {
    const exposition = this.readScrapeText(text, Date.now());
    this.updateInfo({ importedScrape: true });
    this.applyScrape(histogramSummariesOf(exposition, this.metricFindings()), 'endpoint', scrapeLifeOf(exposition));
  }

  /**
   * An attached endpoint's scrape: the lines it could not read as the session's parse problems, as
   * an import's are, each once over all scrapes (ScrapeProblemLedger).
   */
  applyScrapeProblems(exposition: ParsedExposition): void {
    const fresh = this.scrapeProblemLedger.fresh(scrapeProblemsOf(exposition));
    if (fresh.length === 0) return;
    this.analysis.ingest({ records: [], problems: fresh });
    // Kept with the session, as the scrape's findings are: its bytes are not stored, so a replay cannot find them.
    this.files.saveScrapeProblems(this.scrapeProblemLedger.listed);
  }

  /**
   * The malformed lines the endpoint's scrapes listed, as stored (a saved session opened again, or
   * one another window captures): those not listed here yet. The stored list only grows at its end.
   */
  private readStoredScrapeProblems(): void {
    const stored = this.files.lastScrapeProblems() ?? [];
    const more = stored.slice(this.scrapeProblemLedger.listed.length);
    if (more.length === 0) return;
    this.scrapeProblemLedger.restore(more);
    this.analysis.ingest({ records: [], problems: more });
  }

  /** What an imported scrape's text says besides its stored rows: its findings and unreadable lines (nothing is written). */
  private readScrapeText(text: string, atMs: number): ParsedExposition {
    // Its gzip data broke off (stored before the text is read): the family it was cut in is not judged.
    const end = { gzipBroke: this.meta.inputDamage?.input === 'scrape' };
    const exposition = parseExposition(text, end);
    this.scrapeTextRead = true;
    this.applyScrapeGauges(exposition, atMs, end);
    this.analysis.ingest({ records: [], problems: scrapeProblemsOf(exposition) });
    return exposition;
  }

  /** The last start-up line the log printed (vLLM's version line, `Starting vLLM API server`, ...), or null. */
  serverStartLine(): ServerStartLine | null {
    return this.startLine;
  }

  /** The analysed requests, packed; read one with at(i) or requestById. */
  requests(): RequestStore {
    return this.analysis.requests;
  }

  /** Whether a request so far hit the per-request finding `code`. */
  hasFinding(code: FindingCode): boolean {
    return this.analysis.hasFinding(code);
  }

  requestById(requestId: string): AnalyzedRequest | undefined {
    return this.analysis.requests.byId(requestId);
  }

  /**
   * Reads the stored chunks into the analysis (opening a saved session). `final`: its
   * capture has ended, so the streams end too; otherwise more will follow (followStored).
   */
  async replayStored(reader: StoredChunkReader, final: boolean): Promise<void> {
    this.readStoredScrapeProblems();
    for await (const chunk of reader.read(final)) this.ingest(chunk, 'replay');
    if (final) this.endStreams();
    // Still being captured elsewhere: the stream has been quiet since its last chunk was stored.
    else if (quietSince(this.chunkTime, idleWaitMs(this.sources))) this.analysis.flushIdle(this.parsers.values());
    else this.idleFlush.chunk();
  }

  /** Reads what another window appended to the session's files since the last read. */
  async followStored(reader: StoredChunkReader): Promise<void> {
    // The capturing window rewrites scrape.json as scrapes arrive: read it again when asked.
    this.scrapeRows = null;
    if (!this.scrapeTextRead) {
      this.scrapeFindings = null;
      this.counters = null;
    }
    const problems = this.analysis.problemCount;
    this.readStoredScrapeProblems();
    let read = this.analysis.problemCount !== problems;
    for await (const chunk of reader.read(false)) {
      this.ingest(chunk, 'follow');
      read = true;
    }
    if (read) this.events.changed(this);
  }

  /** The capture of a followed session ended (or its window is gone): the last bytes, then the streams end. */
  async finishStored(reader: StoredChunkReader): Promise<void> {
    this.readStoredScrapeProblems();
    for await (const chunk of reader.read(true)) this.ingest(chunk, 'follow');
    this.endStreams();
    this.events.changed(this);
  }

  /** Metadata another window wrote (status, deploy config): taken as it is, never written back. */
  adoptMeta(meta: SessionMeta): void {
    this.meta = meta;
    this.events.changed(this);
  }

  /** Starts capturing from these sources; their bytes are stored and analysed. */
  attachSources(sources: CaptureSource[]): void {
    this.sources.push(...sources);
    for (const source of sources) source.start(this.listenerFor(source));
  }

  async stopSources(): Promise<void> {
    const sources = this.sources;
    this.sources = [];
    await Promise.all(sources.map((s) => s.stop()));
    this.endStreams();
    if (this.meta.info.status === 'running' || this.meta.info.status === 'starting') this.setStatus('stopped', null);
    else this.saveCountsNow();
    this.files.close();
  }

  /** Capture sources are attached (this window captures the session). */
  get hasSources(): boolean {
    return this.sources.length > 0;
  }

  setDeployConfig(deployConfig: string | null): void {
    this.updateInfo({ deployConfig });
  }

  /**
   * A tailed or imported log names the deploy config its server loaded: the first one named is
   * kept (an absolute path over a relative one), and the session is tied to it when none is yet and
   * that exact file is a deploy config here.
   */
  private deployConfigLogged(logged: string): void {
    const info = this.meta.info;
    if (info.kind !== 'import' && info.kind !== 'tail') return;
    // A path relative to the server's working directory gives way to an absolute one named later.
    const kept = info.loggedDeployConfig;
    if (kept !== undefined && (info.deployConfig !== null || path.isAbsolute(kept) || !path.isAbsolute(logged))) return;
    const local = info.deployConfig === null ? localDeployConfig(logged) : null;
    this.updateInfo({ loggedDeployConfig: logged, ...(local === null ? {} : { deployConfig: local }) });
  }

  /** Records an error of a secondary source (e.g. a dead metrics endpoint) without ending the session. */
  setLastError(message: string | null): void {
    if (this.meta.info.lastError !== message) this.updateInfo({ lastError: message });
  }

  setStatus(status: SessionStatus, detail: string | null, exit?: ExitInfo): void {
    this.updateInfo({
      status,
      lastError:
        status === 'error' || status === 'crashed' ? (detail ?? this.meta.info.lastError) : this.meta.info.lastError,
      exit: exit === undefined ? this.meta.info.exit : { code: exit.code, signal: exit.signal },
    });
    if (detail !== null) this.events.raw(this, 'system', `[stage-lens] ${detail}\r\n`);
  }

  /** Feeds bytes: captured ones to disk first, then the parser. */
  ingest(chunk: StoredChunk, mode: IngestMode): AnalyzedRequest[] {
    if (mode === 'capture') this.files.append(chunk);
    this.chunkTime = chunk.capturedAt;
    if (chunk.restart === true) return this.restartStream(chunk.stream);
    let parser = this.parsers.get(chunk.stream);
    if (parser === undefined) this.parsers.set(chunk.stream, (parser = new LogStreamParser()));
    const output = parser.push(chunk.bytes);
    for (const record of output.records) {
      if (record.kind === 'bootMarker') this.startLine = { marker: record.marker, at: chunk.capturedAt };
      else if (record.kind === 'deployConfig' && mode === 'capture') this.deployConfigLogged(record.path);
    }
    const done = this.analysis.ingest(output);
    if (mode !== 'replay') this.idleFlush.chunk();
    if (mode === 'capture') this.countSaver.trigger();
    return done;
  }

  /** A new file, counted from its line 1, as the CLI counts it: what the old one left unfinished ends with it. */
  private restartStream(stream: ChunkStream): AnalyzedRequest[] {
    const parser = this.parsers.get(stream);
    this.parsers.delete(stream);
    return parser === undefined ? [] : this.analysis.ingest(parser.end());
  }

  private endStreams(): void {
    // Imported by another window, or before the server restarted: its stored bytes are the scrape.
    if (!this.scrapeTextRead && this.meta.info.importedScrape === true) {
      const text = this.files.storedText('file', MAX_SCRAPE_BYTES);
      if (text !== null) this.readScrapeText(text, this.chunkTime);
    }
    const damage = this.damageRead ? undefined : this.meta.inputDamage;
    const damagedParser = damage === undefined ? undefined : this.parsers.get(damage.stream);
    for (const parser of this.parsers.values()) this.analysis.ingest(parser.end());
    this.parsers.clear();
    if (damage !== undefined) {
      const { message, gzipDamaged, input } = damage;
      // An imported scrape's break is a finding after its own, not a line of it, as `analyze` has it.
      if (input === 'scrape' && this.meta.info.importedScrape === true)
        this.scrapeDamage = scrapeGzipDamagedFindingOf(message);
      else {
        // Placed at the last line read, as the CLI places it; the same whether captured or replayed.
        const broke = input === undefined ? gzipDamaged : { ...gzipDamaged, input };
        this.analysis.ingest({
          records: [],
          problems: [{ line: damagedParser?.lastLine ?? 1, message, gzipDamaged: broke }],
        });
      }
      this.damageRead = true;
    }
    this.analysis.flush();
  }

  /** The source's data broke off: stored with the session (its bytes cannot say it), read into the analysis when its streams end. */
  private brokeOff(damage: ParseProblem, stream: ChunkStream, input: GzipInputKind = 'log'): void {
    // gzip data is the only input that breaks off (gunzipInput.ts).
    if (damage.gzipDamaged === undefined) return;
    // Stored as the session's format has it: the sentence, the bytes before the break, and a scrape's kind.
    const inputDamage = { stream, message: damage.message, gzipDamaged: { logBytes: damage.gzipDamaged.logBytes } };
    this.meta = { ...this.meta, inputDamage: input === 'scrape' ? { ...inputDamage, input } : inputDamage };
    this.store.save(this.meta);
  }

  dispose(): void {
    this.idleFlush.dispose();
    this.countSaver.dispose();
  }

  private get logYear(): number {
    return new Date(this.meta.info.startedAt).getUTCFullYear();
  }

  private newExplainIndex(): ExplainIndex {
    return new ExplainIndex({ year: this.logYear, live: true });
  }

  private newAnalysis(): StreamAnalysis {
    return new StreamAnalysis({
      year: this.logYear,
      replicasAsTheyCome: true,
      stageRoles: () => stageRolesOfNames(this.meta.info),
      // An import reads a whole log, even while its reading runs.
      live: () => this.meta.info.kind !== 'import' && isCapturing(this.meta.info),
      onRequest: (request) => {
        this.capturedAt.push(this.chunkTime);
        if (request.timestamp !== null) {
          this.firstLogTime ??= request.timestamp;
          this.lastLogTime = request.timestamp;
        }
        // A line without a timestamp finishes at its capture time.
        this.explainColumns.add(request, this.chunkTime);
      },
    });
  }

  private updateInfo(patch: Partial<SessionInfo>): void {
    this.meta = {
      ...this.meta,
      info: {
        ...this.meta.info,
        ...patch,
        requestCount: this.analysis.requestCount,
        problemCount: this.analysis.problemCount,
        logSpan: this.logSpan(),
      },
    };
    // Judged with the patched names (a deploy config matched names the pipeline).
    this.meta = { ...this.meta, info: { ...this.meta.info, stageRoles: this.rolesToStore() } };
    this.store.save(this.meta);
    this.events.changed(this);
  }

  /**
   * The counts, the log span and the stage roles in the metadata, when they changed (the list of a
   * window that has not opened the session shows them; `explain` of the saved folder names stages so).
   */
  private saveCounts(): void {
    const { requestCount, problemCount } = this.analysis;
    const logSpan = this.logSpan();
    const stageRoles = this.rolesToStore();
    if (
      requestCount === this.meta.info.requestCount &&
      problemCount === this.meta.info.problemCount &&
      logSpan === (this.meta.info.logSpan ?? null) &&
      sameRoles(stageRoles, this.meta.info.stageRoles)
    )
      return;
    this.meta = { ...this.meta, info: { ...this.meta.info, requestCount, problemCount, logSpan, stageRoles } };
    this.store.save(this.meta);
  }

  /** The stage roles judged so far; a reopened session keeps its stored ones until it has read the requests its metadata counts. */
  private rolesToStore(): Readonly<Record<string, string>> {
    const stored = this.meta.info.stageRoles;
    if (stored !== undefined && this.analysis.requestCount < this.meta.info.requestCount) return stored;
    return this.analysis.stageRoles();
  }

  /** Brings the stored counts up to date now (the capture ended, or the session was opened and counted). */
  saveCountsNow(): void {
    this.countSaver.dispose();
    this.saveCounts();
  }

  private listenerFor(source: CaptureSource): CaptureListener {
    let waiting: string | null = null;
    return {
      onData: (bytes, stream) => {
        this.ingest({ stream, bytes, capturedAt: Date.now() }, 'capture');
        if (stream !== 'file') {
          let decoder = this.decoders.get(stream);
          if (decoder === undefined) this.decoders.set(stream, (decoder = new TextDecoder('utf-8')));
          this.events.raw(this, stream, decoder.decode(bytes, { stream: true }).replace(/\r?\n/g, '\r\n'));
        }
        this.events.changed(this);
      },
      onStatus: (status, detail, exit) => {
        if (status === 'exited' || status === 'crashed' || status === 'error') this.endStreams();
        this.setStatus(status, detail === null ? null : `${source.description}: ${detail}`, exit);
      },
      onRestart: (stream) => {
        this.ingest({ stream, bytes: Buffer.alloc(0), capturedAt: Date.now(), restart: true }, 'capture');
        this.events.changed(this);
      },
      onBrokeOff: (damage, stream, input) => this.brokeOff(damage, stream, input),
      onScrape: (text) => this.applyImportedScrape(text),
      onFileLines: (fileLines) => {
        this.meta = { ...this.meta, fileLines };
        this.store.save(this.meta);
      },
      onNotice: (message) => {
        this.events.raw(this, 'system', `[stage-lens] ${message}\r\n`);
        this.events.changed(this);
      },
      // Shown where errors are while it lasts; cleared only if nothing else was said since.
      onWaiting: (message) => {
        if (message !== null) this.setLastError((waiting = message));
        else if (waiting !== null && this.meta.info.lastError === waiting) this.setLastError(null);
        if (message === null) waiting = null;
      },
    };
  }
}

/** Whether the roles are those stored (none stored: not the same, so that they are saved). */
function sameRoles(
  roles: Readonly<Record<string, string>>,
  stored: Readonly<Record<string, string>> | undefined,
): boolean {
  if (stored === undefined) return false;
  const ids = Object.keys(roles);
  return ids.length === Object.keys(stored).length && ids.every((id) => stored[id] === roles[id]);
}
