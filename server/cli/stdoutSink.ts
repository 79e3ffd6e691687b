// Where `analyze` writes its report. Node writes to a file on stdout synchronously: each chunk
// of a 150 MB JSON report is copied into the page cache on the main thread, between chunks of
// parsing. When stdout is a regular file, chunks are written with fs.write in libuv's thread
// pool instead, one at a time and in order, while the main thread goes on parsing (the machine's
// second core does the copy). A terminal or a pipe keeps process.stdout: a pipe is non-blocking
// once Node has opened it, and a full pipe would turn each write into a retry loop.
import { fstatSync, write } from 'node:fs';

/** Bytes queued before `drained()` asks the producer to wait. */
const HIGH_WATER_BYTES = 8 << 20;

/** A write to stdout failed (a full disk, a quota): the report is incomplete. */
export class StdoutWriteError extends Error {
  readonly code: string | undefined;
  constructor(cause: NodeJS.ErrnoException) {
    super(cause.code === 'ENOSPC' ? 'no space left on the device' : cause.message);
    this.code = cause.code;
  }
}

export interface StdoutSink {
  write(chunk: Uint8Array | string): void;
  /** A promise while the queue holds more than the high-water mark; undefined otherwise. */
  drained(): Promise<void> | undefined;
  /** Resolves once every chunk is written; rejects with the first write error. */
  end(): Promise<void>;
}

/** The sink for file descriptor 1: a thread-pool writer for a regular file, process.stdout otherwise. */
export function stdoutSink(): StdoutSink {
  let regular: boolean;
  try {
    regular = fstatSync(1).isFile();
  } catch {
    regular = false;
  }
  return regular ? new FileSink(1) : new StreamSink(process.stdout);
}

class StreamSink implements StdoutSink {
  constructor(private readonly stream: NodeJS.WriteStream) {}

  write(chunk: Uint8Array | string): void {
    this.stream.write(chunk);
  }

  drained(): Promise<void> | undefined {
    const stream = this.stream;
    return stream.writableNeedDrain ? new Promise((resolve) => stream.once('drain', () => resolve())) : undefined;
  }

  end(): Promise<void> {
    return Promise.resolve();
  }
}

/** Writes to a regular file's descriptor at its current offset (appends after what a shell's `>>` left). */
export class FileSink implements StdoutSink {
  private readonly queue: Uint8Array[] = [];
  private queuedBytes = 0;
  private writing = false;
  private failure: StdoutWriteError | null = null;
  private readonly waiters: (() => void)[] = [];
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly fd: number) {}

  write(chunk: Uint8Array | string): void {
    if (this.failure !== null) return;
    // The caller may reuse nothing it handed over: strings become bytes here, byte chunks are owned from now on.
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (bytes.length === 0) return;
    this.queue.push(bytes);
    this.queuedBytes += bytes.length;
    if (!this.writing) this.next();
  }

  drained(): Promise<void> | undefined {
    if (this.queuedBytes <= HIGH_WATER_BYTES || this.failure !== null) return undefined;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  end(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (!this.writing) resolve();
      else this.idleWaiters.push(resolve);
    }).then(() => {
      if (this.failure !== null) throw this.failure;
    });
  }

  private next(): void {
    const chunk = this.queue[0];
    if (chunk === undefined || this.failure !== null) {
      this.writing = false;
      this.release(this.idleWaiters);
      return;
    }
    this.writing = true;
    write(this.fd, chunk, 0, chunk.length, null, (error, written) => {
      if (error !== null) {
        this.failure = new StdoutWriteError(error);
        this.queue.length = 0;
        this.queuedBytes = 0;
        this.release(this.waiters);
        this.next();
        return;
      }
      this.queuedBytes -= written;
      // A short write (a full disk quota reached mid-chunk is reported by the next call) goes on from where it stopped.
      if (written < chunk.length) this.queue[0] = chunk.subarray(written);
      else this.queue.shift();
      if (this.queuedBytes <= HIGH_WATER_BYTES) this.release(this.waiters);
      this.next();
    });
  }

  private release(list: (() => void)[]): void {
    if (list.length === 0) return;
    const waiting = list.splice(0);
    for (const resolve of waiting) resolve();
  }
}
