// The three percentiles Stage Lens summarises every distribution at: per-stage summaries,
// Prometheus histogram quantiles, compare and its rules all report p50, p90 and p99. How a
// percentile of numbers is computed is analysis/distribution.ts.
export const PERCENTILES = ['p50', 'p90', 'p99'] as const;
export type Percentile = (typeof PERCENTILES)[number];
/** Each as a percent (the rank numpy's percentile takes). */
export const PERCENT_OF: Readonly<Record<Percentile, number>> = { p50: 50, p90: 90, p99: 99 };

/**
 * Values a percentile needs before some value lies above it (n ≥ 1/(1 − q)): p50 2, p90 10,
 * p99 100. From fewer, it is the largest value or an interpolation towards it, not a tail estimate.
 */
export function valuesAbovePercentile(percentile: Percentile): number {
  return valuesAbovePercent(PERCENT_OF[percentile]);
}

/** valuesAbovePercentile for any percent (a tail's p95: 20). */
export function valuesAbovePercent(percent: number): number {
  return Math.ceil(1 / (1 - percent / 100) - 1e-9);
}
