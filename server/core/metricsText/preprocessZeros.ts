// `vllm_omni:diffusion_preprocess_s` still gets a 0 s sample for a request whose model
// has no pre-processor (docs/formats.md#numbers-that-lie-in-known-ways, diffusion zeros), so a histogram full of "fast"
// pre-processing may really be "no pre-processor". A 0 lands in the first bucket
// (le=0.001 s), which also holds genuinely fast runs: the first-bucket count is an upper
// bound on such zeros, and that is all the buckets can tell.
import { replicaIdOf, stageIdOf } from './labels';
import { findFamily } from './metricNames';
import type { Labels, ParsedExposition } from './model';
import type { QuantileBounds } from './quantileBounds';
import { PERCENTILES } from '../reportedPercentiles';

export const DIFFUSION_PREPROCESS_FAMILY = 'vllm_omni:diffusion_preprocess_s';

export interface PreprocessFirstBucket {
  readonly labels: Labels;
  readonly stageId: number | null;
  readonly replicaId: number | null;
  /** All observations of the series; null when the server exposed no count. */
  readonly count: number | null;
  /** Upper bound of the first bucket, seconds. */
  readonly firstBucketLe: number;
  /** Observations <= firstBucketLe: at most this many are "no pre-processor" zeros. */
  readonly firstBucketCount: number;
}

/** One entry per exposed series with buckets; none when the family is absent. */
export function diffusionPreprocessFirstBuckets(exposition: ParsedExposition): PreprocessFirstBucket[] {
  const family = findFamily(exposition, DIFFUSION_PREPROCESS_FAMILY);
  if (family?.type !== 'histogram') return [];
  const result: PreprocessFirstBucket[] = [];
  for (const series of family.series) {
    const first = series.buckets[0];
    if (first === undefined) continue;
    result.push({
      labels: series.labels,
      stageId: stageIdOf(series.labels),
      replicaId: replicaIdOf(series.labels),
      count: series.count,
      firstBucketLe: first.le,
      firstBucketCount: first.cumulative,
    });
  }
  return result;
}

/**
 * Why the series' quantiles that read "at most the first bucket's bound" do not show
 * pre-processing time (null when none of them does): the first bucket also holds the
 * 0 s of every request whose model has no pre-processor.
 */
export function preprocessZerosCaveat(
  labels: Labels,
  firstBucket: { readonly le: number; readonly count: number },
  count: number | null,
  bounds: QuantileBounds | undefined,
): string | null {
  const inFirstBucket = PERCENTILES.filter((p) => bounds?.[p]?.kind === 'atMost');
  if (inFirstBucket.length === 0 || firstBucket.count <= 0) return null;
  const of = count === null ? '' : ` of ${count}`;
  const stage = stageIdOf(labels);
  return (
    `Pre-processing time${stage === null ? '' : ` on stage ${stage}`}: ${firstBucket.count}${of} observations are at most ${firstBucket.le} s, the bucket where vLLM-Omni also ` +
    `records 0 s for a request whose model has no pre-processor: ${inFirstBucket.join(', ')} ` +
    `"≤ ${firstBucket.le}" may mean no pre-processor, not fast pre-processing.`
  );
}
