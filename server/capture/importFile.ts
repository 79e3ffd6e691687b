// One-shot read of a whole log file in bounded chunks ("Import Log…"), with progress and
// cancellation; a gzip file (logrotate's `server.log.1.gz`) is read as the log inside it. Also the chunk reader the tail source uses, so both read the same way:
// never more than two chunks in memory (one parsed, one being read), and an await between
// chunks so a multi-GB file does not hold the event loop.
import * as fsp from 'node:fs/promises';
import { gunzipIfGzip, type InputEncoding } from './gunzipInput';

/** 1 MB: large enough that syscalls are not the cost, small enough to keep the loop responsive. */
export const DEFAULT_CHUNK_BYTES = 1 << 20;

export interface FileProgress {
  /** Bytes of the file read so far. */
  readonly bytesRead: number;
  /** The file's size (grows if the file grows while it is read). */
  readonly size: number;
}

export interface ImportOptions {
  /** Abort to cancel; `importFile` then rejects with the signal's reason (an `AbortError` by default). */
  readonly signal?: AbortSignal;
  /** Called after every chunk, and once before the first. */
  readonly onProgress?: (progress: FileProgress) => void;
  readonly chunkBytes?: number;
}

/** Reads up to `maxBytes` at `position`. An empty buffer means end of file. The buffer is the caller's to keep. */
export async function readChunkAt(handle: fsp.FileHandle, position: number, maxBytes: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(maxBytes);
  const { bytesRead } = await handle.read(buffer, 0, maxBytes, position);
  // Copy a short read so a nearly empty chunk does not pin a 1 MB allocation in the parser.
  return bytesRead === maxBytes ? buffer : Buffer.from(buffer.subarray(0, bytesRead));
}

/** The whole read: the file's bytes, and whether they were gzip (and where its data broke off). */
export interface ImportResult extends FileProgress {
  readonly encoding: InputEncoding;
}

/**
 * Reads `path` from start to end of file, calling `onChunk` with each chunk of log in order: a
 * gzip file's decompressed text (gunzipInput.ts), any other file's bytes. Progress counts the
 * file's bytes. Resolves with the final progress and the encoding; rejects on I/O errors or when
 * `signal` aborts (a gzip file's damage is no error: the encoding says it).
 */
export async function importFile(
  path: string,
  onChunk: (chunk: Buffer) => void,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const { signal, onProgress } = options;
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  signal?.throwIfAborted();
  const handle = await fsp.open(path, 'r');
  try {
    let size = (await handle.stat()).size;
    let bytesRead = 0;
    onProgress?.({ bytesRead, size });
    async function* fileReads(): AsyncGenerator<Buffer, void, undefined> {
      // One read ahead: the next chunk is read from disk while this one is parsed, so the
      // parser does not sit idle waiting for each read (at most two chunks in memory).
      signal?.throwIfAborted();
      let next: Promise<Buffer> = readChunkAt(handle, 0, chunkBytes);
      for (;;) {
        const chunk: Buffer = await next;
        // Checked again after the read: a cancel during a slow read must not deliver more bytes.
        signal?.throwIfAborted();
        if (chunk.length === 0) return;
        bytesRead += chunk.length;
        size = Math.max(size, bytesRead);
        next = readChunkAt(handle, bytesRead, chunkBytes);
        // A read still in flight when onChunk throws must not end as an unhandled rejection
        // (close() below waits for it).
        next.catch(() => undefined);
        yield chunk;
        onProgress?.({ bytesRead, size });
      }
    }
    const { chunks, encoding } = gunzipIfGzip(fileReads());
    for await (const chunk of chunks) onChunk(chunk);
    return { bytesRead, size, encoding };
  } finally {
    await handle.close();
  }
}
