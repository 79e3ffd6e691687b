// The explain index's finish times: doubles (ms since epoch do not fit in the arena's
// int32 thousandths), in fixed-size chunks so appending never copies.

const CHUNK_BITS = 14;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

/** Doubles (times since epoch do not fit in thousandths of int32). */
export class TimeColumn {
  private readonly chunks: Float64Array[] = [];
  private size = 0;

  push(v: number): void {
    const i = this.size;
    if ((i & MASK) === 0) this.chunks.push(new Float64Array(CHUNK).fill(Number.NaN));
    this.chunks[i >>> CHUNK_BITS][i & MASK] = v;
    this.size = i + 1;
  }

  get(i: number): number {
    const chunk = this.chunks[i >>> CHUNK_BITS];
    return chunk === undefined ? Number.NaN : chunk[i & MASK];
  }

  get length(): number {
    return this.size;
  }

  get bytes(): number {
    return this.chunks.length * CHUNK * 8;
  }
}
