// PromQL's `histogram_quantile` for classic (bucketed) histograms, so that a quantile
// Stage Lens shows equals what the same buckets give in Prometheus/Grafana.
//
// A line-by-line port of `bucketQuantile`, `coalesceBuckets`, `correctPrecisionErrors`
// and `ensureMonotonic` in prometheus/prometheus `promql/quantile.go` at commit
// 01381a80115bde3f6dbb392123980d0bfadf49af (Apache-2.0). Semantics kept exactly:
//   - q NaN -> NaN; q < 0 -> -Inf; q > 1 -> +Inf (checked before anything else);
//   - buckets sorted by upper bound; highest bound not +Inf -> NaN;
//   - buckets with equal bounds are merged (counts added);
//   - count deltas within a relative 1e-12 are treated as float noise and flattened,
//     then any decrease is lifted to the running maximum (the "envelope");
//   - fewer than 2 buckets, or 0 observations -> NaN;
//   - rank = q * total; the first bucket whose cumulative count >= rank holds it;
//   - rank in the +Inf bucket -> the highest finite upper bound;
//   - rank in the first bucket with an upper bound <= 0 -> that bound (no interpolation);
//   - otherwise linear interpolation inside the bucket, the first bucket starting at 0.
// The only addition: an empty bucket list returns NaN (Prometheus never calls it so).
import type { HistogramBucket } from './model';

interface MutableBucket {
  upperBound: number;
  count: number;
}

const PRECISION_TOLERANCE = 1e-12;

function coalesceBuckets(buckets: MutableBucket[]): MutableBucket[] {
  const merged: MutableBucket[] = [];
  let last = { ...buckets[0] };
  for (let i = 1; i < buckets.length; i++) {
    const bucket = buckets[i];
    if (bucket.upperBound === last.upperBound) {
      last.count += bucket.count;
    } else {
      merged.push(last);
      last = { ...bucket };
    }
  }
  merged.push(last);
  return merged;
}

function correctPrecisionErrors(buckets: MutableBucket[], tolerance: number): void {
  let prev = buckets[0].count;
  for (let i = 1; i < buckets.length; i++) {
    const bucket = buckets[i];
    const delta = Math.abs(bucket.count - prev);
    if (delta === 0) continue;
    if (delta / bucket.count <= tolerance) bucket.count = prev;
    else prev = bucket.count;
  }
}

function ensureMonotonic(buckets: MutableBucket[]): void {
  let max = buckets[0].count;
  for (let i = 1; i < buckets.length; i++) {
    const bucket = buckets[i];
    if (bucket.count > max) max = bucket.count;
    else if (bucket.count < max) bucket.count = max;
  }
}

/** Go's sort.Search: the smallest i in [0, n) with pred(i), or n. */
function search(n: number, pred: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (!pred(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The q-quantile of a classic histogram, exactly as PromQL's histogram_quantile.
 * `buckets` are cumulative counts by inclusive upper bound, in any order; not modified.
 */
export function histogramQuantile(q: number, buckets: readonly HistogramBucket[]): number {
  if (Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  if (buckets.length === 0) return NaN;
  let sorted: MutableBucket[] = buckets.map((bucket) => ({ upperBound: bucket.le, count: bucket.cumulative }));
  sorted.sort((a, b) => (a.upperBound < b.upperBound ? -1 : a.upperBound > b.upperBound ? 1 : 0));
  if (sorted[sorted.length - 1].upperBound !== Infinity) return NaN;

  sorted = coalesceBuckets(sorted);
  correctPrecisionErrors(sorted, PRECISION_TOLERANCE);
  ensureMonotonic(sorted);

  if (sorted.length < 2) return NaN;
  const observations = sorted[sorted.length - 1].count;
  if (observations === 0) return NaN;
  let rank = q * observations;
  const b = search(sorted.length - 1, (i) => sorted[i].count >= rank);

  if (b === sorted.length - 1) return sorted[sorted.length - 2].upperBound;
  const bucket = sorted[b];
  if (b === 0 && bucket.upperBound <= 0) return bucket.upperBound;
  let bucketStart = 0;
  const bucketEnd = bucket.upperBound;
  let count = bucket.count;
  if (b > 0) {
    const previous = sorted[b - 1];
    bucketStart = previous.upperBound;
    count -= previous.count;
    rank -= previous.count;
  }
  return bucketStart + (bucketEnd - bucketStart) * (rank / count);
}
