// A growing set of samples that answers percentile queries repeatedly without
// re-sorting or even re-merging everything: new samples wait in a small sorted tail, and
// an exact rank is found in the union of the sorted body and the tail by binary search
// (O(log n) per rank). The tail is merged into the body only when it grows large, so a
// live summary of 100k requests stays cheap at every refresh. A body with few distinct values
// (batch sizes, token counts, sample rates: a third of a log's samples) is kept as runs, each
// distinct value once with where its run ends, at a fraction of the memory. A merge writes the
// body in place, from the end, into chunks (or runs) with room: it allocates only what the new
// samples need. A copy of the body per merge would be garbage that outlives the young
// generation and waits for a full collection: a one-shot read's peak memory grew with it.
import type { Distribution } from './types';

const MERGE_AT = 4096;
/**
 * A set's first merge comes at this many samples, each next one at twice the last, up to
 * MERGE_AT: merges (and their comparisons) run in the first requests, before V8 optimizes
 * the code that adds samples. A first merge at the 4,096th sample reached a call that had
 * never run: V8 threw away the optimized code of every caller `add` is inlined in and
 * compiled it again.
 */
const FIRST_MERGE_AT = 16;

/** Samples per chunk of the body (16 KB of thousandths): the body grows a chunk at a time. */
const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK - 1;

type Samples = Int32Array | Float64Array;

/** k when v === k / 1000 exactly for an int32 k (3-decimal log values), else null. */
function scaledOf(v: number): number | null {
  const k = Math.round(v * 1000);
  return k >= -0x7fffffff && k <= 0x7fffffff && k / 1000 === v && !Object.is(v, -0) ? k : null;
}

/** Where scaledCopy writes up to MERGE_AT values: a merge's copy is read before the next is made. */
const SCALED_SCRATCH = new Int32Array(MERGE_AT);

/**
 * The values as Int32 thousandths, or null when one is not a 3-decimal value. Up to MERGE_AT
 * values are written over the last call's: read them before calling it again.
 */
function scaledCopy(values: Float64Array): Int32Array | null {
  const out = values.length <= MERGE_AT ? SCALED_SCRATCH.subarray(0, values.length) : new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const k = scaledOf(values[i]);
    if (k === null) return null;
    out[i] = k;
  }
  return out;
}

/**
 * Sorts in place, ascending. V8's native sort of an Int32Array is 3-6 times faster than of a
 * Float64Array (4,096 samples: 40-90 against 250-340 µs), so 3-decimal values, nearly all of
 * a log's, are sorted as thousandths; k / 1000 gives each value back exactly (scaledOf).
 */
function sortAscending<T extends Float64Array>(values: T): T {
  const scaled = scaledCopy(values);
  if (scaled === null) return values.sort();
  scaled.sort();
  for (let i = 0; i < scaled.length; i++) values[i] = scaled[i] / 1000;
  return values;
}

export class SampleSet {
  /**
   * Sorted merged samples: thousandths in Int32Arrays while every sample is a 3-decimal
   * value (half the memory of doubles, exact), doubles once one is not.
   */
  private chunks: Samples[] = [];
  /**
   * null: the body is every sample, sample i at chunks[i >> CHUNK_BITS][i & CHUNK_MASK] (the
   * first chunk grows up to CHUNK, the next ones are CHUNK long, the last one may be cut to its
   * samples by trim); else the body is runs:
   * runValues[r] is the value of run r < runCount, which ends before index runEnds[r] (both
   * arrays have room for more runs: a merge writes its runs in place, from the end).
   */
  private runEnds: Int32Array | null = null;
  private runValues: Samples = new Int32Array(0);
  private runCount = 0;
  private bodyCount = 0;
  private scaled = true;
  /** Samples not merged into the body yet: tail[0, tailLength), a typed buffer grown up to MERGE_AT. */
  private tail = new Float64Array(8);
  private tailLength = 0;
  /** tail[0, sortedUpTo) is sorted; what was added since is not yet. */
  private sortedUpTo = 0;
  /** The tail is merged when it holds this many samples. */
  private mergeAt = FIRST_MERGE_AT;
  private total = 0;
  private largest = Number.NEGATIVE_INFINITY;

