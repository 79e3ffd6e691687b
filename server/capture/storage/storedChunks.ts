// Reads a session's captured bytes back in capture order with their capture times:
// chunks.idx says which stream each chunk went to, how long it was and when it arrived;
// the bytes are in <stream>.log. Asynchronous and in bounded blocks (1 MB, with one block
// read ahead per stream), so opening a large session never holds the event loop.
//
// The reader keeps its place: read() again gives what was appended since (a window
// following a session another window captures). Once the capture has ended, read(true)
// also gives bytes without an index line (a crash between the two writes) and recovers
// from a corrupt index line: the chunks after it are placed back from the end of each
// stream (their lengths are known), the bytes between go with the capture time before the
// corrupt line, so nothing is dropped. While the capture goes on, reading stops at a
// corrupt line (where the bytes after it belong is only known at the end).
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import type { ChunkStream } from '../source';
import { readChunkAt } from '../importFile';
import { parseIndexLine, quoteLine, STREAMS, type IndexEntry } from './chunkIndex';

export interface StoredChunk {
  readonly stream: ChunkStream;
  readonly bytes: Buffer;
  readonly capturedAt: number;
  /**
   * The stream starts again from its first line (a followed file truncated or replaced:
   * CaptureListener.onRestart); `bytes` is then empty. Stored as an index line of 0 bytes,
   * which readers that do not know it skip.
   */
  readonly restart?: true;
}

const BLOCK_BYTES = 1 << 20;
const INDEX_FILE = 'chunks.idx';

/** Sequential reads of one stream file, a block at a time with the next block read ahead. */
class StreamFile {
  private block: Buffer = Buffer.alloc(0);
  private blockStart = 0;
  private ahead: { readonly start: number; readonly read: Promise<Buffer> } | null = null;

  constructor(
    private readonly handle: fsp.FileHandle,
    readonly size: number,
  ) {}

  /** Bytes [start, start + length) (fewer at end of file). */
  async slice(start: number, length: number): Promise<Buffer> {
    const end = Math.min(start + length, this.size);
    if (end <= start) return Buffer.alloc(0);
    const blockEnd = this.blockStart + this.block.length;
    if (start >= this.blockStart && end <= blockEnd)
      return this.block.subarray(start - this.blockStart, end - this.blockStart);
    // Part of the chunk may be in the current block: keep it, read the rest.
    const head = start >= this.blockStart && start < blockEnd ? this.block.subarray(start - this.blockStart) : null;
    const from = head === null ? start : blockEnd;
    await this.load(from, end - from);
    const tail = this.block.subarray(0, end - from);
    return head === null ? tail : Buffer.concat([head, tail]);
  }

  private async load(start: number, atLeast: number): Promise<void> {
    const ahead = this.ahead;
    this.ahead = null;
    let block = ahead !== null && ahead.start === start ? await ahead.read : null;
    if (block === null || block.length < Math.min(atLeast, this.size - start))
      block = await readChunkAt(this.handle, start, Math.max(atLeast, BLOCK_BYTES));
    this.block = block;
    this.blockStart = start;
    const next = start + block.length;
    if (next < this.size) {
      const read = readChunkAt(this.handle, next, BLOCK_BYTES);
      read.catch(() => undefined);
      this.ahead = { start: next, read };
    }
  }

  async close(): Promise<void> {
    await this.ahead?.read.catch(() => undefined);
    await this.handle.close().catch(() => undefined);
  }
}

/** Complete lines of chunks.idx from a byte offset, read in blocks (latin1: one byte, one character). */
async function* indexLines(
  file: string,
  from: number,
): AsyncGenerator<{ readonly line: string; readonly end: number }> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    let pos = from;
    let carry = '';
    for (;;) {
      const block = await readChunkAt(handle, pos, BLOCK_BYTES);
      if (block.length === 0) return;
      const text = carry + block.toString('latin1');
      const textStart = pos - carry.length;
      pos += block.length;
      let lineStart = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', lineStart)) {
        yield { line: text.slice(lineStart, nl), end: textStart + nl + 1 };
        lineStart = nl + 1;
      }
      carry = text.slice(lineStart);
    }
  } finally {
    await handle.close();
  }
}

export class StoredChunkReader {
  /** Bytes of chunks.idx read (whole lines only). */
  private indexOffset = 0;
  private indexLineNo = 0;
  private readonly offsets = new Map<ChunkStream, number>(STREAMS.map((s) => [s, 0]));
  private lastTime: number;
  private stoppedAtLine = -1;
  /** What was wrong in the files, for the user (corrupt index lines). */
  readonly problems: string[] = [];

