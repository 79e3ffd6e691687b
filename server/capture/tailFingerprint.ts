// What a followed file held where we have read it: its first bytes (up to HEAD_BYTES) and
// the last bytes before our offset (up to EDGE_BYTES). Re-checked on every poll, they tell
// a file truncated in place (copytruncate) from one that only grew, even when the writer
// has already written past our old offset again: its size alone says nothing then.
import type { FileHandle } from 'node:fs/promises';

export const HEAD_BYTES = 1024;
export const EDGE_BYTES = 256;

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? buffer : buffer.subarray(0, done);
}

export class ContentFingerprint {
  private head: Buffer = Buffer.alloc(0);
  /** The bytes just before `offset`. */
  private edge: Buffer = Buffer.alloc(0);
  private offset = 0;

  /** Starts at `offset` of an open file (0, or its end for a tail that skips what exists). */
  static async at(handle: FileHandle, offset: number): Promise<ContentFingerprint> {
    const f = new ContentFingerprint();
    f.offset = offset;
    f.head = await readAt(handle, 0, Math.min(HEAD_BYTES, offset));
    f.edge = await readAt(handle, Math.max(0, offset - EDGE_BYTES), Math.min(EDGE_BYTES, offset));
    return f;
  }

  /** `chunk` was read at the current offset. */
  advance(chunk: Buffer): void {
    if (this.offset < HEAD_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.offset)]);
    this.edge =
      chunk.length >= EDGE_BYTES
        ? Buffer.from(chunk.subarray(chunk.length - EDGE_BYTES))
        : Buffer.concat([this.edge, chunk]).subarray(-EDGE_BYTES);
    this.offset += chunk.length;
  }

  /** Whether `handle` still holds, at the same places, the bytes this fingerprint has seen. */
  async matches(handle: FileHandle, size: number): Promise<boolean> {
    if (size < this.offset) return false;
    if (this.head.length > 0 && !(await readAt(handle, 0, this.head.length)).equals(this.head)) return false;
    if (
      this.edge.length > 0 &&
      !(await readAt(handle, this.offset - this.edge.length, this.edge.length)).equals(this.edge)
    )
      return false;
    return true;
  }

  /** Whether another file (a rotated copy) starts like this one and holds the same bytes before our offset. */
  async isCopyOf(handle: FileHandle, size: number): Promise<boolean> {
    return size >= this.offset && this.head.length > 0 && (await this.matches(handle, size));
  }

  get position(): number {
    return this.offset;
  }
}
