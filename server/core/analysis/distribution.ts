// The distribution of a set of numbers (count, mean, p50/p90/p99, max), its percentiles as
// numpy's default (`method='linear'`): linear interpolation between the closest ranks,
// rank h = (n - 1) * p / 100 over the sorted values. Which percentiles are reported is
// server/core/reportedPercentiles.ts.
import type { Distribution } from './types';

export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = ((n - 1) * p) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const a = sorted[lo];
  const b = sorted[hi];
  return a + (h - lo) * (b - a);
}

/** count, mean, p50/p90/p99, max of already sorted values; null when there are none. */
export function distributionOfSorted(sorted: ArrayLike<number>, sum?: number): Distribution | null {
  const n = sorted.length;
  if (n === 0) return null;
  let total = sum;
  if (total === undefined) {
    total = 0;
    for (let i = 0; i < n; i++) total += sorted[i];
  }
  return {
    count: n,
    mean: total / n,
    p50: percentileOfSorted(sorted, 50),
    p90: percentileOfSorted(sorted, 90),
    p99: percentileOfSorted(sorted, 99),
    max: sorted[n - 1],
  };
}

export function distributionOf(values: readonly number[]): Distribution | null {
  return distributionOfSorted(Float64Array.from(values).sort());
}