  constructor(
    readonly dir: string,
    startedAt: number,
  ) {
    this.lastTime = startedAt;
  }

  /** Bytes given out so far, all streams. */
  get bytesRead(): number {
    let sum = 0;
    for (const v of this.offsets.values()) sum += v;
    return sum;
  }

  /**
   * The chunks stored since the last read. `final`: the capture has ended (bytes without
   * an index line and corrupt lines are dealt with as described above).
   */
  async *read(final: boolean): AsyncGenerator<StoredChunk> {
    const files = new Map<ChunkStream, StreamFile>();
    try {
      for (const s of STREAMS) {
        let handle: fsp.FileHandle;
        try {
          handle = await fsp.open(path.join(this.dir, `${s}.log`), 'r');
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw err;
        }
        files.set(s, new StreamFile(handle, (await handle.stat()).size));
      }
      const indexFile = path.join(this.dir, INDEX_FILE);
      for await (const { line, end } of indexLines(indexFile, this.indexOffset)) {
        const entry = parseIndexLine(line);
        if (entry === null) {
          if (!final) {
            if (this.stoppedAtLine !== this.indexLineNo + 1)
              this.problems.push(
                `chunks.idx line ${this.indexLineNo + 1} is not a chunk entry (${quoteLine(line)}): what follows is read when the capture ends`,
              );
            this.stoppedAtLine = this.indexLineNo + 1;
            return;
          }
          this.indexLineNo++;
          this.indexOffset = end;
          if (this.stoppedAtLine !== this.indexLineNo)
            this.problems.push(
              `chunks.idx line ${this.indexLineNo} is not a chunk entry (${quoteLine(line)}): the bytes it stood for are read with the capture time before it, everything after it as stored`,
            );
          yield* this.recoverAfterCorruptLine(files, indexFile, end);
          continue;
        }
        if (entry.bytes === 0) {
          this.indexLineNo++;
          this.indexOffset = end;
          this.lastTime = entry.capturedAt || this.lastTime;
          yield { stream: entry.stream, bytes: Buffer.alloc(0), capturedAt: this.lastTime, restart: true };
          continue;
        }
        const file = files.get(entry.stream);
        const start = this.offsets.get(entry.stream) ?? 0;
        // The bytes are written before their index line; while capturing they are there.
        if (!final && (file === undefined || file.size < start + entry.bytes)) return;
        this.indexLineNo++;
        this.indexOffset = end;
        this.lastTime = entry.capturedAt || this.lastTime;
        if (file === undefined || start >= file.size) continue;
        const bytes = await file.slice(start, entry.bytes);
        this.offsets.set(entry.stream, start + bytes.length);
        if (bytes.length > 0) yield { stream: entry.stream, bytes, capturedAt: this.lastTime };
      }
      if (!final) return;
      // Bytes without an index line (the capture ended between the two writes).
      for (const [s, file] of files) {
        const start = this.offsets.get(s) ?? 0;
        if (start >= file.size) continue;
        const length = file.size - start;
        for (let at = start; at < file.size; at += BLOCK_BYTES) {
          const bytes = await file.slice(at, Math.min(BLOCK_BYTES, file.size - at));
          yield { stream: s, bytes, capturedAt: this.lastTime };
        }
        this.offsets.set(s, start + length);
      }
    } finally {
      for (const file of files.values()) await file.close();
    }
  }

  /**
   * After a corrupt line (capture ended): the good lines after it give each stream's
   * bytes from where they start; whatever lies between this reader's place and there is
   * what the corrupt line stood for, given now with the last known time.
   */
  private async *recoverAfterCorruptLine(
    files: Map<ChunkStream, StreamFile>,
    indexFile: string,
    from: number,
  ): AsyncGenerator<StoredChunk> {
    const after = new Map<ChunkStream, number>(STREAMS.map((s) => [s, 0]));
    for await (const { line } of indexLines(indexFile, from)) {
      const entry: IndexEntry | null = parseIndexLine(line);
      if (entry !== null) after.set(entry.stream, (after.get(entry.stream) ?? 0) + entry.bytes);
    }
    for (const [s, file] of files) {
      const start = this.offsets.get(s) ?? 0;
      const gap = file.size - start - (after.get(s) ?? 0);
      // A negative gap: the lines after claim more than the file holds; read them in order.
      for (let at = start; at < start + gap; at += BLOCK_BYTES) {
        const bytes = await file.slice(at, Math.min(BLOCK_BYTES, start + gap - at));
        yield { stream: s, bytes, capturedAt: this.lastTime };
      }
      if (gap > 0) this.offsets.set(s, start + gap);
    }
  }
}
