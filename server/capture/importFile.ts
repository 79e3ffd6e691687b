// One-shot read of a whole file in bounded chunks ("Import Log…"), with progress and
// cancellation (joinedFiles.ts reads a gzip file among them as the log inside it). Also the chunk
// reader the tail source uses, so both read the same way: never more than two chunks in memory
// (one parsed, one being read), and an await between chunks so a multi-GB file does not hold
// the event loop.
import * as fsp from 'node:fs/promises';

/** 1 MB: large enough that syscalls are not the cost, small enough to keep the loop responsive. */
export const DEFAULT_CHUNK_BYTES = 1 << 20;

export interface FileProgress {
  /** Bytes of the file read so far. */
  readonly bytesRead: number;
  /** The file's size (grows if the file grows while it is read). */
  readonly size: number;
}

export interface ImportOptions {
  /** Abort to cancel; the reads then throw the signal's reason (an `AbortError` by default). */
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

/**
 * The bytes of `path` from start to end of file, in order, progress after each chunk; throws on
 * I/O errors (the open's ENOENT included) or when `signal` aborts. The file is closed when the
 * reads end or the caller stops.
 */
export async function* fileReads(path: string, options: ImportOptions = {}): AsyncGenerator<Buffer, void, undefined> {
  const { signal, onProgress } = options;
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  signal?.throwIfAborted();
  const handle = await fsp.open(path, 'r');
  try {
    let size = (await handle.stat()).size;
    let bytesRead = 0;
    onProgress?.({ bytesRead, size });
    // One read ahead: the next chunk is read from disk while this one is parsed, so the
    // parser does not sit idle waiting for each read (at most two chunks in memory).
    let next: Promise<Buffer> = readChunkAt(handle, 0, chunkBytes);
    for (;;) {
      const chunk: Buffer = await next;
      // Checked again after the read: a cancel during a slow read must not deliver more bytes.
      signal?.throwIfAborted();
      if (chunk.length === 0) return;
      bytesRead += chunk.length;
      size = Math.max(size, bytesRead);
      next = readChunkAt(handle, bytesRead, chunkBytes);
      // A read still in flight when the caller stops must not end as an unhandled rejection
      // (close() below waits for it).
      next.catch(() => undefined);
      yield chunk;
      onProgress?.({ bytesRead, size });
    }
  } finally {
    await handle.close();
  }
}
