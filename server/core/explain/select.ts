// Percentiles of a column without sorting it: quickselect in place (expected O(n)), with
// numpy's default linear interpolation between the two closest ranks, as every other
// percentile in Stage Lens (analysis/distribution.ts). A query over 100k requests takes
// one select per part instead of one sort per part.
import type { Distribution } from '../analysis/types';

/** Moves the k-th smallest of values[lo..hi] to index k (values[lo..k) <= it <= values(k..hi]). */
function selectInPlace(values: Float64Array, k: number, lo: number, hi: number): void {
  while (hi > lo) {
    // Median of three as the pivot: sorted and nearly sorted columns (times) stay linear.
    const mid = (lo + hi) >>> 1;
    const a = values[lo];
    const b = values[mid];
    const c = values[hi];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i] = values[j];
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/** numpy's linear percentile (p in 0..100) of the first n values; reorders them. NaN when n is 0. */
export function percentileInPlace(values: Float64Array, n: number, p: number): number {
  if (n === 0) return Number.NaN;
  const h = ((n - 1) * p) / 100;
  const lo = Math.floor(h);
  selectInPlace(values, lo, 0, n - 1);
  const a = values[lo];
  if (h === lo || lo + 1 >= n) return a;
  // The next rank is the smallest of what select left above lo.
  let b = Infinity;
  for (let i = lo + 1; i < n; i++) if (values[i] < b) b = values[i];
  return a + (h - lo) * (b - a);
}

/** count, mean, p50/p90/p99, max of the first n values (reorders them); null when n is 0. */
export function distributionInPlace(values: Float64Array, n: number): Distribution | null {
  if (n === 0) return null;
  let sum = 0;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    sum += v;
    if (v > max) max = v;
  }
  // Highest rank first: each select leaves the lower ranks to the left for the next.
  const p99 = percentileInPlace(values, n, 99);
  const p90 = percentileInPlace(values, n, 90);
  const p50 = percentileInPlace(values, n, 50);
  return { count: n, mean: sum / n, p50, p90, p99, max };
}

/**
 * The same as distributionInPlace for counts (non-negative integers) of the first n values,
 * by a histogram: one pass and a walk over the distinct counts instead of three selects.
 * The sum of integers is exact in any order, and every percentile reads the same ranks.
 */
export function countDistribution(values: Int32Array, n: number): Distribution | null {
  if (n === 0) return null;
  let sum = 0;
  let max = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    sum += v;
    if (v > max) max = v;
  }
  // ends[c]: how many values are <= c.
  const ends = new Int32Array(max + 1);
  for (let i = 0; i < n; i++) ends[values[i]]++;
  for (let c = 1; c <= max; c++) ends[c] += ends[c - 1];
  const kth = (k: number): number => {
    let lo = 0;
    let hi = max;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ends[mid] > k) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const percentile = (p: number): number => {
    const h = ((n - 1) * p) / 100;
    const lo = Math.floor(h);
    const a = kth(lo);
    if (h === lo || lo + 1 >= n) return a;
    return a + (h - lo) * (kth(lo + 1) - a);
  };
  return { count: n, mean: sum / n, p50: percentile(50), p90: percentile(90), p99: percentile(99), max };
}

// The loops of a one-shot report run a few dozen times each, too few for V8 to compile the
// functions around them whole: it compiles a hot loop on its own and throws that code away
// at the first call after the loop it has not seen run. Loops in small functions of their
// own, shared by every query, are compiled once and stay compiled.

/** Copies values[0..n) that are numbers (not NaN) to `into` in order (in place when it is `values`); returns how many. */
export function measuredInto(values: Float64Array, n: number, into: Float64Array): number {
  let count = 0;
  for (let k = 0; k < n; k++) {
    const v = values[k];
    if (!Number.isNaN(v)) into[count++] = v;
  }
  return count;
}

/** How many of values[0..n) are >= threshold. */
export function countAtLeast(values: Float64Array, n: number, threshold: number): number {
  let count = 0;
  for (let k = 0; k < n; k++) if (values[k] >= threshold) count++;
  return count;
}
