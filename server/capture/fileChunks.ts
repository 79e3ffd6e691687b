// A file's bytes for a one-shot reader (`analyze`, `explain`). A regular file: 1 MB reads into two
// reused buffers, the next read running in libuv's thread pool while the caller parses the
// chunk it has. Reading the page cache is a copy that costs about a quarter of what
// parsing the same bytes does; on a second core it is off the parser's path. A fresh
// buffer per chunk (a read stream: 64 KB, ~3,000 reads for 200 MB) costs more than it saves.
import { close, closeSync, createReadStream, fstatSync, openSync, read } from 'node:fs';

/** 1 MB, as importFile reads (not imported from it: that module loads node:fs/promises). */
const DEFAULT_CHUNK_BYTES = 1 << 20;

/**
 * The file's chunks in order: a regular file in large prefetched reads, anything else (a FIFO,
 * a device) as a stream over the same descriptor. A FIFO is opened once: closing it and
 * opening it again would lose what its writer had written and kill the writer (SIGPIPE).
 * Each chunk is valid only until the next one is requested: a consumer that keeps bytes
 * copies them. Throws the open error (ENOENT ...).
 */
export function fileChunks(path: string, chunkBytes = DEFAULT_CHUNK_BYTES): AsyncIterable<Buffer> {
  const fd = openSync(path, 'r');
  let regular: boolean;
  try {
    regular = fstatSync(fd).isFile();
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return regular ? chunksOf(fd, chunkBytes) : createReadStream('', { fd });
}

/** Reads up to `buffer.length` bytes at the file's position; resolves with the count, rejects with the read error. */
function readInto(fd: number, buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, 0, buffer.length, null, (error, bytesRead) =>
      error === null ? resolve(bytesRead) : reject(error),
    );
  });
}

/**
 * The chunks of the regular file open on `fd`, from its position, in prefetched reads; `fd` is
 * closed at the end unless `keepOpen` (its owner closes it: a worker thread reading the main
 * thread's descriptor).
 */
export async function* chunksOf(
  fd: number,
  chunkBytes = DEFAULT_CHUNK_BYTES,
  keepOpen = false,
): AsyncGenerator<Buffer, void, undefined> {
  const buffers = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)] as const;
  let next = 0;
  let pending: Promise<number> | null = readInto(fd, buffers[next]);
  try {
    for (;;) {
      const n = await pending;
      pending = null;
      if (n === 0) return;
      const buffer = buffers[next];
      next ^= 1;
      // The other buffer's chunk was handed out before this one: the caller is done with it.
      pending = readInto(fd, buffers[next]);
      yield n === chunkBytes ? buffer : buffer.subarray(0, n);
    }
  } finally {
    // A read still running would write into a closed descriptor's buffer: wait for it.
    if (pending !== null) await pending.catch(() => 0);
    if (!keepOpen) close(fd, () => undefined);
  }
}
