// Reading a log or a /metrics scrape from a stream (stdin, a file stream), told apart by
// content as for a file: shared by `analyze`, `explain` and `compare`. A gzip input is read as
// the text inside it (gunzipInput.ts), its kind told apart from that text.
import { looksLikePrometheus } from '../core/inputKind';
import { gunzipIfGzip, type InputEncoding } from './gunzipInput';
import { JoinedFiles } from './joinedFiles';

export type InputKind = 'log' | 'scrape';

/** At least this much of an input is looked at before its kind is decided. */
export const KIND_HEAD_BYTES = 4096;
/** Decoded from the head to decide: the first lines of any scrape are far shorter. */
const KIND_DECODE_BYTES = 64 * 1024;
/** A scrape is a few MB at most; a body larger than this is not one. */
export const MAX_SCRAPE_BYTES = 64 * 1024 * 1024;

/** The kind of an input by its head (at least KIND_HEAD_BYTES of it, or all of a shorter input). */
export function kindOfHead(head: Buffer): InputKind {
  // The kind shows in the first lines: at most KIND_DECODE_BYTES of the head are decoded.
  return looksLikePrometheus(head.toString('utf8', 0, KIND_DECODE_BYTES)) ? 'scrape' : 'log';
}

export interface ChunkReader {
  /** Takes a chunk; a returned promise (e.g. output backpressure) is awaited before the next one. */
  push(bytes: Buffer): void | Promise<void>;
}

/**
 * Reads `input` to its end, a gzip input's decompressed text. Once KIND_HEAD_BYTES have arrived
 * (or the input ended, even empty), calls `start` with the kind and the input's encoding (final
 * once the read ended: whether it was gzip, and its damage); every chunk, the held-back head first,
 * then goes to the reader `start` returned, in order. Resolves with that reader. A chunk passed
 * to the reader is valid only during its push (the source may reuse the buffer). Several files
 * (JoinedFiles) are their joined text, each file's decompressed already.
 */
export async function readByKind<R extends ChunkReader>(
  input: AsyncIterable<unknown> | Iterable<unknown> | JoinedFiles,
  start: (kind: InputKind, encoding: InputEncoding) => R,
): Promise<R> {
  const { chunks, encoding } = input instanceof JoinedFiles ? input : gunzipIfGzip(input);
  const head: Buffer[] = [];
  let headBytes = 0;
  let reader: R | null = null;
  const decide = (first: Buffer = Buffer.concat(head)): R => start(kindOfHead(first), encoding);
  const pushHead = async (into: R): Promise<void> => {
    for (const bytes of head) await into.push(bytes);
    head.length = 0;
  };
  for await (const bytes of chunks) {
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
