// A regular file's bytes for a one-shot reader (`analyze`): 1 MB synchronous reads into one
// reused buffer. A CLI run has nothing else to do while it reads, and the page cache
// answers in microseconds; a fresh buffer per chunk (a read stream: 64 KB, ~3,000 reads
// for 200 MB, each a thread-pool round trip) costs more than the copy it saves.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** 1 MB, as importFile reads (not imported from it: that module loads node:fs/promises). */
const DEFAULT_CHUNK_BYTES = 1 << 20;

/**
 * The file's chunks in order, or null when `path` is not a regular file (a FIFO or a
 * device: read those as a stream). Each chunk is valid only until the next one is
 * requested: a consumer that keeps bytes copies them. Throws the open error (ENOENT ...).
 */
export function regularFileChunks(path: string, chunkBytes = DEFAULT_CHUNK_BYTES): Iterable<Buffer> | null {
  const fd = openSync(path, 'r');
  let regular = false;
  try {
    regular = fstatSync(fd).isFile();
  } finally {
    if (!regular) closeSync(fd);
  }
  return regular ? chunksOf(fd, chunkBytes) : null;
}

function* chunksOf(fd: number, chunkBytes: number): Generator<Buffer, void, undefined> {
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const n = readSync(fd, buffer, 0, chunkBytes, null);
      if (n === 0) return;
      yield n === chunkBytes ? buffer : buffer.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}
