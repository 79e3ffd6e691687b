// One capture session: its sources' bytes go through one parser per stream into one
// incremental analysis, and to disk (append-only) before anything else, so that what
// was captured survives a crash of the server or the editor.
import { TextDecoder } from 'node:util';
import { LogStreamParser } from '../core/log';
import { StreamAnalysis } from '../core/analysis/streamAnalysis';
import type { RequestStore } from '../core/analysis/requestStore';
import type { AnalyzedRequest } from '../core/analysis/types';
import { RequestOrderCache } from './requestQueries';
import type { ExitInfo, CaptureListener, CaptureSource, ChunkStream } from './source';
import type { SessionFiles, SessionMeta, StoredChunk } from './sessionFiles';
import type { HistogramSummary, SessionInfo, SessionStatus } from '../protocol';

/** A request is final when the next call's records arrive; after this much quiet, the last one is final too. */
const IDLE_FLUSH_MS = 300;

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
  private chunkTime = Date.now();
  private idleTimer: NodeJS.Timeout | null = null;
  private sources: CaptureSource[] = [];
  private scrapeRows: HistogramSummary[] | null = null;

  constructor(
    meta: SessionMeta,
    readonly files: SessionFiles,
    private readonly events: SessionEvents,
  ) {
    this.meta = meta;
    this.analysis = this.newAnalysis();
  }

  get id(): string {
    return this.meta.info.id;
  }

  get info(): SessionInfo {
    return { ...this.meta.info, requestCount: this.analysis.requestCount, problemCount: this.analysis.problemCount };
  }

  get sessionMeta(): SessionMeta {
    return this.meta;
  }

  /** The analysis so far (requests, summaries, findings, problems). */
  snapshot() {
    return this.analysis.snapshot();
  }

  /** Stage summaries and findings (request ids capped, 200 by default) for live views. */
  summary(maxRequestIds?: number) {
    return this.analysis.summary(maxRequestIds);
  }

  /** Sorted/filtered request orders of the request table, kept while no request arrives. */
  readonly requestOrders = new RequestOrderCache();

  requestTimes(): readonly number[] {
    return this.capturedAt;
  }

  /** Histogram rows of the last good /metrics scrape (empty when the session scrapes nothing). */
  histograms(): readonly HistogramSummary[] {
    if (this.scrapeRows === null) this.scrapeRows = this.files.lastScrape() ?? [];
    return this.scrapeRows;
  }

  /** A good scrape arrived: keep its histogram rows (on disk too) and clear the scrape error. */
  applyScrape(rows: HistogramSummary[]): void {
    this.files.saveScrape(rows);
    this.scrapeRows = rows;
    if (this.meta.info.status === 'starting') this.setStatus('running', null);
    this.setLastError(null);
    this.events.changed(this);
  }

  /** The analysed requests, packed; read one with at(i) or requestById. */
  requests(): RequestStore {
    return this.analysis.requests;
  }

  requestById(requestId: string): AnalyzedRequest | undefined {
    return this.analysis.requests.byId(requestId);
  }

  /** Rebuilds the analysis from the stored chunks (reopen after a restart). */
  replayFromDisk(): void {
    this.analysis = this.newAnalysis();
    this.capturedAt = [];
    this.parsers.clear();
    for (const chunk of this.files.replay()) this.ingest(chunk, false);
    this.endStreams();
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
    this.files.close();
  }

  setDeployConfig(deployConfig: string | null): void {
    this.updateInfo({ deployConfig });
  }

  /** Records an error of a secondary source (e.g. a dead metrics endpoint) without ending the session. */
  setLastError(message: string | null): void {
    if (this.meta.info.lastError !== message) this.updateInfo({ lastError: message });
  }

  setStatus(status: SessionStatus, detail: string | null, exit?: ExitInfo): void {
    this.updateInfo({
      status,
      lastError: status === 'error' || status === 'crashed' ? (detail ?? this.meta.info.lastError) : this.meta.info.lastError,
      exit: exit === undefined ? this.meta.info.exit : { code: exit.code, signal: exit.signal },
    });
    if (detail !== null) this.events.raw(this, 'system', `[stage-lens] ${detail}\r\n`);
  }

  /** Feeds captured bytes: to disk first, then the parser. */
  ingest(chunk: StoredChunk, persist: boolean): AnalyzedRequest[] {
    if (persist) this.files.append(chunk);
    this.chunkTime = chunk.capturedAt;
    let parser = this.parsers.get(chunk.stream);
    if (parser === undefined) this.parsers.set(chunk.stream, (parser = new LogStreamParser()));
    const done = this.analysis.ingest(parser.push(chunk.bytes));
    if (persist) this.scheduleIdleFlush();
    return done;
  }

  private endStreams(): void {
    for (const parser of this.parsers.values()) this.analysis.ingest(parser.end());
    this.parsers.clear();
    this.analysis.flush();
  }

  private scheduleIdleFlush(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.analysis.flush().length > 0) this.events.changed(this);
    }, IDLE_FLUSH_MS);
  }

  dispose(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private newAnalysis(): StreamAnalysis {
    return new StreamAnalysis({ onRequest: () => this.capturedAt.push(this.chunkTime) });
  }

  private updateInfo(patch: Partial<SessionInfo>): void {
    this.meta = { ...this.meta, info: { ...this.meta.info, ...patch } };
    this.files.writeMeta(this.meta);
    this.events.changed(this);
  }

  private listenerFor(source: CaptureSource): CaptureListener {
    return {
      onData: (bytes, stream) => {
        this.ingest({ stream, bytes, capturedAt: Date.now() }, true);
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
      onNotice: (message) => {
        this.events.raw(this, 'system', `[stage-lens] ${message}\r\n`);
        this.events.changed(this);
      },
    };
  }
}
