// A gzip-compressed log (logrotate's `server.log.1.gz`) read as the text inside it, decided by
// its first bytes (gzip's magic number), not its name. Streaming: the compressed chunks go through
// zlib's gunzip as they are read, so a large file is never held whole. Concatenated members
// (`cat a.gz b.gz`) read as one log, as zcat reads them. A file cut short or damaged gives
// what came before the damage, and the damage is said (a parse problem), never thrown.
// Any other input goes through untouched, chunk for chunk.
import { closeSync, openSync, readSync } from 'node:fs';
import type * as zlib from 'node:zlib';
import { compressedFormatOf } from '../core/log/compressedInput';
import { gzipDamageProblem, type GzipDamageProblem } from '../core/gzipInput';

/** Decompressed chunks of up to this size: fewer, larger pushes into the parser than zlib's 16 KB. */
const LOG_CHUNK_BYTES = 256 * 1024;

/** What the bytes read were: filled in while the chunks are read; final once they ended. */
export interface InputEncoding {
  /** 'gzip' once the input's first bytes were gzip's; null for an input read as it is. */
  compression: 'gzip' | null;
  /** Bytes of log the gzip data gave (0 for an input read as it is). */
  logBytes: number;
  /** Why the gzip data stopped before its end, as a parse problem for the report; null when it was whole. */
  damage: GzipDamageProblem | null;
}

/**
 * Whether the file at `path` is gzip data now (its first bytes; its name does not count): such a
 * file is a rotated log, done growing, so it is read whole rather than followed. False for a
 * file that cannot be read here (whoever reads it says why).
 */
export function isGzipFile(path: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && compressedFormatOf(head) === 'gzip';
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** A chunk source's bytes: strings (a text stream) as their UTF-8. */
function bytesOf(chunk: unknown): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
}

/**
 * The input's chunks as text: a gzip input's decompressed, any other's as they come (each
 * valid only until the next is requested, as the source's). `encoding` says which, and the
 * damage of a gzip input, once the chunks ended. Errors of the source itself are thrown as they are.
 */
export function gunzipIfGzip(input: AsyncIterable<unknown> | Iterable<unknown>): {
  readonly chunks: AsyncIterable<Buffer>;
  readonly encoding: InputEncoding;
} {
  const encoding: InputEncoding = { compression: null, logBytes: 0, damage: null };
  return { chunks: decoded(input, encoding), encoding };
}

async function* decoded(
  input: AsyncIterable<unknown> | Iterable<unknown>,
  encoding: InputEncoding,
): AsyncGenerator<Buffer, void, undefined> {
  const source = (Symbol.asyncIterator in input ? input[Symbol.asyncIterator]() : input[Symbol.iterator]()) as
    AsyncIterator<unknown> | Iterator<unknown>;
  // gzip's magic number is 2 bytes: a first chunk shorter than that (a pipe's first byte) is held until it is decided.
  let head: Buffer = Buffer.alloc(0);
  for (;;) {
    const next = await source.next();
    if (next.done === true) {
      if (head.length > 0) yield head;
      return;
    }
    const bytes = bytesOf(next.value);
    if (head.length === 0 && bytes.length >= 2) head = bytes;
    else head = Buffer.concat([head, bytes]);
    if (head.length >= 2) break;
  }
  if (compressedFormatOf(head) !== 'gzip') {
    let done = false;
    try {
      yield head;
      for (;;) {
        const next = await source.next();
        if ((done = next.done === true)) return;
        yield bytesOf(next.value);
      }
    } finally {
      // A consumer that stopped early: the source closes its file.
      if (!done) await source.return?.();
    }
  }
  encoding.compression = 'gzip';
  yield* gunzipped(head, source, encoding);
}

async function* gunzipped(
  head: Buffer,
  source: AsyncIterator<unknown> | Iterator<unknown>,
  encoding: InputEncoding,
): AsyncGenerator<Buffer, void, undefined> {
  // Loaded here, not at start-up: a plain log (nearly every input) never needs zlib, which costs a
  // one-shot `analyze` ~4 ms to load.
  const { createGunzip } = require('node:zlib') as typeof zlib;
  const gunzip = createGunzip({ chunkSize: LOG_CHUNK_BYTES });
  // An error of the source itself (a read error), told apart from the damage zlib finds.
  const failed = { error: null as Error | null };
  // Each chunk is written and waited for before the next is requested: a source may reuse its buffer
  // (fileChunks). zlib calls no write callback once the data broke: its stream's close ends the wait.
  const write = (bytes: Buffer): Promise<boolean> =>
    new Promise((resolve) => {
      if (gunzip.destroyed) return resolve(false);
      const closed = (): void => resolve(false);
      gunzip.once('close', closed);
      gunzip.write(bytes, (err) => {
        gunzip.off('close', closed);
        resolve(err === null || err === undefined);
      });
    });
  const feeding = (async (): Promise<void> => {
    try {
      if (!(await write(head))) return;
      for (;;) {
        if (gunzip.destroyed) return;
        const next = await source.next();
        if (next.done === true) break;
        if (!(await write(bytesOf(next.value)))) return;
      }
      gunzip.end();
    } catch (err) {
      failed.error = err instanceof Error ? err : new Error(String(err));
      gunzip.destroy(failed.error);
    } finally {
      if (gunzip.destroyed) await source.return?.();
    }
  })();
  try {
    for await (const out of gunzip as AsyncIterable<Buffer>) {
      encoding.logBytes += out.length;
      yield out;
    }
  } catch (err) {
    if (failed.error !== null) throw failed.error;
    encoding.damage = gzipDamageProblem(encoding.logBytes, (err as Error).message);
  } finally {
    // The feeding is not awaited: it may wait on a source with no next chunk yet (stdin); it
    // stops at its next step, as the stream is destroyed, and never rejects.
    gunzip.destroy();
    void feeding;
  }
}
