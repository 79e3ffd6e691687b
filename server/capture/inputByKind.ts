// Reading a log or a /metrics scrape from a stream (stdin, a file stream), told apart by
// content as for a file: shared by `analyze` and `compare`.
import { looksLikePrometheus } from '../core/inputKind';

export type InputKind = 'log' | 'scrape';

/** At least this much of an input is looked at before its kind is decided. */
export const KIND_HEAD_BYTES = 4096;
/** Decoded from the head to decide: the first lines of any scrape are far shorter. */
const KIND_DECODE_BYTES = 64 * 1024;
/** A scrape is a few MB at most; a body larger than this is not one. */
export const MAX_SCRAPE_BYTES = 64 * 1024 * 1024;

export interface ChunkReader {
  /** Takes a chunk; a returned promise (e.g. output backpressure) is awaited before the next one. */
  push(bytes: Buffer): void | Promise<void>;
}

/**
 * Reads `input` to its end. Once KIND_HEAD_BYTES have arrived (or the input ended, even
 * empty), calls `start` with the kind; every chunk, the held-back head first, then goes to
 * the reader `start` returned, in order. Resolves with that reader. A chunk passed to the
 * reader is valid only during its push (the source may reuse the buffer).
 */
export async function readByKind<R extends ChunkReader>(
  input: AsyncIterable<unknown> | Iterable<unknown>,
  start: (kind: InputKind) => R,
): Promise<R> {
  const head: Buffer[] = [];
  let headBytes = 0;
  let reader: R | null = null;
  // The kind shows in the first lines: at most KIND_DECODE_BYTES of the head are decoded.
  const decide = (first: Buffer = Buffer.concat(head)): R =>
    start(looksLikePrometheus(first.toString('utf8', 0, KIND_DECODE_BYTES)) ? 'scrape' : 'log');
  const pushHead = async (into: R): Promise<void> => {
    for (const bytes of head) await into.push(bytes);
    head.length = 0;
  };
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
    if (reader !== null) {
      await reader.push(bytes);
      continue;
    }
    if (head.length === 0 && bytes.length >= KIND_HEAD_BYTES) {
      // A first read long enough to decide on (a file's 1 MB reads): no copy is held back.
      reader = decide(bytes);
      await reader.push(bytes);
      continue;
    }
    // Copied: a source may reuse its buffer for the next chunk (fileChunks).
    head.push(Buffer.from(bytes));
    headBytes += bytes.length;
    if (headBytes >= KIND_HEAD_BYTES) {
      reader = decide();
      await pushHead(reader);
    }
  }
  if (reader !== null) return reader;
  const last = decide();
  await pushHead(last);
  return last;
}
