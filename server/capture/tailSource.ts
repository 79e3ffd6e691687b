// Tail capture source: follows a log file the way `tail -F` does, by polling `stat` and
// reading from an open descriptor. Polling (not fs.watch) because watch events are lost
// or never sent on network, container and FUSE filesystems, where serving logs often live.
//
// What it survives, and how:
// - appends: read from the last offset to end of file, in bounded chunks;
// - copytruncate: told by content, not size (tailFingerprint.ts: the file's first bytes
//   and the bytes before our offset, re-checked every poll; a writer may already have
//   written past our old offset again). The bytes written between our last read and the
//   truncation are read from logrotate's copy (rotatedCopy.ts), then the file from 0;
// - rotation by rename: the path names a new inode -> finish the old descriptor first
//   (the writer may have written just before rotating), then read the new file from 0;
// - deletion: the old file has no links left -> close it and wait for the path to return;
// - not there yet: report "waiting", keep polling.
// Partial last lines are passed through as bytes; the parser keeps the unfinished line.
import * as fsp from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { CaptureListener, CaptureSource } from './source';
import { DEFAULT_CHUNK_BYTES, readChunkAt } from './importFile';
import { ContentFingerprint } from './tailFingerprint';
import { findRotatedCopy } from './rotatedCopy';

export interface TailOptions {
  readonly path: string;
  /** true: read what the file already holds; false: only what is appended from now on. */
  readonly fromStart: boolean;
  /** Poll interval. Default 250 ms. */
  readonly intervalMs?: number;
  /** Largest single read. Default 1 MB. */
  readonly chunkBytes?: number;
}

const DEFAULT_INTERVAL_MS = 250;

interface OpenFile {
  readonly handle: fsp.FileHandle;
  readonly dev: number;
  readonly ino: number;
}

function errnoCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class TailSource implements CaptureSource {
  readonly description: string;
  private readonly path: string;
  private readonly fromStart: boolean;
  private readonly chunkBytes: number;
  /** How often the file is polled for new bytes. */
  readonly readIntervalMs: number;

  private listener: CaptureListener | null = null;
  private file: OpenFile | null = null;
  /** What the open file held where it has been read; null while no file is open. */
  private fingerprint: ContentFingerprint | null = null;
  private offset = 0;
  private fileSize = 0;
  private delivered = 0;
  /** `fromStart: false` skips only what existed when we started, not a file that appears later. */
  private skipExisting: boolean;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private waitingReported = false;
  private renamedAway = false;
  private errorShown: string | null = null;
  /** A file was opened before: the next one opened is a new stream of lines (onRestart). */
  private opened = false;

  constructor(options: TailOptions) {
    this.path = options.path;
    this.fromStart = options.fromStart;
    this.readIntervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    this.skipExisting = !options.fromStart;
    this.description = options.path;
  }

  /** Position in the current file: with `size`, the progress of reading a large existing file. */
  get bytesRead(): number {
    return this.offset;
  }

  /** Size of the current file at the last poll. */
  get size(): number {
    return this.fileSize;
  }

  /** All bytes delivered since start, across truncations and rotations. */
  get bytesDelivered(): number {
    return this.delivered;
  }

  start(listener: CaptureListener): void {
    if (this.running) {
      listener.onNotice(`already following ${this.path}`);
      return;
    }
    this.listener = listener;
    this.running = true;
    this.skipExisting = !this.fromStart;
    this.opened = false;
    this.waitingReported = false;
    this.errorShown = null;
    listener.onStatus('starting', `opening ${this.path}`);
    this.polling = this.pollOnce(true);
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.polling;
    await this.closeFile();
    this.listener?.onStatus('stopped', `stopped following ${this.path}`);
  }

  private async pollOnce(first: boolean): Promise<void> {
    try {
      await this.poll();
      if (!this.running) return;
      if (first) {
        this.listener?.onStatus(
          'running',
          this.file !== null ? `following ${this.path}` : `waiting for ${this.path} to appear`,
        );
      } else if (this.errorShown !== null) {
        this.listener?.onStatus('running', `following ${this.path} again`);
      }
      this.errorShown = null;
    } catch (err) {
      this.reportError(err, first);
    }
    // The first poll has decided where reading starts; later appearances are read whole.
    this.skipExisting = false;
    if (this.running) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.polling = this.pollOnce(false);
      }, this.readIntervalMs);
    }
  }

  private reportError(err: unknown, first: boolean): void {
    const code = errnoCode(err);
    const reason =
      code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'it is a directory'
          : err instanceof Error
            ? err.message
            : String(err);
    const message = `cannot read ${this.path}: ${reason}`;
    if (message !== this.errorShown || first) this.listener?.onStatus('error', message);
    this.errorShown = message;
  }

  private async poll(): Promise<void> {
    if (this.file === null && !(await this.openFile())) return;
    await this.drain();
    const current = await this.statPath();
    if (!this.running || this.file === null) return;
    const old = await this.file.handle.stat();
    if (current === null) {
      if (old.nlink === 0) {
        // Deleted outright: nothing more will be written to it that anyone can read.
        await this.drain();
        const rotatedAway = this.renamedAway;
        await this.closeFile();
        const waiting = rotatedAway
          ? `the rotated copy of ${this.path} was removed; waiting for ${this.path} to come back`
          : `${this.path} was deleted; waiting for it to come back`;
        this.notice(waiting);
        this.listener?.onWaiting?.(waiting);
        this.waitingReported = true;
      } else {
        // Renamed away (rotation in progress): the writer may still append to the old
        // file until it reopens the path, so keep reading it until a new file appears.
        this.renamedAway = true;
      }
      return;
    }
    if (current.dev === this.file.dev && current.ino === this.file.ino) return;
    // The path names another file now. Take the last bytes of the old one before leaving it.
    await this.drain();
    const wasDeleted = old.nlink === 0 && !this.renamedAway;
    await this.closeFile();
    this.notice(
      wasDeleted
        ? `${this.path} was replaced by a new file; reading it from the start`
        : `${this.path} was rotated; reading the new file from the start`,
    );
    if (await this.openFile()) await this.drain();
  }

  private async statPath(): Promise<Stats | null> {
    try {
      return await fsp.stat(this.path);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return null;
      throw err;
    }
  }

  /** Opens the path; false when it does not exist (yet). */
  private async openFile(): Promise<boolean> {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(this.path, 'r');
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT' && errnoCode(err) !== 'ENOTDIR') throw err;
      if (!this.waitingReported) this.notice(`waiting for ${this.path} to appear`);
      this.waitingReported = true;
      return false;
    }
    const stats = await handle.stat().catch(async (err: unknown) => {
      await handle.close();
      throw err;
    });
    if (!stats.isFile()) {
      await handle.close();
      throw Object.assign(new Error('it is not a regular file'), { code: stats.isDirectory() ? 'EISDIR' : undefined });
    }
    if (this.waitingReported) {
      this.notice(`${this.path} appeared; reading it from the start`);
      this.listener?.onWaiting?.(null);
    }
    this.waitingReported = false;
    this.renamedAway = false;
    this.file = { handle, dev: stats.dev, ino: stats.ino };
    this.fileSize = stats.size;
    this.offset = this.skipExisting ? stats.size : 0;
    this.fingerprint = await ContentFingerprint.at(handle, this.offset);
    // A file opened after another one (rotated, replaced, deleted and back) is read from its start.
    if (this.opened) this.listener?.onRestart?.('file');
    this.opened = true;
    return true;
  }

  /** Reads the open file from our offset to its end, one bounded chunk at a time. */
  private async drain(): Promise<void> {
    const file = this.file;
    if (file === null) return;
    const stats = await file.handle.stat();
    const seen = this.fingerprint;
    if (seen !== null && !(await seen.matches(file.handle, stats.size))) {
      await this.readTailFromCopy(seen);
      this.listener?.onRestart?.('file');
      this.offset = 0;
      this.fingerprint = new ContentFingerprint();
    }
    this.fileSize = stats.size;
    while (this.running) {
      const chunk = await readChunkAt(file.handle, this.offset, this.chunkBytes);
      if (chunk.length === 0) break;
      this.fingerprint?.advance(chunk);
      this.offset += chunk.length;
      this.delivered += chunk.length;
      this.fileSize = Math.max(this.fileSize, this.offset);
      this.listener?.onData(chunk, 'file');
      // Let requests and other sessions run between chunks of a large backlog.
      if (chunk.length === this.chunkBytes) await yieldToEventLoop();
    }
  }

  /**
   * The file was truncated in place. What the writer appended after our last read and
   * before the truncation is only in the copy logrotate made first: read it from there.
   */
  private async readTailFromCopy(seen: ContentFingerprint): Promise<void> {
    const copy = await findRotatedCopy(this.path, seen);
    if (copy === null) {
      this.notice(
        `${this.path} was truncated; reading it again from the start (no copy holding what was written just before was found next to it)`,
      );
      return;
    }
    let position = seen.position;
    try {
      while (this.running) {
        const chunk = await readChunkAt(copy.handle, position, this.chunkBytes);
        if (chunk.length === 0) break;
        position += chunk.length;
        this.delivered += chunk.length;
        this.listener?.onData(chunk, 'file');
      }
    } finally {
      await copy.handle.close().catch(() => undefined);
    }
    const tail = position - seen.position;
    this.notice(
      tail > 0
        ? `${this.path} was truncated; the ${tail} bytes written just before were read from its copy ${copy.path}; reading it again from the start`
        : `${this.path} was truncated (copied to ${copy.path}); reading it again from the start`,
    );
  }

  private async closeFile(): Promise<void> {
    const file = this.file;
    this.file = null;
    this.fingerprint = null;
    if (file !== null) await file.handle.close().catch(() => undefined);
  }

  private notice(message: string): void {
    this.listener?.onNotice(message);
  }
}
