// On-disk layout of one session, append-only so a crash loses at most the last partial
// record:  <storage>/sessions/<id>/
//   session.json   metadata (rewritten atomically via rename; only by the window that
//                  captures the session, see storage/ownerLock.ts)
//   owner.lock     which language server captures it (storage/ownerLock.ts)
//   stdout.log, stderr.log, file.log   raw captured bytes per stream, appended as they arrive
//   chunks.idx     one line per appended chunk: "<stream> <bytes> <capturedAtMs>", so a
//                  replay feeds the same chunks with the same capture times
//                  (storage/storedChunks.ts reads them back)
//   scrape.json    histogram rows of the last good /metrics scrape
//   scrape-findings.json  what the /metrics scrapes said of metrics that do not report
//   scrape-counters.json  the last scrape's preemption and speech stream counters
//   scrape-problems.json  the malformed lines the endpoint's scrapes listed as parse problems
//   scrape.prom    the text of an endpoint's last good /metrics scrape, as it was served
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { HistogramSummary } from '../protocol';
import { histogramSummariesFromJson } from '../core/metricsText/scrapeSummary';
import type { Finding } from '../core/analysis/types';
import { scrapeFindingsFromJson } from './storage/storedScrapeFindings';
import { scrapeCountersFromJson, type ScrapeCounters } from './storage/storedScrapeCounters';
import { scrapeProblemsFromJson } from './storage/storedScrapeProblems';
import type { ParseProblem } from '../core/records';
import { indexLine } from './storage/chunkIndex';
import { parseSessionMeta, type MetaCheck, type SessionMeta } from './storage/storedMeta';
import { StoredChunkReader, type StoredChunk } from './storage/storedChunks';

export type { SessionMeta, StoredChunk };

/** Folders under sessions/ that are not sessions: a session being deleted is renamed to `.deleting-…` first. */
function isSessionFolderName(name: string): boolean {
  return !name.startsWith('.');
}

export class SessionFiles {
  readonly dir: string;
  private readonly fds = new Map<string, number>();
  private indexFd: number | null = null;
  private savedFindings: string | null = null;
  private savedCounters: string | null = null;

  /** In storage, the folder is named by the session's id; a folder elsewhere may have any name. */
  private readonly inStorage: boolean;

  /** The session `sessionId` in Stage Lens's storage; `folder` reads one from elsewhere (see atFolder). */
  constructor(
    storageDir: string,
    readonly sessionId: string,
    folder?: string,
  ) {
    this.dir = folder ?? path.join(storageDir, 'sessions', sessionId);
    this.inStorage = folder === undefined;
  }

  /** A session folder wherever it is (one copied out of storage, to be compared), for reading. */
  static atFolder(folder: string): SessionFiles {
    return new SessionFiles(path.dirname(folder), path.basename(folder), folder);
  }

  /** Folders of the storage that hold a session.json (whatever its content). */
  static listIds(storageDir: string): string[] {
    const root = path.join(storageDir, 'sessions');
    let names: string[];
    try {
      names = readdirSync(root);
    } catch {
      return [];
    }
    return names.filter((id) => isSessionFolderName(id) && existsSync(path.join(root, id, 'session.json')));
  }

