// A growing set of samples that answers percentile queries repeatedly without
// re-sorting or even re-merging everything: new samples wait in a small sorted tail, and
// an exact rank is found in the union of the sorted body and the tail by binary search
// (O(log n) per rank). The tail is merged into the body only when it grows large, so a
// live summary of 100k requests stays cheap at every refresh. A body with few distinct values
// (batch sizes, token counts, sample rates: a third of a log's samples) is kept as runs, each
// distinct value once with where its run ends, at a fraction of the memory.
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

/** k when v === k / 1000 exactly for an int32 k (3-decimal log values), else null. */
function scaledOf(v: number): number | null {
  const k = Math.round(v * 1000);
  return k >= -0x7fffffff && k <= 0x7fffffff && k / 1000 === v && !Object.is(v, -0) ? k : null;
}

/** The values as Int32 thousandths, or null when one is not a 3-decimal value. */
function scaledCopy(values: Float64Array): Int32Array | null {
  const out = new Int32Array(values.length);
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
   * Sorted merged samples: thousandths in an Int32Array while every sample is a 3-decimal
   * value (half the memory of doubles, exact), doubles once one is not.
   */
  private body: Int32Array | Float64Array = new Int32Array(0);
  /** null: `body` holds every sample; else body[r] is the value of run r, which ends before index runEnds[r]. */
  private runEnds: Int32Array | null = null;
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

  /** Bytes held by the samples. */
  get bytes(): number {
    return this.body.byteLength + (this.runEnds?.byteLength ?? 0) + this.tail.byteLength;
  }

  /** An independent set with the same samples (added in the same order: the same mean). */
  copy(): SampleSet {
    const copy = new SampleSet();
    copy.body = this.body.slice();
    copy.runEnds = this.runEnds === null ? null : this.runEnds.slice();
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
    if (ends === null) return this.body[i];
    let lo = 0;
    let hi = ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] > i) hi = mid;
      else lo = mid + 1;
    }
    return this.body[lo];
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

  /** numpy's linear percentile over body ∪ tail. */
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
      if (this.scaled) {
        this.body = Float64Array.from(this.body, (k) => k / 1000);
        this.scaled = false;
      }
      this.sortTail();
    }
    const n = this.bodyCount + tail.length;
    const merged =
      scaledTail !== null
        ? mergeSorted(this.flatBody(), scaledTail, new Int32Array(n))
        : mergeSorted(this.flatBody(), tail, new Float64Array(n));
    this.keepBody(merged);
    // A set stays alive for the whole session: its full 32 KB tail is let go, not kept empty.
    this.tail = new Float64Array(8);
    this.tailLength = 0;
    this.sortedUpTo = 0;
    this.mergeAt = Math.min(this.mergeAt * 2, MERGE_AT);
  }

  /** The body with every sample (runs expanded). */
  private flatBody(): Int32Array | Float64Array {
    const ends = this.runEnds;
    if (ends === null) return this.body;
    const out = this.scaled ? new Int32Array(this.bodyCount) : new Float64Array(this.bodyCount);
    let from = 0;
    for (let r = 0; r < ends.length; r++) {
      out.fill(this.body[r], from, ends[r]);
      from = ends[r];
    }
    return out;
  }

  /** Keeps sorted samples as they are, or as runs when that takes at most half the memory. */
  private keepBody(sorted: Int32Array | Float64Array): void {
    const n = sorted.length;
    let distinct = n === 0 ? 0 : 1;
    for (let i = 1; i < n; i++) if (sorted[i] !== sorted[i - 1]) distinct++;
    const width = sorted.BYTES_PER_ELEMENT;
    this.bodyCount = n;
    if (distinct * (width + 4) * 2 > n * width) {
      this.body = sorted;
      this.runEnds = null;
      return;
    }
    const values = this.scaled ? new Int32Array(distinct) : new Float64Array(distinct);
    const ends = new Int32Array(distinct);
    let r = 0;
    for (let i = 0; i < n; i++) {
      if (i > 0 && sorted[i] !== sorted[i - 1]) ends[r++] = i;
      values[r] = sorted[i];
    }
    ends[r] = n;
    this.body = values;
    this.runEnds = ends;
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