  /**
   * @param keepsTail keep the tail's buffer after a merge, for the next samples, instead of
   *        letting it go and growing a new one from 8 samples: for a reader that adds to the end
   *        and queries once, whose sets would otherwise leave ~64 KB of regrown buffers per merge
   *        to a full collection; the set holds up to 32 KB more until it goes
   */
  constructor(private readonly keepsTail = false) {}

  add(value: number): void {
    if (this.tailLength === this.tail.length) this.growTail();
    this.tail[this.tailLength++] = value;
    this.total += value;
    if (value > this.largest) this.largest = value;
    if (this.tailLength >= this.mergeAt) this.merge();
  }

  /**
   * Adds many samples at once: sorted once and merged into the body in one pass (adding
   * them one by one would merge the body every MERGE_AT samples).
   */
  addAll(values: ArrayLike<number>): void {
    if (values.length < MERGE_AT) {
      for (let i = 0; i < values.length; i++) this.add(values[i]);
      return;
    }
    this.merge();
    const sorted = sortAscending(Float64Array.from(values));
    for (let i = 0; i < sorted.length; i++) this.total += values[i];
    if (sorted[sorted.length - 1] > this.largest) this.largest = sorted[sorted.length - 1];
    this.tail = sorted;
    this.tailLength = sorted.length;
    this.sortedUpTo = sorted.length;
    this.merge();
    this.tail = new Float64Array(8);
  }

  /** The k-th smallest sample (0-based; k < count). */
  at(k: number): number {
    this.sortTail();
    return this.kth(k);
  }

  /**
   * Fits the arrays to the samples, for a set whose input ended and which is only queried from
   * then on: the tail is merged into the body (a 3-decimal sample takes 4 bytes there, 8 in the
   * tail) and the room kept for samples to come is let go (up to 32 KB of tail, a third of the
   * runs, the last chunk's rest). Samples added after it are taken as before, their room grown again.
   */
  trim(): void {
    this.merge();
    if (this.tail.length > 8) this.tail = new Float64Array(8);
    const ends = this.runEnds;
    if (ends !== null) {
      if (ends.length > this.runCount) {
        this.runEnds = ends.slice(0, this.runCount);
        this.runValues = this.runValues.slice(0, this.runCount);
      }
      return;
    }
    const last = this.chunks.length - 1;
    const used = this.bodyCount - last * CHUNK;
    if (last >= 0 && this.chunks[last].length > used) this.chunks[last] = this.chunks[last].slice(0, used);
  }

  /** Bytes held by the samples. */
  get bytes(): number {
    let n = this.runValues.byteLength + (this.runEnds?.byteLength ?? 0) + this.tail.byteLength;
    for (const chunk of this.chunks) n += chunk.byteLength;
    return n;
  }

  /** An independent set with the same samples (added in the same order: the same mean). */
  copy(): SampleSet {
    const copy = new SampleSet(this.keepsTail);
    copy.chunks = this.chunks.map((chunk) => chunk.slice());
    copy.runValues = this.runValues.slice();
    copy.runEnds = this.runEnds === null ? null : this.runEnds.slice();
    copy.runCount = this.runCount;
    copy.bodyCount = this.bodyCount;
    copy.scaled = this.scaled;
    copy.tail = this.tail.slice();
    copy.tailLength = this.tailLength;
    copy.sortedUpTo = this.sortedUpTo;
    copy.mergeAt = this.mergeAt;
    copy.total = this.total;
    copy.largest = this.largest;
    return copy;
  }

  get count(): number {
    return this.bodyCount + this.tailLength;
  }

