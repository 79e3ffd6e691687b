// A large log file is parsed in a worker thread (parseWorker.ts) while this thread analyzes the
// records and writes the JSON report: on two free cores a cold `analyze --format json` of a large
// log takes about the longer of the two instead of both (docs/performance.md, "Cold processes,
// change by change"). The hand-over costs both threads some work (packing, unpacking), which the
// table, CSV and trace do not win back: their writing is small, or comes after the read. Only a
// regular file, not gzip, whose first bytes read as a log, of at least PARSE_WORKER_MIN_BYTES,
// on a machine of two cores or more with a core free: its two threads want ~1.8 cores, and where
// other work keeps the cores busy it is slower than one thread. STAGE_LENS_PARSE_WORKER=0 turns it
// off, =1 on for any such file whatever its size, the format and the load.
import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type * as workerThreads from 'node:worker_threads';
import { EventEmitter } from 'node:events';
import { compressedFormatOf } from '../core/log/compressedInput';
import { RecordUnpacker } from '../core/log/recordUnpacker';
import type { ParseOutput } from '../core/records';
import { kindOfHead } from '../capture/inputByKind';
import type { ParseWorkerData, ParseWorkerMessage } from './parseWorkerMessages';

/**
 * Below this the worker's start-up and its own cold compile of the parser cost more than parsing
 * beside the JSON writer saves: on two idle cores the JSON took 19% longer with the worker at
 * 20 MB, 9% at 50 MB, as long at 75 MB, 5% less at 100 MB, 12% less at 200 MB (docs/performance.md).
 */
export const PARSE_WORKER_MIN_BYTES = 96 << 20;
/** Bytes of the head whose kind is decided (as readByKind decides on a file's first 1 MB read). */
const HEAD_BYTES = 64 * 1024;
const WORKER_FILE = 'cli-parse-worker.js';

/**
 * A file being parsed in a worker thread: its parse outputs, in order. `bytesRead`: the bytes
 * whose records were taken (the progress line's); 'end' once they all were, or the read failed.
 */
export class WorkerParsedInput extends EventEmitter {
  bytesRead = 0;
  private readonly worker: workerThreads.Worker;
  private readonly inFlight: Int32Array;
  private readonly queue: ParseWorkerMessage[] = [];
  private wake: (() => void) | null = null;
  private failure: Error | null = null;
  private closed = false;

  constructor(
    private readonly fd: number,
    workerFile: string,
  ) {
    super();
    const inFlight = new SharedArrayBuffer(4);
    this.inFlight = new Int32Array(inFlight);
    const data: ParseWorkerData = { fd, inFlight };
    // Loaded here, not at start-up: only a large log is parsed in a worker, and worker_threads costs
    // a one-shot `analyze` ~4 ms to load.
    const { Worker } = require('node:worker_threads') as typeof workerThreads;
    this.worker = new Worker(workerFile, { workerData: data });
    this.worker.on('message', (message: ParseWorkerMessage) => this.arrived(message));
    this.worker.on('error', (err) => this.failed(err));
    this.worker.on('exit', (code) => this.failed(new Error(`the parse worker stopped (exit ${code})`)));
  }

  private arrived(message: ParseWorkerMessage): void {
    this.queue.push(message);
    this.wake?.();
  }

  private failed(err: Error): void {
    this.failure ??= err;
    this.wake?.();
  }

  /**
   * Hands each parse output to `take`, in order; after each batch's, awaits `afterBatch` (output
   * backpressure, as after each chunk read on this thread). Throws a read error as fs gave it.
   */
  async read(take: (output: ParseOutput) => void, afterBatch: () => Promise<void> | undefined): Promise<void> {
    const unpacker = new RecordUnpacker();
    try {
      for (;;) {
        const message = await this.next();
        if (message.type === 'error') throw Object.assign(new Error(message.message), { code: message.code });
        for (const output of unpacker.outputs(message.batch)) take(output);
        Atomics.sub(this.inFlight, 0, 1);
        Atomics.notify(this.inFlight, 0);
        this.bytesRead += message.bytes;
        if (message.type === 'end') return;
        await afterBatch();
      }
    } finally {
      this.emit('end');
      await this.close();
    }
  }

  private async next(): Promise<ParseWorkerMessage> {
    for (;;) {
      const message = this.queue.shift();
      if (message !== undefined) return message;
      if (this.failure !== null) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.worker.removeAllListeners('exit');
    // A worker waiting for batches to be taken (the read stopped early) is woken to be ended.
    Atomics.store(this.inFlight, 0, 0);
    Atomics.notify(this.inFlight, 0);
    await this.worker.terminate();
    closeSync(this.fd);
  }
}

/** Why the parse worker is used or not, from STAGE_LENS_PARSE_WORKER: 'forced' (=1), 'off' (=0), else 'auto'. */
function parseWorkerSetting(env: NodeJS.ProcessEnv): 'forced' | 'off' | 'auto' {
  const value = env['STAGE_LENS_PARSE_WORKER'];
  return value === '1' ? 'forced' : value === '0' ? 'off' : 'auto';
}

/** What the automatic choice reads of the machine and the run. */
export interface ParseWorkerContext {
  /** The report is written as the requests are read (the JSON's). */
  readonly writesWhileRead: boolean;
  readonly cores: number;
  /** The 1-minute load average (os.loadavg). */
  readonly load: number;
  readonly bytes: number;
}

/**
 * Whether, without STAGE_LENS_PARSE_WORKER, a file is parsed in a worker thread: a JSON report of
 * a large file, on two cores or more of which one is free (the load leaves a core's worth idle).
 */
export function parseWorkerWorthIt(run: ParseWorkerContext): boolean {
  return run.writesWhileRead && run.cores >= 2 && run.load <= run.cores - 1 && run.bytes >= PARSE_WORKER_MIN_BYTES;
}

/**
 * The file at `source` parsed in a worker thread, when that is worth it (above; `writesWhileRead`:
 * the report is written as the requests are read, the JSON's); null when it is to be read on this
 * thread. An error opening the file is thrown here, as reading it would.
 */
export function workerParsedInput(
  source: string,
  writesWhileRead: boolean,
  dir: string = __dirname,
): WorkerParsedInput | null {
  const setting = parseWorkerSetting(process.env);
  if (setting === 'off') return null;
  const workerFile = join(dir, WORKER_FILE);
  // Under a transpiler (tests) there is no worker bundle beside this file.
  if (!existsSync(workerFile)) return null;
  // Not opened unless regular: a FIFO is opened once (its reader is fileChunks).
  let size: number;
  try {
    const stats = statSync(source);
    if (!stats.isFile()) return null;
    size = stats.size;
  } catch {
    return null;
  }
  if (size === 0) return null;
  if (
    setting === 'auto' &&
    !parseWorkerWorthIt({ writesWhileRead, cores: availableParallelism(), load: loadavg()[0] ?? 0, bytes: size })
  )
    return null;
  const fd = openSync(source, 'r');
  try {
    if (!fstatSync(fd).isFile()) {
      closeSync(fd);
      return null;
    }
    const head = Buffer.allocUnsafe(HEAD_BYTES);
    const n = readSync(fd, head, 0, HEAD_BYTES, 0);
    const first = head.subarray(0, n);
    if (n === 0 || compressedFormatOf(first) === 'gzip' || kindOfHead(first) !== 'log') {
      closeSync(fd);
      return null;
    }
  } catch {
    closeSync(fd);
    return null;
  }
  return new WorkerParsedInput(fd, workerFile);
}