  writeMeta(meta: SessionMeta): void {
    mkdirSync(this.dir, { recursive: true });
    // SessionInfo.access is this window's view of the session, never stored.
    const { access: _access, ...info } = meta.info;
    const tmp = path.join(this.dir, `session.json.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify({ ...meta, info }, null, 2));
    renameSync(tmp, path.join(this.dir, 'session.json'));
  }

  /** The checked metadata, or why it cannot be used (unreadable, not a session's, another session's id). */
  checkMeta(): MetaCheck {
    let text: string;
    try {
      text = readFileSync(path.join(this.dir, 'session.json'), 'utf8');
    } catch (err) {
      return {
        ok: false,
        problem: `session.json cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      };
    }
    return parseSessionMeta(text, this.inStorage ? this.sessionId : null);
  }

  readMeta(): SessionMeta | null {
    const checked = this.checkMeta();
    return checked.ok ? checked.meta : null;
  }

  /** Changes whenever session.json is replaced (each write is a rename, so a new inode). Null when it is missing. */
  metaStamp(): string | null {
    try {
      const s = statSync(path.join(this.dir, 'session.json'));
      return `${s.ino}:${s.mtimeMs}:${s.size}`;
    } catch {
      return null;
    }
  }

  exists(): boolean {
    return existsSync(path.join(this.dir, 'session.json'));
  }

  append(chunk: StoredChunk): void {
    // An index line of 0 bytes is a restart marker: empty data is not stored.
    if (chunk.bytes.length === 0 && chunk.restart !== true) return;
    mkdirSync(this.dir, { recursive: true });
    let fd = this.fds.get(chunk.stream);
    if (fd === undefined) {
      fd = openSync(path.join(this.dir, `${chunk.stream}.log`), 'a');
      this.fds.set(chunk.stream, fd);
    }
    writeSync(fd, chunk.bytes);
    if (this.indexFd === null) this.indexFd = openSync(path.join(this.dir, 'chunks.idx'), 'a');
    writeSync(
      this.indexFd,
      indexLine({ stream: chunk.stream, bytes: chunk.bytes.length, capturedAt: chunk.capturedAt }),
    );
  }

  saveScrape(rows: readonly HistogramSummary[]): void {
    this.writeWhole('scrape.json', JSON.stringify(rows));
  }

  lastScrape(): HistogramSummary[] | null {
    return this.readJson('scrape.json', histogramSummariesFromJson);
  }

  saveScrapeText(text: string): void {
    this.writeWhole('scrape.prom', text);
  }

  /** The text of the endpoint's last scrape; null when none was stored (an older build's session) or it is more than `maxBytes`. */
  lastScrapeText(maxBytes: number): string | null {
    try {
      const file = path.join(this.dir, 'scrape.prom');
      if (statSync(file).size > maxBytes) return null;
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  }

  /** Written only when they changed (an endpoint is scraped every few seconds, its findings seldom change). */
  saveScrapeFindings(findings: readonly Finding[]): void {
    const text = JSON.stringify(findings);
    if (text === this.savedFindings) return;
    this.writeWhole('scrape-findings.json', text);
    this.savedFindings = text;
  }

  /** The stored scrape findings; null when none were stored (a session of an older build, or one that scraped nothing). */
  lastScrapeFindings(): Finding[] | null {
    return this.readJson('scrape-findings.json', scrapeFindingsFromJson);
  }

  /** Each listed malformed line once (ScrapeProblemLedger): written when a scrape adds one. */
  saveScrapeProblems(problems: readonly ParseProblem[]): void {
    this.writeWhole('scrape-problems.json', JSON.stringify(problems.map(({ line, message }) => ({ line, message }))));
  }

  /** The stored scrape problems; null when none were stored (a session whose scrapes had none, or of an older build). */
  lastScrapeProblems(): ParseProblem[] | null {
    return this.readJson('scrape-problems.json', scrapeProblemsFromJson);
  }

  /** Written only when they changed, as the findings are. */
  saveScrapeCounters(counters: ScrapeCounters): void {
    const text = JSON.stringify(counters);
    if (text === this.savedCounters) return;
    this.writeWhole('scrape-counters.json', text);
    this.savedCounters = text;
  }

  /** The stored scrape counters; null when none were stored (a session of an older build, or one that scraped nothing). */
  lastScrapeCounters(): ScrapeCounters | null {
    return this.readJson('scrape-counters.json', scrapeCountersFromJson);
  }

  /** Replaces the file `name` whole: a reader sees the old text or the new, never part of it. */
  private writeWhole(name: string, text: string): void {
    mkdirSync(this.dir, { recursive: true });
    const tmp = path.join(this.dir, `${name}.tmp`);
    writeFileSync(tmp, text);
    renameSync(tmp, path.join(this.dir, name));
  }

  /** The stored JSON file `name` as `fromJson` reads it; null when it is missing, unreadable or not JSON. */
  private readJson<T>(name: string, fromJson: (json: unknown) => T | null): T | null {
    try {
      return fromJson(JSON.parse(readFileSync(path.join(this.dir, name), 'utf8')) as unknown);
    } catch {
      return null;
    }
  }

  /** The bytes of one stream as text (an imported scrape's), or null when there are none or more than `maxBytes`. */
  storedText(stream: StoredChunk['stream'], maxBytes: number): string | null {
    try {
      const file = path.join(this.dir, `${stream}.log`);
      if (statSync(file).size > maxBytes) return null;
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  }

  /** A reader of the stored chunks from the start (see storage/storedChunks.ts). */
  chunkReader(startedAt: number): StoredChunkReader {
    return new StoredChunkReader(this.dir, startedAt);
  }

  /**
   * Deletes this session's folder and everything captured in it (retention). Renamed away
   * first, so no other window lists a half-deleted session.
   */
  remove(): void {
    this.close();
    const doomed = path.join(
      path.dirname(this.dir),
      `.deleting-${path.basename(this.dir)}-${randomBytes(3).toString('hex')}`,
    );
    try {
      renameSync(this.dir, doomed);
    } catch {
      rmSync(this.dir, { recursive: true, force: true });
      return;
    }
    rmSync(doomed, { recursive: true, force: true });
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
    if (this.indexFd !== null) closeSync(this.indexFd);
    this.indexFd = null;
  }
}
