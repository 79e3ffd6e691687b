// Growable typed arrays in fixed-size chunks: appending never copies what is stored, and
// 100k requests' numbers take 4 or 8 bytes each instead of an object per value.

const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

export class ChunkedInt32 {
  private readonly chunks: Int32Array[] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }

  /** Longest run reserve() accepts. */
  static readonly MAX_RUN = CHUNK;

  /** Room for `count` (<= MAX_RUN) consecutive slots in one chunk; returns the index of the first. */
  reserve(count: number): number {
    if ((this.size & MASK) + count > CHUNK || this.chunks.length === 0 || this.size === this.chunks.length * CHUNK) {
      this.chunks.push(new Int32Array(CHUNK));
      this.size = (this.chunks.length - 1) * CHUNK;
    }
    const start = this.size;
    this.size += count;
    return start;
  }

  /** The chunk holding index `i` and the position in it (for loops over one reserved run). */
  chunkOf(i: number): Int32Array {
    return this.chunks[i >>> CHUNK_BITS];
  }

  static offsetIn(i: number): number {
    return i & MASK;
  }

  get externalBytes(): number {
    let n = 0;
    for (const c of this.chunks) n += c.byteLength;
    return n;
  }
}

export class ChunkedFloat64 {
  private readonly chunks: Float64Array[] = [];
  private size = 0;

  push(v: number): number {
    const i = this.size;
    if ((i & MASK) === 0) this.chunks.push(new Float64Array(this.chunks.length === 0 ? 1024 : CHUNK));
    else if (this.chunks.length === 1 && i >= this.chunks[0].length) {
      // The first chunk starts small (most stores never need a wide number) and grows.
      const grown = new Float64Array(Math.min(CHUNK, i * 2));
      grown.set(this.chunks[0]);
      this.chunks[0] = grown;
    }
    this.chunks[i >>> CHUNK_BITS][i & MASK] = v;
    this.size = i + 1;
    return i;
  }

  get(i: number): number {
    return this.chunks[i >>> CHUNK_BITS][i & MASK];
  }

  get externalBytes(): number {
    let n = 0;
    for (const c of this.chunks) n += c.byteLength;
    return n;
  }
}