  /** The i-th smallest merged sample, in the body's units (thousandths while scaled). */
  private bodyAt(i: number): number {
    const ends = this.runEnds;
    if (ends === null) return this.chunks[i >> CHUNK_BITS][i & CHUNK_MASK];
    let lo = 0;
    let hi = this.runCount - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] > i) hi = mid;
      else lo = mid + 1;
    }
    return this.runValues[lo];
  }

  distribution(): Distribution | null {
    const n = this.count;
    if (n === 0) return null;
    this.sortTail();
    return {
      count: n,
      mean: this.total / n,
      p50: this.percentile(50),
      p90: this.percentile(90),
      p99: this.percentile(99),
      max: this.largest,
    };
  }

  private growTail(): void {
    const grown = new Float64Array(Math.min(this.tail.length * 2, MERGE_AT));
    grown.set(this.tail);
    this.tail = grown;
  }

  /** numpy's linear percentile over body and tail together. */
  private percentile(p: number): number {
    const n = this.count;
    const h = ((n - 1) * p) / 100;
    const lo = Math.floor(h);
    const a = this.kth(lo);
    if (lo + 1 >= n || h === lo) return a;
    return a + (h - lo) * (this.kth(lo + 1) - a);
  }

  /** The k-th smallest (0-based) of the union of two sorted arrays, by binary search over the split. */
  private kth(k: number): number {
    const scale = this.scaled ? 1000 : 1;
    const B = this.tail;
    const n = this.bodyCount;
    const m = this.tailLength;
    let lo = Math.max(0, k + 1 - m);
    let hi = Math.min(k + 1, n);
    // Find i (taken from A) with j = k + 1 - i taken from B such that A[i-1] <= B[j] and B[j-1] <= A[i].
    while (lo < hi) {
      const i = (lo + hi) >> 1;
      const j = k + 1 - i;
      if (this.bodyAt(i) / scale < B[j - 1]) lo = i + 1;
      else hi = i;
    }
    const i = lo;
    const j = k + 1 - i;
    const fromA = i > 0 ? this.bodyAt(i - 1) / scale : Number.NEGATIVE_INFINITY;
    const fromB = j > 0 ? B[j - 1] : Number.NEGATIVE_INFINITY;
    return Math.max(fromA, fromB);
  }

  /**
   * Sorts what was added since the last query and merges it into the sorted part: a
   * live view queries after every few requests, so this is usually a handful of values
   * merged in one linear pass, not a re-sort of the whole tail.
   */
  private sortTail(): void {
    const k = this.sortedUpTo;
    const n = this.tailLength;
    if (k === n) return;
    if (k === 0) {
      sortAscending(this.tail.subarray(0, n));
    } else {
      const fresh = sortAscending(this.tail.slice(k, n));
      this.tail.set(mergeSorted(this.tail.subarray(0, k), fresh, new Float64Array(n)), 0);
    }
    this.sortedUpTo = n;
  }

  private merge(): void {
    if (this.tailLength === 0) return;
    const tail = this.tail.subarray(0, this.tailLength);
    // Thousandths are sorted as such (see sortAscending), the tail's sorted part or not.
    const scaledTail = this.scaled ? scaledCopy(tail) : null;
    if (scaledTail !== null) scaledTail.sort();
    else {
      if (this.scaled) this.unscale();
      this.sortTail();
    }
    const sorted = scaledTail ?? tail;
    if (this.runEnds === null) this.mergeIntoChunks(sorted);
    else this.mergeIntoRuns(sorted);
    // A session's set stays alive for the whole session: its full 32 KB tail is let go, not kept empty.
    if (!this.keepsTail) this.tail = new Float64Array(8);
    this.tailLength = 0;
    this.sortedUpTo = 0;
    this.mergeAt = Math.min(this.mergeAt * 2, MERGE_AT);
  }

  /** The body from thousandths to doubles (a sample that is not a 3-decimal value came). */
  private unscale(): void {
    this.chunks = this.chunks.map((chunk) => Float64Array.from(chunk, (k) => k / 1000));
    this.runValues = Float64Array.from(this.runValues, (k) => k / 1000);
    this.scaled = false;
  }

  /** An empty chunk of the body's kind (thousandths or doubles). */
  private newChunk(length: number): Samples {
    return this.scaled ? new Int32Array(length) : new Float64Array(length);
  }

  /**
   * Room in the chunks for `count` samples: the last chunk grown (up to CHUNK; shorter only while
   * it is the first, or after trim), then whole chunks added.
   */
  private reserve(count: number): void {
    const chunks = this.chunks;
    const at = Math.max(chunks.length - 1, 0);
    const last = chunks[at];
    if (last === undefined || (last.length < CHUNK && at * CHUNK + last.length < count)) {
      const grown = this.newChunk(Math.min(CHUNK, Math.max(count - at * CHUNK, 2 * (last?.length ?? 0))));
      if (last !== undefined) grown.set(last);
      chunks[at] = grown;
    }
    while (chunks.length * CHUNK < count) chunks.push(this.newChunk(CHUNK));
  }

  /**
   * Merges the sorted new samples into the sorted chunks in place, from the end: each write
   * lands at or after the body sample it reads next, so nothing is read after it is
   * overwritten. On a tie the body's sample comes first, as in mergeSorted.
   */
  private mergeIntoChunks(fresh: Samples): void {
    const n = this.bodyCount;
    const m = fresh.length;
    this.reserve(n + m);
    const chunks = this.chunks;
    let i = n - 1;
    let k = n + m - 1;
    for (let j = m - 1; j >= 0; k--) {
      const v = fresh[j];
      if (i >= 0) {
        const b = chunks[i >> CHUNK_BITS][i & CHUNK_MASK];
        if (b > v) {
          chunks[k >> CHUNK_BITS][k & CHUNK_MASK] = b;
          i--;
          continue;
        }
      }
      chunks[k >> CHUNK_BITS][k & CHUNK_MASK] = v;
      j--;
    }
    this.bodyCount = n + m;
    const distinct = this.chunkRunCount();
    if (!this.worthRuns(distinct)) return;
    const values = this.newChunk(distinct);
    const ends = new Int32Array(distinct);
    let r = 0;
    for (let at = 0; at < this.bodyCount; at++) {
      const v = chunks[at >> CHUNK_BITS][at & CHUNK_MASK];
      if (at > 0 && v !== values[r]) ends[r++] = at;
      values[r] = v;
    }
    ends[r] = this.bodyCount;
    this.runValues = values;
    this.runEnds = ends;
    this.runCount = distinct;
    this.chunks = [];
  }

  /** Runs of equal samples in the chunks (a sample unlike the one before starts one). */
  private chunkRunCount(): number {
    const n = this.bodyCount;
    const chunks = this.chunks;
    let distinct = n === 0 ? 0 : 1;
    let last = n === 0 ? 0 : chunks[0][0];
    for (let at = 1; at < n; at++) {
      const v = chunks[at >> CHUNK_BITS][at & CHUNK_MASK];
      if (v !== last) distinct++;
      last = v;
    }
    return distinct;
  }

  /** Whether runs take at most half the memory of every sample. */
  private worthRuns(distinct: number): boolean {
    const width = this.scaled ? 4 : 8;
    return distinct * (width + 4) * 2 <= this.bodyCount * width;
  }

  /**
   * Merges the sorted new samples into the runs: the merged runs written in place from the end
   * (room grown by half when they need more), or every sample into the chunks when runs no
   * longer save memory. A run's samples are equal, so it goes whole next to the new samples.
   */
  private mergeIntoRuns(fresh: Samples): void {
    let ends = this.runEnds as Int32Array;
    let values = this.runValues;
    const runs = this.runCount;
    const n = this.bodyCount + fresh.length;
    const distinct = this.mergedRunCount(fresh);
    this.bodyCount = n;
    if (!this.worthRuns(distinct)) {
      this.spreadRuns(fresh);
      return;
    }
    if (distinct > ends.length) {
      const room = Math.max(distinct, Math.ceil(ends.length * 1.5));
      const grownValues = this.newChunk(room);
      grownValues.set(values.subarray(0, runs));
      const grownEnds = new Int32Array(room);
      grownEnds.set(ends.subarray(0, runs));
      this.runValues = values = grownValues;
      this.runEnds = ends = grownEnds;
    }
    // From the end, as mergeIntoChunks: on a tie the run's samples come before the new ones, and a
    // merged run's value is the last of its samples (met first from the end). A merged run may be
    // written over the next old run before it is read (when they become one): that one is read
    // ahead, as soon as the run after it is taken.
    let i = runs - 1;
    let j = fresh.length - 1;
    let w = distinct;
    let last = 0;
    let at = n;
    let oldValue = i >= 0 ? values[i] : 0;
    let oldCount = i >= 0 ? ends[i] - (i > 0 ? ends[i - 1] : 0) : 0;
    while (i >= 0 || j >= 0) {
      let v: number;
      let count: number;
      if (i < 0 || (j >= 0 && !(oldValue > fresh[j]))) {
        v = fresh[j];
        count = 1;
        j--;
      } else {
        v = oldValue;
        count = oldCount;
        i--;
        if (i >= 0) {
          oldValue = values[i];
          oldCount = ends[i] - (i > 0 ? ends[i - 1] : 0);
        }
      }
      if (w === distinct || v !== last) {
        w--;
        values[w] = v;
        ends[w] = at;
      }
      last = v;
      at -= count;
    }
    this.runCount = distinct;
  }

  /** Runs of the runs merged with sorted samples (a sample unlike the one before starts one). */
  private mergedRunCount(fresh: Samples): number {
    const values = this.runValues;
    const runs = this.runCount;
    const m = fresh.length;
    let count = 0;
    let last = 0;
    let i = 0;
    let j = 0;
    while (i < runs || j < m) {
      const v = j >= m || (i < runs && values[i] <= fresh[j]) ? values[i++] : fresh[j++];
      if (count === 0 || v !== last) count++;
      last = v;
    }
    return count;
  }

  /** Every sample of the runs and the sorted new ones, in order, into the chunks (the body is no longer runs). */
  private spreadRuns(fresh: Samples): void {
    const ends = this.runEnds as Int32Array;
    const values = this.runValues;
    this.chunks = [];
    this.reserve(this.bodyCount);
    const chunks = this.chunks;
    let at = 0;
    let from = 0;
    let j = 0;
    for (let i = 0; i < this.runCount; i++) {
      const v = values[i];
      for (; j < fresh.length && fresh[j] < v; j++, at++) chunks[at >> CHUNK_BITS][at & CHUNK_MASK] = fresh[j];
      for (; from < ends[i]; from++, at++) chunks[at >> CHUNK_BITS][at & CHUNK_MASK] = v;
    }
    for (; j < fresh.length; j++, at++) chunks[at >> CHUNK_BITS][at & CHUNK_MASK] = fresh[j];
    this.runValues = this.newChunk(0);
    this.runEnds = null;
    this.runCount = 0;
  }
}

/** Merges two ascending sequences into `out` (of their total length). */
function mergeSorted<T extends Int32Array | Float64Array>(
  a: Int32Array | Float64Array,
  b: Int32Array | Float64Array,
  out: T,
): T {
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
  // What is left of either is copied whole: a loop here first ran at the end of a merge, after
  // V8 had compiled the one above, and sent that code back on every merge.
  if (i < a.length) out.set(a.subarray(i), k);
  else if (j < b.length) out.set(b.subarray(j), k);
  return out;
}
