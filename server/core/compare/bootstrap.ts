// Percentile-bootstrap confidence interval of the difference of one quantile between two
// independent samples (candidate − baseline), with numpy's linear quantile.
//
// Each resample is drawn exactly, without materialising n values: a bootstrap resample of
// a sorted sample x(1..n) is F⁻¹(U1..Un) with U uniform and F⁻¹(u) = x(ceil(n·u)), which is
// monotone, so its k-th order statistic is F⁻¹(U(k)), and U(k) ~ Beta(k, n−k+1). The next
// order statistic, needed for the linear interpolation, is U(k) plus (1 − U(k)) times the
// minimum of n−k uniforms, i.e. U(k+1) = U(k) + (1 − U(k))·(1 − V^(1/(n−k))). So a resampled
// quantile costs O(1) whatever n is, all n values take part (no subsampling), and the
// distribution of the resampled quantile is that of the ordinary resample-with-replacement
// bootstrap (test/unit/compare-stats.test.ts checks it against the naive one).
import { percentileOfSorted } from '../analysis/distribution';
import type { BootstrapRandom } from './bootstrapRandom';
import type { ConfidenceInterval } from './types';

export interface BootstrapOptions {
  /** e.g. 0.95 */
  readonly confidence: number;
  readonly resamples: number;
}

/** Value at bootstrap uniform u: x(ceil(n·u)), 1-based. */
function atUniform(sorted: Float64Array, u: number): number {
  const n = sorted.length;
  const i = Math.min(n - 1, Math.max(0, Math.ceil(n * u) - 1));
  return sorted[i];
}

/** One bootstrap draw of the p-th percentile (numpy linear) of `sorted`. */
export function resampledPercentile(sorted: Float64Array, p: number, random: BootstrapRandom): number {
  const n = sorted.length;
  const h = ((n - 1) * p) / 100;
  const lo = Math.floor(h);
  const frac = h - lo;
  const k = lo + 1; // 1-based order statistic
  const u1 = random.beta(k, n - k + 1);
  const a = atUniform(sorted, u1);
  if (frac === 0 || k >= n) return a;
  const u2 = u1 + (1 - u1) * (1 - Math.pow(random.uniform(), 1 / (n - k)));
  return a + frac * (atUniform(sorted, u2) - a);
}

/** The bootstrap distribution of quantile(candidate) − quantile(baseline), sorted. */
export function bootstrapDifferences(
  baseline: Float64Array,
  candidate: Float64Array,
  p: number,
  resamples: number,
  random: BootstrapRandom,
): Float64Array {
  const diffs = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++)
    diffs[b] = resampledPercentile(candidate, p, random) - resampledPercentile(baseline, p, random);
  return diffs.sort();
}

/** Percentile interval of the bootstrap distribution of the quantile difference. */
export function quantileDifferenceCi(
  baseline: Float64Array,
  candidate: Float64Array,
  p: number,
  options: BootstrapOptions,
  random: BootstrapRandom,
): ConfidenceInterval {
  const diffs = bootstrapDifferences(baseline, candidate, p, options.resamples, random);
  const tail = ((1 - options.confidence) / 2) * 100;
  return { low: percentileOfSorted(diffs, tail), high: percentileOfSorted(diffs, 100 - tail) };
}

/** The naive bootstrap (n index draws per resample): the reference the fast draw is tested against. */
export function naiveResampledPercentile(sorted: Float64Array, p: number, random: BootstrapRandom): number {
  const n = sorted.length;
  const resample = new Float64Array(n);
  for (let i = 0; i < n; i++) resample[i] = sorted[Math.floor(random.uniform() * n)];
  return percentileOfSorted(resample.sort(), p);
}
