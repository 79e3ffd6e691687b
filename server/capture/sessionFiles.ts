// On-disk layout of one session, append-only so a crash loses at most the last partial
// record:  <storage>/sessions/<id>/
//   session.json   metadata (rewritten atomically via rename on each status change)
//   stdout.log, stderr.log, file.log   raw captured bytes per stream, appended as they arrive
//   chunks.idx     one line per appended chunk: "<stream> <bytes> <capturedAtMs>", so a
//                  replay feeds the same chunks with the same capture times
//   scrape.json    histogram rows of the last good /metrics scrape
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { HistogramSummary, SessionInfo, LaunchParams, TailParams, ScrapeParams, ImportParams, AttachParams } from '../protocol';
import type { ChunkStream } from './source';
import { histogramSummariesFromJson } from '../core/promSummary';

/** What is needed to describe and reopen a session. */
export interface SessionMeta {
  readonly info: SessionInfo;
  readonly launch?: LaunchParams;
  readonly tail?: TailParams;
  readonly scrape?: ScrapeParams;
  readonly import?: ImportParams;
  readonly attach?: AttachParams;
}

export interface StoredChunk {
  readonly stream: ChunkStream;
  readonly bytes: Buffer;
  readonly capturedAt: number;
}

const STREAMS: readonly ChunkStream[] = ['stdout', 'stderr', 'file'];

export class SessionFiles {
  readonly dir: string;
  private readonly fds = new Map<ChunkStream, number>();
  private indexFd: number | null = null;

  /** The session `sessionId` in Stage Lens's storage; `folder` reads one from elsewhere (see atFolder). */
  constructor(storageDir: string, readonly sessionId: string, folder?: string) {
    this.dir = folder ?? path.join(storageDir, 'sessions', sessionId);
  }

  /** A session folder wherever it is (one copied out of storage, to be compared), for reading. */
  static atFolder(folder: string): SessionFiles {
    return new SessionFiles(path.dirname(folder), path.basename(folder), folder);
  }

  static listIds(storageDir: string): string[] {
    const root = path.join(storageDir, 'sessions');
    if (!existsSync(root)) return [];
    return readdirSync(root).filter((id) => existsSync(path.join(root, id, 'session.json')));
  }

  writeMeta(meta: SessionMeta): void {
    mkdirSync(this.dir, { recursive: true });
    const tmp = path.join(this.dir, 'session.json.tmp');
    writeFileSync(tmp, JSON.stringify(meta, null, 2));
    renameSync(tmp, path.join(this.dir, 'session.json'));
  }

  readMeta(): SessionMeta | null {
    try {
      return JSON.parse(readFileSync(path.join(this.dir, 'session.json'), 'utf8')) as SessionMeta;
    } catch {
      return null;
    }
  }

  append(chunk: StoredChunk): void {
    mkdirSync(this.dir, { recursive: true });
    let fd = this.fds.get(chunk.stream);
    if (fd === undefined) {
      fd = openSync(path.join(this.dir, `${chunk.stream}.log`), 'a');
      this.fds.set(chunk.stream, fd);
    }
    writeSync(fd, chunk.bytes);
    if (this.indexFd === null) this.indexFd = openSync(path.join(this.dir, 'chunks.idx'), 'a');
    writeSync(this.indexFd, `${chunk.stream} ${chunk.bytes.length} ${chunk.capturedAt}\n`);
  }

  saveScrape(rows: readonly HistogramSummary[]): void {
    mkdirSync(this.dir, { recursive: true });
    const tmp = path.join(this.dir, 'scrape.json.tmp');
    writeFileSync(tmp, JSON.stringify(rows));
    renameSync(tmp, path.join(this.dir, 'scrape.json'));
  }

  lastScrape(): HistogramSummary[] | null {
    try {
      return histogramSummariesFromJson(JSON.parse(readFileSync(path.join(this.dir, 'scrape.json'), 'utf8')));
    } catch {
      return null;
    }
  }

  /**
   * Replays the stored chunks in capture order. An index line whose bytes were not fully
   * written (crash) is cut to what the log file holds; bytes without an index line (crash
   * between the two writes) are replayed with the last known time.
   */
  *replay(): Generator<StoredChunk> {
    const data = new Map<ChunkStream, Buffer>();
    for (const s of STREAMS) {
      const p = path.join(this.dir, `${s}.log`);
      if (existsSync(p)) data.set(s, readFileSync(p));
    }
    const offsets = new Map<ChunkStream, number>(STREAMS.map((s) => [s, 0]));
    let lastTime = this.readMeta()?.info.startedAt ?? Date.now();
    const idxPath = path.join(this.dir, 'chunks.idx');
    const idx = existsSync(idxPath) ? readFileSync(idxPath, 'utf8').split('\n') : [];
    for (const line of idx) {
      const [stream, len, time] = line.split(' ');
      if (stream === undefined || len === undefined || time === undefined || !STREAMS.includes(stream as ChunkStream)) continue;
      const s = stream as ChunkStream;
      const buf = data.get(s);
      const start = offsets.get(s) ?? 0;
      if (buf === undefined || start >= buf.length) continue;
      const end = Math.min(buf.length, start + Number(len));
      offsets.set(s, end);
      lastTime = Number(time) || lastTime;
      yield { stream: s, bytes: buf.subarray(start, end), capturedAt: lastTime };
    }
    for (const s of STREAMS) {
      const buf = data.get(s);
      const start = offsets.get(s) ?? 0;
      if (buf !== undefined && start < buf.length) yield { stream: s, bytes: buf.subarray(start), capturedAt: lastTime };
    }
  }

  /** Deletes this session's folder and everything captured in it (retention). */
  remove(): void {
    this.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
    if (this.indexFd !== null) closeSync(this.indexFd);
    this.indexFd = null;
  }
}
