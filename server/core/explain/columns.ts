// Per-request number columns of the explain index, 4 bytes a value: the log prints
// durations to 3 decimals, so sums and differences of them are whole thousandths, kept
// exactly as int32 (wider values in a side map). A column that starts late (a stage or
// edge first seen at request 5,000) or is rare costs nothing where it has no values:
// chunks are allocated on the first value written into them.

const CHUNK_BITS = 14;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;
const MISSING = -0x80000000;
const WIDE = MISSING + 1;
const SCALED_MIN = WIDE + 1;

export class ScaledColumn {
  private readonly chunks: (Int32Array | undefined)[] = [];
  private wide: Map<number, number> | null = null;

  /** Stores v at i (null or NaN: no value). */
  set(i: number, v: number | null): void {
    if (v === null || !Number.isFinite(v)) {
      const chunk = this.chunks[i >>> CHUNK_BITS];
      if (chunk !== undefined) chunk[i & MASK] = MISSING;
      return;
    }
    let chunk = this.chunks[i >>> CHUNK_BITS];
    if (chunk === undefined) {
      chunk = new Int32Array(CHUNK).fill(MISSING);
      this.chunks[i >>> CHUNK_BITS] = chunk;
    }
    const k = Math.round(v * 1000);
    if (k >= SCALED_MIN && k <= 0x7fffffff && Math.abs(k / 1000 - v) < 1e-6) chunk[i & MASK] = k;
    else {
      chunk[i & MASK] = WIDE;
      (this.wide ??= new Map()).set(i, v);
    }
  }

  /** The value at i, or NaN when there is none. */
  get(i: number): number {
    const chunk = this.chunks[i >>> CHUNK_BITS];
    if (chunk === undefined) return Number.NaN;
    const k = chunk[i & MASK] as number;
    if (k >= SCALED_MIN) return k / 1000;
    if (k === MISSING) return Number.NaN;
    return this.wide?.get(i) ?? Number.NaN;
  }

  get bytes(): number {
    let n = 0;
    for (const c of this.chunks) if (c !== undefined) n += c.byteLength;
    return n + (this.wide?.size ?? 0) * 40;
  }
}

/** Doubles (times since epoch do not fit in thousandths of int32). */
export class TimeColumn {
  private readonly chunks: Float64Array[] = [];
  private size = 0;

  push(v: number): void {
    const i = this.size;
    if ((i & MASK) === 0) this.chunks.push(new Float64Array(CHUNK).fill(Number.NaN));
    (this.chunks[i >>> CHUNK_BITS] as Float64Array)[i & MASK] = v;
    this.size = i + 1;
  }

  get(i: number): number {
    const chunk = this.chunks[i >>> CHUNK_BITS];
    return chunk === undefined ? Number.NaN : (chunk[i & MASK] as number);
  }

  get length(): number {
    return this.size;
  }

  get bytes(): number {
    return this.chunks.length * CHUNK * 8;
  }
}
